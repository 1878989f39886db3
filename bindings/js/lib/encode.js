'use strict';
// One operation's C arguments, written by hand into one ArrayBuffer: the scatter_tensor structs,
// the scatter_options and the shape and stride arrays the tensors point to.
//
// Why by hand: koffi converts a JS object to a struct by looking up each member by name, about
// 2 µs per struct, so four tensors and the options cost ten times what a small scatter takes in
// the library. Writing the bytes at the members' offsets, taken from the koffi declarations that
// the layout test checks against the C header, costs a fraction of that.
//
// The tensors hold raw addresses (koffi.address: the memory of a TypedArray, byteOffset
// included; never a copy). Nothing else would keep those arrays reachable while the library uses
// their memory, so they are pinned until the call returns.

const { koffi, Tensor, Options, TENSOR_SIZE, OPTIONS_SIZE } = require('./library');
const { DTYPES } = require('./tensor');

/** Member name -> byte offset, from a koffi struct. */
function offsets(struct) {
  return Object.fromEntries(Object.keys(struct.members).map((name) => [name, koffi.offsetof(struct, name)]));
}

const TENSOR = offsets(Tensor);
const OPTIONS = offsets(Options);
const POINTER_SIZE = koffi.sizeof('void *');

// Arrays (and the argument buffers) in use by the call now running. A module-level array is
// always reachable, and a push and pop around the call cannot be optimized away.
const pinned = [];

/** Writes the C arguments; `at(byteOffset)` gives the address of a byte of the buffer. */
class Writer {
  constructor(bytes) {
    this.buffer = new ArrayBuffer(bytes);
    this.u32 = new Uint32Array(this.buffer);
    this.i32 = new Int32Array(this.buffer);
    this.i64 = new BigInt64Array(this.buffer);
    this.base = koffi.address(this.u32);
  }

  at(offset) {
    return this.base + BigInt(offset);
  }

  uint32(offset, value) {
    this.u32[offset / 4] = value;
  }

  int32(offset, value) {
    this.i32[offset / 4] = value;
  }

  int64(offset, value) {
    this.i64[offset / 8] = value;
  }

  pointer(offset, address) {
    if (POINTER_SIZE === 8) this.i64[offset / 8] = BigInt.asIntN(64, address);
    else this.u32[offset / 4] = Number(address);
  }
}

/**
 * Calls one of scatter_elements / scatter_rows / scatter_nd.
 * @param {Function} cFunction The koffi function.
 * @param {bigint} context The context handle.
 * @param {import('./tensor').TensorArg[]} tensors data, indices, updates, out (out may be data's
 *   TensorArg itself: then both are one descriptor, for an in-place call).
 * @param {{axis: number, reduction: number, out_of_range: number, flags: number}} options
 * @returns {number} The status.
 */
function callOperation(cFunction, context, tensors, options) {
  const distinct = [...new Set(tensors)];
  // Layout: the tensors, the options, then every tensor's shape and strides (int64, 8-aligned:
  // TENSOR_SIZE is a multiple of 8 since the struct holds 8-byte members).
  const optionsAt = distinct.length * TENSOR_SIZE;
  let extentsAt = Math.ceil((optionsAt + OPTIONS_SIZE) / 8) * 8;
  const extentCount = distinct.reduce((n, t) => n + t.shape.length * (t.strides ? 2 : 1), 0);
  const w = new Writer(extentsAt + extentCount * 8);
  const addresses = new Map();
  distinct.forEach((t, k) => {
    const at = k * TENSOR_SIZE;
    const rank = t.shape.length;
    const extents = (list) => {
      list.forEach((v, d) => w.int64(extentsAt + d * 8, v));
      const address = w.at(extentsAt);
      extentsAt += list.length * 8;
      return address;
    };
    w.uint32(at + TENSOR.struct_size, TENSOR_SIZE);
    w.int32(at + TENSOR.dtype, DTYPES[t.dtype]);
    w.uint32(at + TENSOR.element_size, 0); // 0: the dtype's size
    w.uint32(at + TENSOR.rank, rank);
    w.pointer(at + TENSOR.shape, rank ? extents(t.shape) : 0n);
    w.pointer(at + TENSOR.strides, t.strides ? extents(t.strides) : 0n);
    const data = koffi.address(t.array) + t.offset * BigInt(t.elementSize);
    w.pointer(at + TENSOR.data, data);
    w.pointer(at + TENSOR.buffer, 0n);
    w.int64(at + TENSOR.byte_offset, 0n);
    addresses.set(t, w.at(at));
  });
  w.uint32(optionsAt + OPTIONS.struct_size, OPTIONS_SIZE);
  w.int32(optionsAt + OPTIONS.axis, options.axis);
  w.int32(optionsAt + OPTIONS.reduction, options.reduction);
  w.int32(optionsAt + OPTIONS.out_of_range, options.out_of_range);
  w.uint32(optionsAt + OPTIONS.flags, options.flags);
  const [data, indices, updates, out] = tensors.map((t) => addresses.get(t));
  pinned.push(w.buffer, ...distinct.map((t) => t.array));
  const count = 1 + distinct.length;
  try {
    return cFunction(context, data, indices, updates, w.at(optionsAt), out);
  } finally {
    pinned.length -= count;
  }
}

module.exports = { callOperation };
