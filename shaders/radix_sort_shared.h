/* Constants shared by shaders/radix_sort.comp and src/vulkan/vk_radix_sort.cpp: workgroup and
 * tile geometry, the sort's modes and the layout of its header in scratch. Plain #defines only,
 * so that GLSL and C++ include this one file. */
#ifndef SCATTER_SHADERS_RADIX_SORT_SHARED_H
#define SCATTER_SHADERS_RADIX_SORT_SHARED_H

/* Bits per digit (one pass each): 8 beat 4 on lavapipe (docs/vulkan.md, "Radix sort"). */
#ifndef RADIX_SORT_DIGIT_BITS
#define RADIX_SORT_DIGIT_BITS 8
#endif
#define RADIX_SORT_RADIX (1 << RADIX_SORT_DIGIT_BITS)
/* 128: Vulkan's minimum maxComputeWorkGroupInvocations, so every device runs it. */
#define RADIX_SORT_WORKGROUP_SIZE 128
/* Keys per invocation per tile: a tile is RADIX_SORT_ROUNDS rounds of one key per invocation. */
#define RADIX_SORT_ROUNDS 16
#define RADIX_SORT_TILE (RADIX_SORT_WORKGROUP_SIZE * RADIX_SORT_ROUNDS)
/* Histogram entries per invocation in the scan passes; a scan block is a workgroup's share. */
#define RADIX_SORT_SCAN_ITEMS 16
#define RADIX_SORT_SCAN_BLOCK (RADIX_SORT_WORKGROUP_SIZE * RADIX_SORT_SCAN_ITEMS)

/* Push constants: mode = RADIX_SORT_MODE_* | (digit pass << 8); count = the header's word in
 * the scratch binding (in its first window). */
#define RADIX_SORT_MODE_HISTOGRAM 0      /* per tile: digit counts into histograms[digit * tiles + tile] */
#define RADIX_SORT_MODE_SCAN_REDUCE 1    /* per scan block of the histograms: its sum into sums[block] */
#define RADIX_SORT_MODE_SCAN_SPINE 2     /* one workgroup: exclusive scan of sums */
#define RADIX_SORT_MODE_SCAN_DOWNSWEEP 3 /* per scan block: exclusive scan of its entries + sums[block] */
#define RADIX_SORT_MODE_SCATTER 4        /* per tile: each key and payload to its place, stably */
#define RADIX_SORT_MODE_GRIDS 5          /* one invocation: the grids below emptied when the order word
                                            says the keys are in order */
#define RADIX_SORT_MODE_MASK 0xff
#define RADIX_SORT_PASS_SHIFT 8

/* The header: uint32 words written by the recorder; every position is a word of the scratch
 * binding (window w holds words [w << window_shift, (w + 1) << window_shift)). */
#define RADIX_SORT_H_COUNT 0
#define RADIX_SORT_H_TILES 1
#define RADIX_SORT_H_SCAN_BLOCKS 2    /* of the histograms; 1: the sums are not used */
#define RADIX_SORT_H_WINDOW_SHIFT 3
#define RADIX_SORT_H_IMPLICIT_PAYLOAD 4 /* 1: the first pass takes each key's position as its payload */
#define RADIX_SORT_H_HISTOGRAMS 5
#define RADIX_SORT_H_SUMS 6
#define RADIX_SORT_H_KEYS 7           /* two words: keys of slot 0 and slot 1 (ping-pong) */
#define RADIX_SORT_H_PAYLOADS 9       /* two words: payloads of slot 0 and slot 1 */
#define RADIX_SORT_H_ORDER_WORD 11    /* a scratch word that holds 0 when the keys are already in
                                         order: the passes are then dispatched with no workgroups and
                                         the pairs stay in slot 0 (implicit payloads unwritten);
                                         RADIX_SORT_ALWAYS: sort (direct dispatches, no grids pass) */
#define RADIX_SORT_H_GRIDS 12         /* with an order word: three (x, y, z) workgroup counts of the
                                         passes' indirect dispatches (RADIX_SORT_GRID_*) */
#define RADIX_SORT_GRID_TILES 0       /* HISTOGRAM, SCATTER */
#define RADIX_SORT_GRID_SCAN_BLOCKS 1 /* SCAN_REDUCE, SCAN_DOWNSWEEP */
#define RADIX_SORT_GRID_ONE 2         /* SCAN_SPINE */
#define RADIX_SORT_GRIDS 3
#define RADIX_SORT_H_WORDS 21
#define RADIX_SORT_ALWAYS 0xffffffffu

#endif
