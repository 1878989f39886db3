// The slab path's tiles (vk_path.h): their geometry from the parameter block, shared by
// scatter.comp's SLAB (every reduction, in position order) and atomic.comp's SLAB (order-free
// reductions with shared-memory atomics).
#ifndef SLAB_TILE_GLSL
#define SLAB_TILE_GLSL

// A fiber is out with every coordinate but the axis fixed. A tile is `columns` fibers adjacent
// along out's last dim (one fiber when the axis is the last dim), and of those fibers the range
// of `targets` targets from `first_target` on (the whole axis unless P_SLAB_RANGE_TARGETS splits
// it: the tiles of the ranges then each read all the fibers' updates and keep those whose target
// is theirs, their neighbours in the numbering, so the repeated reads are mostly served from a
// GPU's L2). The table interleaves them
// (target t of column c at word t * columns + c) and consecutive lanes take consecutive
// columns, so with the axis not last, out, data, indices and updates are read and written in
// runs of `columns` adjacent elements. Offsets are of column 0's element 0; `items` (indices'
// axis length) is 0 where indices do not reach the tile, `index_columns` the columns they reach.
struct Tile {
    int out_base, data_base, index_base, update_base;
    int targets, items, columns, index_columns;
    int out_col, data_col, index_col, update_col;  // element strides from a column to the next
    int first_target, axis_length;                 // the tile's first target; the axis length
};

// Tile g: fibers numbered row-major over out's dims but the axis, in runs of P_SLAB_COLUMNS
// along the last dim (a shorter run at the end of each row), each run's target ranges adjacent.
Tile tile_of(int g) {
    const int axis = param(P_AXIS), last = tensor_rank(T_OUT) - 1;
    const int width = param(P_SLAB_COLUMNS);
    const int length = tensor_shape(T_OUT, axis), range_targets = param(P_SLAB_RANGE_TARGETS);
    const int ranges = (length + range_targets - 1) / range_targets;
    const int first_target = (g % ranges) * range_targets;
    g /= ranges;
    int fiber = g, first_column = 0, columns = 1;
    if (axis != last) {
        const int row_length = tensor_shape(T_OUT, last);
        const int tiles_per_row = (row_length + width - 1) / width;
        first_column = (g % tiles_per_row) * width;
        fiber = (g / tiles_per_row) * row_length + first_column;
        columns = min(width, row_length - first_column);
    }
    Tile r = Tile(0, 0, 0, 0, min(range_targets, length - first_target), tensor_shape(T_INDICES, axis), columns, 0,
                  0, 0, 0, 0, first_target, length);
    int rest = fiber;
    for (int d = last; d >= 0; --d) {
        if (d == axis) continue;
        int size = tensor_shape(T_OUT, d);
        int c = rest % size;
        rest /= size;
        r.out_base += c * tensor_stride(T_OUT, d);
        r.data_base += c * tensor_stride(T_DATA, d);
        if (c >= tensor_shape(T_INDICES, d)) r.items = 0;
        else {
            r.index_base += c * tensor_stride(T_INDICES, d);
            r.update_base += c * tensor_stride(T_UPDATES, d);
        }
    }
    if (r.items != 0) r.index_columns = axis == last ? 1 : min(columns, tensor_shape(T_INDICES, last) - first_column);
    if (axis != last) {
        r.out_col = tensor_stride(T_OUT, last);
        r.data_col = tensor_stride(T_DATA, last);
        r.index_col = tensor_stride(T_INDICES, last);
        r.update_col = tensor_stride(T_UPDATES, last);
    }
    return r;
}

// Update j of the tile, j = position * index_columns + column (so a slot's updates come in
// position order as j grows): its element offset in updates, and its target's table slot, or
// -1 when its index is skipped or its target is another range's.
int tile_update_offset(Tile tl, int j) {
    const int k = j / tl.index_columns, c = j - k * tl.index_columns;
    return tl.update_base + c * tl.update_col + k * tensor_stride(T_UPDATES, param(P_AXIS));
}

int tile_update_slot(Tile tl, int j) {
    const int k = j / tl.index_columns, c = j - k * tl.index_columns;
    int target;
    if (!resolve_index(tl.index_base + c * tl.index_col + k * tensor_stride(T_INDICES, param(P_AXIS)), tl.axis_length, target))
        return -1;
    target -= tl.first_target;
    if (uint(target) >= uint(tl.targets)) return -1;
    return target * tl.columns + c;
}

// Element offsets in out and data of the tile's table slot e.
void tile_slot(Tile tl, int e, out int out_offset, out int data_offset) {
    const int axis = param(P_AXIS);
    const int c = e % tl.columns, t = e / tl.columns + tl.first_target;
    out_offset = tl.out_base + c * tl.out_col + t * tensor_stride(T_OUT, axis);
    data_offset = tl.data_base + c * tl.data_col + t * tensor_stride(T_DATA, axis);
}

#endif
