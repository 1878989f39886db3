#version 450
// Copy pass: out = data, element by element through both tensors' strides, unless an index pass
// already found an error (then out stays untouched). Element sizes of any byte count.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

void copy_at(uint id) {
    if (id >= pc.count) return;
    int position = int(id);
    uint size = uint(tensor_element_size(T_OUT));
    uint from = tensor_byte(T_DATA, offset_of_flat(T_DATA, position));
    uint to = tensor_byte(T_OUT, offset_of_flat(T_OUT, position));
    uint piece = piece_size_for(from, to, size);
    for (uint b = 0u; b < size; b += piece) out_store_piece(to + b, piece, data_piece(from + b, piece));
}

void main() {
    if (operation_failed()) return;
    uint i = 0u;
    do copy_at(tile_id(i));
    while (LOOPING_TILES && ++i < workgroup_tiles());
}
