'use strict';
// The tensor arguments: TypedArrays with a shape (and strides), checked, for encode.js to describe
// as scatter_tensor structs pointing at the arrays' own memory (no copies; a subarray is a view).
//
// The library checks everything it can see (dtypes, shapes against each other, overlaps), but it
// cannot see how long a TypedArray is: every tensor is checked here to lie inside its array before
// the call, so no shape or stride can make the library read or write past the array.

const { MAX_RANK } = require('./library');
const { InvalidArgumentError, ShapeMismatchError, TypeMismatchError } = require('./errors');
const { cIntegerBig, choice } = require('./validate');

/** scatter_dtype values of the dtypes a TypedArray can hold (scatter.h). */
const DTYPES = Object.freeze({
  f16: 1, bf16: 2, f32: 3, f64: 4,
  i8: 5, i16: 6, i32: 7, i64: 8,
  u8: 9, u16: 10, u32: 11, u64: 12,
  bool: 13,
});

// TypedArrays are told apart by their [[TypedArrayName]] (Symbol.toStringTag), not by their
// constructor: a Node Buffer is a Uint8Array, and an array made in another realm (node:vm) has
// that realm's constructor.

/** The dtype each kind of TypedArray holds when no `dtype` is named. */
const NATURAL_DTYPES = new Map([
  ['Float32Array', 'f32'], ['Float64Array', 'f64'],
  ['Int8Array', 'i8'], ['Int16Array', 'i16'], ['Int32Array', 'i32'], ['BigInt64Array', 'i64'],
  ['Uint8Array', 'u8'], ['Uint16Array', 'u16'], ['Uint32Array', 'u32'], ['BigUint64Array', 'u64'],
]);
// Float16Array is new (Node 24 without a flag); where it exists it holds f16 natively.
if (typeof globalThis.Float16Array === 'function') NATURAL_DTYPES.set('Float16Array', 'f16');

/** Dtypes with no TypedArray of their own, held as raw elements of the same size. */
const NAMED_DTYPES = new Map([
  ['bool', 'Uint8Array'], // one byte, 0 false, anything else true
  ['f16', 'Uint16Array'], // IEEE binary16 bit patterns
  ['bf16', 'Uint16Array'], // bfloat16 bit patterns
]);

const TENSOR_KEYS = ['data', 'shape', 'strides', 'offset', 'dtype'];

/**
 * Whether `value` is a TypedArray (an ArrayBufferView other than a DataView).
 * @param {*} value
 * @returns {boolean}
 */
function isTypedArray(value) {
  return ArrayBuffer.isView(value) && !(value instanceof DataView);
}

/** 'Float32Array', 'Uint8Array' (a Buffer too), ... */
function kindOf(array) {
  return array[Symbol.toStringTag];
}

function className(value) {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return (value.constructor && value.constructor.name) || 'object';
}

/** The dtype name of `array`, given the tensor's optional `dtype`. */
function dtypeOf(array, named, name) {
  const kind = kindOf(array);
  const natural = NATURAL_DTYPES.get(kind);
  if (named === undefined) {
    if (natural === undefined) {
      const why = kind === 'Uint8ClampedArray'
        ? ' (its writes clamp, while u8 arithmetic wraps): view the same memory as a Uint8Array'
        : '';
      throw new TypeMismatchError(`${name} is a ${kind}, which holds no libscatter dtype${why}`);
    }
    return natural;
  }
  choice(DTYPES, named, `${name}.dtype`);
  if (named === natural || NAMED_DTYPES.get(named) === kind) return named;
  const holder = NAMED_DTYPES.get(named) || [...NATURAL_DTYPES].find(([, d]) => d === named)[0];
  throw new TypeMismatchError(`${name}.dtype '${named}' needs its data in a ${holder}, not a ${kind}`);
}

/** Integers of a shape or strides list as BigInts, checked. */
function integerList(list, name) {
  if (!Array.isArray(list)) throw new TypeError(`${name} must be an array of integers, not ${className(list)}`);
  return list.map((v, d) => cIntegerBig(v, 'int64', `${name}[${d}]`));
}

/**
 * A tensor argument, checked to lie inside its array, and the scatter_tensor that describes it.
 */
class TensorArg {
  /**
   * @param {ArrayBufferView} array The memory.
   * @param {object} view
   * @param {bigint[]} view.shape
   * @param {bigint[]|null} [view.strides] In elements; null for contiguous row-major.
   * @param {bigint} [view.offset] Index in `array` of element [0, ..., 0].
   * @param {string} view.dtype A key of DTYPES.
   * @param {boolean} [view.named] Whether the caller named the dtype (a result names it too).
   * @param {boolean} [view.bare] Whether the caller passed a bare TypedArray (a result is one too).
   * @param {string} name How messages name the argument.
   */
  constructor(array, { shape, strides = null, offset = 0n, dtype, named = false, bare = false }, name) {
    if (shape.length > MAX_RANK) {
      throw new ShapeMismatchError(`${name} has rank ${shape.length}, more than the maximum rank ${MAX_RANK}`);
    }
    shape.forEach((s, d) => {
      if (s < 0n) throw new ShapeMismatchError(`${name}.shape[${d}] = ${s} is negative`);
    });
    const count = shape.reduce((a, b) => a * b, 1n);
    const length = BigInt(array.length);
    const shown = `[${shape.join(', ')}]`;
    if (strides === null) {
      if (count !== length) {
        throw new ShapeMismatchError(
          `${name} has shape ${shown} (${count} elements) but its data holds ${length}`);
      }
    } else {
      if (strides.length !== shape.length) {
        throw new ShapeMismatchError(
          `${name} has ${strides.length} strides for its ${shape.length} dimensions`);
      }
      if (offset < 0n || offset > length) {
        throw new InvalidArgumentError(`${name}.offset = ${offset} is outside its data's [0, ${length}]`);
      }
      if (count > 0n) {
        // The lowest and highest elements the view reaches, which must lie inside the array.
        let low = offset;
        let high = offset;
        shape.forEach((s, d) => {
          const reach = (s - 1n) * strides[d];
          if (reach < 0n) low += reach; else high += reach;
        });
        if (low < 0n || high >= length) {
          throw new ShapeMismatchError(
            `${name} with shape ${shown}, strides [${strides.join(', ')}] and offset ${offset} reaches ` +
            `elements ${low} to ${high} of data that holds ${length}`);
        }
      }
    }
    this.array = array;
    this.shape = shape;
    this.strides = strides;
    this.offset = offset;
    this.dtype = dtype;
    this.named = named;
    this.bare = bare;
    this.name = name;
    this.count = count;
  }

  /**
   * A new zero-filled contiguous tensor of this one's shape and dtype, as [TensorArg, result]:
   * the result has the form the caller used for this tensor.
   */
  allocateLike() {
    // This realm's class of the same kind (a Buffer's result is a Uint8Array).
    const array = new globalThis[kindOf(this.array)](Number(this.count));
    const arg = new TensorArg(array, { shape: this.shape, dtype: this.dtype, named: this.named }, 'out');
    if (this.bare) return [arg, array];
    const result = { data: array, shape: this.shape.map(Number) };
    if (this.named) result.dtype = this.dtype;
    return [arg, result];
  }
}

/**
 * A data, updates or out argument: a TypedArray (1-D) or {data, shape, strides?, offset?, dtype?}.
 * @param {*} value
 * @param {string} name
 * @returns {TensorArg}
 */
function tensorArg(value, name) {
  if (isTypedArray(value)) {
    const shape = [BigInt(value.length)];
    return new TensorArg(value, { shape, dtype: dtypeOf(value, undefined, name), bare: true }, name);
  }
  if (value === null || typeof value !== 'object' || !isTypedArray(value.data)) {
    throw new TypeError(`${name} must be a TypedArray or {data: TypedArray, shape, strides?, offset?, dtype?}, ` +
      `not ${className(value)}`);
  }
  checkKeys(value, name);
  const array = value.data;
  const shape = value.shape === undefined ? [BigInt(array.length)] : integerList(value.shape, `${name}.shape`);
  const strides = value.strides === undefined || value.strides === null
    ? null : integerList(value.strides, `${name}.strides`);
  const offset = value.offset === undefined ? 0n : cIntegerBig(value.offset, 'int64', `${name}.offset`);
  if (strides === null && offset !== 0n) {
    throw new InvalidArgumentError(`${name}.offset needs ${name}.strides: a contiguous tensor is its whole ` +
      'data (pass a subarray to start further in)');
  }
  const dtype = dtypeOf(array, value.dtype, name);
  return new TensorArg(array, { shape, strides, offset, dtype, named: value.dtype !== undefined }, name);
}

/**
 * The `out` argument: as tensorArg, except that a bare TypedArray is taken as a contiguous tensor
 * of data's shape (and data's named dtype when it is the same kind of array), since `out` always
 * has data's shape and dtype.
 * @param {*} value
 * @param {TensorArg} data
 * @returns {TensorArg}
 */
function outArg(value, data) {
  if (!isTypedArray(value)) return tensorArg(value, 'out');
  const dtype = data.named && kindOf(value) === kindOf(data.array)
    ? data.dtype : dtypeOf(value, undefined, 'out');
  if (BigInt(value.length) !== data.count) {
    throw new ShapeMismatchError(`out holds ${value.length} elements but data has shape ` +
      `[${data.shape.join(', ')}] (${data.count} elements)`);
  }
  return new TensorArg(value, { shape: data.shape, dtype, named: data.named }, 'out');
}

/**
 * The indices: an Int32Array or BigInt64Array (or any TypedArray: the library names a wrong
 * dtype), a {data, shape, ...} object of one, or plain integers: a scalar, a (nested) array, or
 * {data: array, shape}. Plain integers become a new BigInt64Array, each checked to be a safe
 * integer Number or an int64 BigInt, so that no index is rounded or wrapped on the way.
 * @param {*} value
 * @returns {TensorArg}
 */
function indexArg(value) {
  const name = 'indices';
  if (isTypedArray(value) || (value !== null && typeof value === 'object' && isTypedArray(value.data))) {
    return tensorArg(value, name);
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    return new TensorArg(integerArray([value], name), { shape: [], dtype: 'i64' }, name);
  }
  if (Array.isArray(value)) {
    const [shape, values] = flatten(value, name);
    return new TensorArg(integerArray(values, name), { shape, dtype: 'i64' }, name);
  }
  if (value !== null && typeof value === 'object' && Array.isArray(value.data)) {
    checkKeys(value, name);
    if (value.strides !== undefined || value.offset !== undefined || value.dtype !== undefined) {
      throw new TypeError('indices given as a plain array take only a shape (they become a new BigInt64Array)');
    }
    // The array's own nesting gives the values; `shape`, when given, reshapes them.
    const [nested, values] = flatten(value.data, name);
    const shape = value.shape === undefined ? nested : integerList(value.shape, 'indices.shape');
    return new TensorArg(integerArray(values, name), { shape, dtype: 'i64' }, name);
  }
  throw new TypeError('indices must be an Int32Array or BigInt64Array, {data, shape}, or plain integers, ' +
    `not ${className(value)}`);
}

/**
 * The shape and the row-major values of a rectangular nested array; ragged nesting is refused.
 * Plain loops, not Array.prototype.flat: flat() and forEach() skip the holes of a sparse array,
 * which would shift or drop indices without a word.
 * @returns {[bigint[], Array]}
 */
function flatten(value, name) {
  const shape = [];
  for (let level = value; Array.isArray(level); level = level[0]) {
    shape.push(BigInt(level.length));
    if (level.length === 0) break;
  }
  const values = [];
  const walk = (node, depth, where) => {
    if (depth === shape.length) {
      if (Array.isArray(node)) throw new ShapeMismatchError(`${where} is an array where a number was expected`);
      values.push(node);
      return;
    }
    if (!Array.isArray(node) || BigInt(node.length) !== shape[depth]) {
      throw new ShapeMismatchError(`${name} is a ragged nested array: ${where} ` +
        `${Array.isArray(node) ? `has ${node.length} entries` : 'is not an array'} where ${shape[depth]} were expected`);
    }
    for (let k = 0; k < node.length; k++) walk(node[k], depth + 1, `${where}[${k}]`);
  };
  walk(value, 0, name);
  return [shape, values];
}

/** Plain integers as a BigInt64Array; each must be exactly an int64. */
function integerArray(values, name) {
  const out = new BigInt64Array(values.length);
  for (let k = 0; k < values.length; k++) {
    const v = values[k];
    if (typeof v === 'bigint' ? BigInt.asIntN(64, v) !== v : !Number.isSafeInteger(v)) {
      throw new TypeMismatchError(`${name} value ${typeof v === 'bigint' ? `${v}n` : String(v)} at flat position ${k} ` +
        'is not an integer that int64 holds exactly (a safe integer Number or an int64 BigInt)');
    }
    out[k] = BigInt(v);
  }
  return out;
}

function checkKeys(value, name) {
  for (const key of Object.keys(value)) {
    if (!TENSOR_KEYS.includes(key)) {
      throw new TypeError(`${name} has no field '${key}'; a tensor is {${TENSOR_KEYS.join(', ')}}`);
    }
  }
}

module.exports = { DTYPES, NATURAL_DTYPES, NAMED_DTYPES, TensorArg, tensorArg, outArg, indexArg, isTypedArray };
