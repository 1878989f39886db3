#version 450
// Gather passes (scatter_gather_elements / _rows / _nd; vk_gather.cpp records them):
//   GATHER_VALIDATE  ERROR: the first index outside [-s, s) of the data dimension it addresses;
//                    CLAMP: the first index into a data dimension of size 0 (nothing to clamp to).
//                    One invocation per index; atomicMin keeps the smallest position.
//   GATHER           one invocation per out element: its index coordinates name a slice of data,
//                    whose element is copied byte for byte (FILL: the fill value's bytes when a
//                    coordinate is out of range). Nothing is written after a recorded failure.
// The geometry: out's dims are data's pass-through dims [0, P_GATHER_PREFIX), indices' head dims
// from P_GATHER_INDEX_FIRST, then data's dims after the indexed ones (scatter_shared.h).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

void validate_at(int position) {
    int depth = param(P_DEPTH);  // nd: indices' last dim holds the coordinates
    int size = tensor_shape(T_DATA, param(P_AXIS) + (depth > 1 ? position % depth : 0));
    int resolved;
    bool bad = param(P_POLICY) == SCATTER_OUT_OF_RANGE_ERROR
                   ? classify_index(offset_of_flat(T_INDICES, position), size, resolved) != INDEX_IN_RANGE
                   : size == 0;
    if (bad) atomicMin(status_words[S_BAD_INDEX], uint(position));
}

void gather_at(int position) {
    const int first = param(P_AXIS), depth = param(P_DEPTH), prefix = param(P_GATHER_PREFIX);
    const int index_first = param(P_GATHER_INDEX_FIRST), tail_first = index_first + param(P_GATHER_INDEX_DIMS);
    int out_offset = 0, data_offset = 0, index_offset = 0;
    int rest = position;
    for (int d = tensor_rank(T_OUT) - 1; d >= 0; --d) {
        int size = tensor_shape(T_OUT, d);
        int c = rest % size;
        rest /= size;
        out_offset += c * tensor_stride(T_OUT, d);
        if (d >= index_first && d < tail_first) index_offset += c * tensor_stride(T_INDICES, d - index_first);
        if (d < prefix && (d < first || d >= first + depth)) data_offset += c * tensor_stride(T_DATA, d);
        if (d >= tail_first) data_offset += c * tensor_stride(T_DATA, d - tail_first + first + depth);
    }
    int step = depth > 1 ? tensor_stride(T_INDICES, tensor_rank(T_INDICES) - 1) : 0;
    bool found = true;
    for (int c = 0; c < depth && found; ++c) {
        int coordinate;
        // ERROR: every index was validated; CLAMP: clamped; FILL: false when out of range.
        found = resolve_index(index_offset + c * step, tensor_shape(T_DATA, first + c), coordinate);
        data_offset += coordinate * tensor_stride(T_DATA, first + c);
    }
    uint size = uint(tensor_element_size(T_OUT));
    uint to = tensor_byte(T_OUT, out_offset);
    uint from = found ? tensor_byte(T_DATA, data_offset) : tensor_byte(T_UPDATES, 0);
    uint piece = piece_size_for(from, to, size);
    for (uint b = 0u; b < size; b += piece)
        out_store_piece(to + b, piece, found ? data_piece(from + b, piece) : update_piece(from + b, piece));
}

void gather_pass_at(uint id) {
    if (id >= pc.count) return;
    if (pc.mode == SCATTER_MODE_GATHER_VALIDATE) validate_at(int(id));
    else gather_at(int(id));
}

void main() {
    if (pc.mode == SCATTER_MODE_GATHER && operation_failed()) return;
    uint i = 0u;
    do gather_pass_at(tile_id(i));
    while (LOOPING_TILES && ++i < workgroup_tiles());
}
