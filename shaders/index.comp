#version 450
// Index passes, run before anything is written:
//   VALIDATE_ELEMENTS  elements + policy ERROR: the first out-of-range index (position position)
//   RESOLVE_SLICES     rows/nd: each slice's target row, out offset and updates offset
//                      (+ the first out-of-range index under policy ERROR)
//   CHECK_DIVISORS     integer div: the first zero update that would be applied
// Failures are recorded with atomicMin, so the smallest position position wins whatever the order.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

void validate_elements(int position) {
    int resolved;
    int offset = offset_of_flat(T_INDICES, position);
    if (classify_index(offset, tensor_shape(T_OUT, param(P_AXIS)), resolved) != INDEX_IN_RANGE)
        atomicMin(status_words[S_BAD_INDEX], uint(position));
}

void resolve_slice(int j) {
    bool applied = true;
    int row = 0;
    int out_offset = 0;
    int update_offset = 0;
    int slice_dims = param(P_SLICE_DIMS);
    // j over the slice dims of indices (rows: all of them; nd: all but the last).
    int rest = j;
    int index_offset = 0;
    for (int e = slice_dims - 1; e >= 0; --e) {
        int size = tensor_shape(T_INDICES, e);
        int c = rest % size;
        rest /= size;
        index_offset += c * tensor_stride(T_INDICES, e);
        update_offset += c * tensor_stride(T_UPDATES, param(P_UPDATE_SLICE_DIM) + e);
    }
    bool report = param(P_POLICY) == SCATTER_OUT_OF_RANGE_ERROR;
    if (param(P_OP) == SCATTER_OP_ROWS) {
        int axis = param(P_AXIS);
        int coordinate;
        if (!resolve_index(index_offset, tensor_shape(T_OUT, axis), coordinate)) {
            applied = false;
            if (report) atomicMin(status_words[S_BAD_INDEX], uint(j));
        }
        row = coordinate;
        out_offset = coordinate * tensor_stride(T_OUT, axis);
    } else {
        int depth = param(P_DEPTH);
        int last_stride = tensor_stride(T_INDICES, slice_dims);
        for (int c = 0; c < depth; ++c) {
            int size = tensor_shape(T_OUT, c);
            int coordinate;
            if (!resolve_index(index_offset + c * last_stride, size, coordinate)) {
                if (report && applied) atomicMin(status_words[S_BAD_INDEX], uint(j * depth + c));
                applied = false;
            }
            row = row * size + coordinate;
            out_offset += coordinate * tensor_stride(T_OUT, c);
        }
    }
    scratch_store_word(uint(param(P_SLICE_ROW_BASE) + j), uint(applied ? row : -1));
    scratch_store_word(uint(param(P_SLICE_OFFSET_BASE) + j), uint(out_offset));
    scratch_store_word(uint(param(P_SLICE_UPDATE_BASE) + j), uint(update_offset));
}

bool update_is_zero(int position) {
    uint size = uint(tensor_element_size(T_UPDATES));
    uint byte = tensor_byte(T_UPDATES, offset_of_flat(T_UPDATES, position));
    if (size <= 4u) return update_piece(byte, size) == 0u;
    for (uint w = 0u; w < size / 4u; ++w)
        if (update_word((byte >> 2u) + w) != 0u) return false;
    return true;
}

void check_divisor(int position) {
    if (!update_is_zero(position)) return;
    bool applied;
    if (param(P_OP) == SCATTER_OP_ELEMENTS) {
        int resolved;
        applied = resolve_index(offset_of_flat(T_INDICES, position), tensor_shape(T_OUT, param(P_AXIS)), resolved);
    } else {
        int j = (position / param(P_INNER)) % param(P_SLICES);
        applied = int(scratch_word(uint(param(P_SLICE_ROW_BASE) + j))) >= 0;
    }
    if (applied) atomicMin(status_words[S_BAD_DIVISOR], uint(position));
}

void index_pass_at(uint id) {
    if (id >= pc.count) return;
    if (pc.mode == SCATTER_MODE_VALIDATE_ELEMENTS) validate_elements(int(id));
    else if (pc.mode == SCATTER_MODE_RESOLVE_SLICES) resolve_slice(int(id));
    else check_divisor(int(id));
}

void main() {
    uint i = 0u;
    do index_pass_at(tile_id(i));
    while (LOOPING_TILES && ++i < workgroup_tiles());
}
