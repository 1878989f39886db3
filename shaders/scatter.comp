#version 450
// The scatter pass, owner-computes: one invocation per column, a column being every update that
// can reach a fixed set of targets no other column reaches. It applies its updates in row-major
// order, so duplicates are reduced in exactly the order the CPU backend uses, with no atomics on
// values and bitwise-identical results from run to run.
//   elements: a column is a position of indices with the axis coordinate left free; the loop
//             runs along the axis.
//   rows/nd:  a column is an (outer, inner) position of the target slice; the loop runs over the
//             slices, whose targets the index pass resolved into scratch tables.
// Mode FINISH_MEAN divides every hit target by its count (+1 unless exclude_self).
// SCATTER_DTYPE selects the arithmetic; 0 is `none` for every dtype (a byte copy, opaque too).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#if SCATTER_DTYPE != SCATTER_DT_RAW
#include "element_math.glsl"
#endif

void apply_update(int out_offset, int update_offset, int count_index) {
    uint to = tensor_byte(T_OUT, out_offset);
    uint from = tensor_byte(T_UPDATES, update_offset);
#if SCATTER_DTYPE == SCATTER_DT_RAW
    uint size = uint(tensor_element_size(T_OUT));
    uint piece = piece_size_for(from, to, size);
    for (uint b = 0u; b < size; b += piece) out_store_piece(to + b, piece, update_piece(from + b, piece));
#else
    uint reduction = uint(p[P_REDUCTION]);
    uvec4 target;
    bool fresh = false;
    if (p[P_HAS_COUNTS] != 0) {
        // Only this invocation touches this target, so the count needs no atomics.
        uint word = uint(p[P_COUNTS_BASE] + count_index);
        uint hits = scratch_word(word);
        scratch_store_word(word, hits + 1u);
        fresh = hits == 0u && p[P_EXCLUDE_SELF] != 0;
    }
    target = fresh ? identity_raw(reduction) : load_out_element(to);
    store_out_element(to, step_raw(reduction, target, load_update_element(from)));
#endif
}

void apply_elements_column(int column) {
    int axis = p[P_AXIS];
    int rank = tensor_rank(T_INDICES);
    int index_offset = 0, update_offset = 0, out_offset = 0, count_offset = 0;
    int count_stride = 1;  // row-major strides of the data shape index the hit counts
    int axis_count_stride = 1;
    int rest = column;
    for (int d = rank - 1; d >= 0; --d) {
        if (d == axis) {
            axis_count_stride = count_stride;
        } else {
            int size = tensor_shape(T_INDICES, d);
            int c = rest % size;
            rest /= size;
            index_offset += c * tensor_stride(T_INDICES, d);
            update_offset += c * tensor_stride(T_UPDATES, d);
            out_offset += c * tensor_stride(T_OUT, d);
            count_offset += c * count_stride;
        }
        count_stride *= tensor_shape(T_OUT, d);
    }
    int axis_size = tensor_shape(T_OUT, axis);
    int length = tensor_shape(T_INDICES, axis);
    for (int k = 0; k < length; ++k) {
        int target;
        if (!resolve_index(index_offset + k * tensor_stride(T_INDICES, axis), axis_size, target)) continue;
        apply_update(out_offset + target * tensor_stride(T_OUT, axis),
                     update_offset + k * tensor_stride(T_UPDATES, axis),
                     count_offset + target * axis_count_stride);
    }
}

void apply_slices_column(int column) {
    int inner = p[P_INNER];
    int i = column % inner;
    int o = column / inner;
    int out_offset = 0, update_offset = 0;
    // The inner part: data dims from P_INNER_FIRST_DIM on.
    int rest = i;
    for (int d = tensor_rank(T_OUT) - 1; d >= p[P_INNER_FIRST_DIM]; --d) {
        int size = tensor_shape(T_OUT, d);
        int c = rest % size;
        rest /= size;
        out_offset += c * tensor_stride(T_OUT, d);
        update_offset += c * tensor_stride(T_UPDATES, d + p[P_UPDATE_DIM_SHIFT]);
    }
    // The outer part (rows only): data dims before the axis, the same dims in updates.
    rest = o;
    for (int d = p[P_OP] == SCATTER_OP_ROWS ? p[P_AXIS] - 1 : -1; d >= 0; --d) {
        int size = tensor_shape(T_OUT, d);
        int c = rest % size;
        rest /= size;
        out_offset += c * tensor_stride(T_OUT, d);
        update_offset += c * tensor_stride(T_UPDATES, d);
    }
    int slices = p[P_SLICES];
    int target_rows = p[P_TARGET_ROWS];
    for (int j = 0; j < slices; ++j) {
        int row = int(scratch_word(uint(p[P_SLICE_ROW_BASE] + j)));
        if (row < 0) continue;
        apply_update(out_offset + int(scratch_word(uint(p[P_SLICE_OFFSET_BASE] + j))),
                     update_offset + int(scratch_word(uint(p[P_SLICE_UPDATE_BASE] + j))),
                     (o * target_rows + row) * inner + i);
    }
}

#if SCATTER_DTYPE != SCATTER_DT_RAW
void finish_mean(int position) {
    uint hits = scratch_word(uint(p[P_COUNTS_BASE] + position));
    if (hits == 0u) return;
    uint terms = hits + (p[P_EXCLUDE_SELF] != 0 ? 0u : 1u);
    uint byte = tensor_byte(T_OUT, offset_of_flat(T_OUT, position));
    store_out_element(byte, mean_raw(load_out_element(byte), terms));
}
#endif

void main() {
    uint id = invocation_index();
    if (id >= pc.count || operation_failed()) return;
#if SCATTER_DTYPE != SCATTER_DT_RAW
    if (pc.mode == SCATTER_MODE_FINISH_MEAN) {
        finish_mean(int(id));
        return;
    }
#endif
    if (p[P_OP] == SCATTER_OP_ELEMENTS) apply_elements_column(int(id));
    else apply_slices_column(int(id));
}
