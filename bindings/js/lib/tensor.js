'use strict';
// The tensor arguments: TypedArrays with a shape (and strides), checked, for encode.js to describe
// as scatter_tensor structs pointing at the arrays' own memory (no copies; a subarray is a view).
//
// The library checks everything it can see (dtypes, shapes against each other, overlaps), but it
// cannot see how long a TypedArray is: every tensor is checked here to lie inside its array before
// the call, so no shape or stride can make the library read or write past the array.
//
// Two steps, so that no code of the caller's runs between a check and the call: readTensor and
// readIndices read every field of an argument once, into plain values (a getter of the caller's
// runs there and never again); tensorArg, outArg and indexArg then check those values, and run
// nothing of the caller's. A getter that shrank or detached an array after its check once made
// the library write past it.

const { MAX_RANK } = require('./library');
const { InvalidArgumentError, ShapeMismatchError, TypeMismatchError } = require('./errors');
const { cIntegerBig, choice } = require('./validate');
const { CLASSES, kindOf, lengthOf, isTypedArray, elementSizeOf, checkMemory } = require('./arrays');

/** scatter_dtype values of the dtypes a TypedArray can hold (scatter.h). */
const DTYPES = Object.freeze({
  f16: 1, bf16: 2, f32: 3, f64: 4,
  i8: 5, i16: 6, i32: 7, i64: 8,
  u8: 9, u16: 10, u32: 11, u64: 12,
  bool: 13,
});

// TypedArrays are told apart by their [[TypedArrayName]] (the built-in Symbol.toStringTag getter),
// not by their constructor: a Node Buffer is a Uint8Array, and an array made in another realm
// (node:vm) has that realm's constructor.

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

/**
 * A shape or strides list as the caller gave it, each entry read once into a new plain array; a
 * value that is not an array is kept for integerList to refuse.
 */
function readList(list) {
  if (!Array.isArray(list)) return list;
  const length = list.length;
  const copy = [];
  for (let d = 0; d < length; d++) copy.push(list[d]);
  return copy;
}

/** Integers of a list from readList as BigInts, checked. */
function integerList(list, name) {
  if (!Array.isArray(list)) throw new TypeError(`${name} must be an array of integers, not ${className(list)}`);
  return list.map((v, d) => cIntegerBig(v, 'int64', `${name}[${d}]`));
}

/**
 * A tensor argument, checked to lie inside its array, and the scatter_tensor that describes it.
 */
class TensorArg {
  /**
   * @param {ArrayBufferView} array The memory: the caller's (checked by checkMemory) or one the binding made.
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
    const length = BigInt(lengthOf(array));
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
    // Bytes per element from the array's kind: its own BYTES_PER_ELEMENT could say anything.
    this.elementSize = elementSizeOf(array);
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
    const array = new (CLASSES.get(kindOf(this.array)))(Number(this.count));
    const arg = new TensorArg(array, { shape: this.shape, dtype: this.dtype, named: this.named }, 'out');
    if (this.bare) return [arg, array];
    const result = { data: array, shape: this.shape.map(Number) };
    if (this.named) result.dtype = this.dtype;
    return [arg, result];
  }
}

/**
 * The fields of a tensor argument: a bare TypedArray, or {data, shape, strides, offset, dtype}
 * read once each.
 * @typedef {{array: ArrayBufferView, bare: boolean, shape?: *, strides?: *, offset?: *, dtype?: *}} TensorFields
 */

/**
 * Reads a data, updates or out argument: a TypedArray (1-D) or {data, shape, strides?, offset?,
 * dtype?}. Checks only what it needs to know which fields to read.
 * @param {*} value
 * @param {string} name
 * @returns {TensorFields}
 */
function readTensor(value, name) {
  if (isTypedArray(value)) return { array: value, bare: true };
  const array = value !== null && typeof value === 'object' ? value.data : undefined;
  if (!isTypedArray(array)) {
    throw new TypeError(`${name} must be a TypedArray or {data: TypedArray, shape, strides?, offset?, dtype?}, ` +
      `not ${className(value)}`);
  }
  return readFields(value, array, name);
}

/** The fields of a tensor object other than `data`, already read as `array`. */
function readFields(value, array, name) {
  checkKeys(value, name);
  return {
    array,
    bare: false,
    shape: readList(value.shape),
    strides: readList(value.strides),
    offset: value.offset,
    dtype: value.dtype,
  };
}

/**
 * A data or updates argument, checked to lie inside its array.
 * @param {TensorFields} fields From readTensor.
 * @param {string} name
 * @returns {TensorArg}
 */
function tensorArg(fields, name) {
  const { array } = fields;
  checkMemory(array, name);
  if (fields.bare) {
    const shape = [BigInt(lengthOf(array))];
    return new TensorArg(array, { shape, dtype: dtypeOf(array, undefined, name), bare: true }, name);
  }
  const shape = fields.shape === undefined ? [BigInt(lengthOf(array))] : integerList(fields.shape, `${name}.shape`);
  const strides = fields.strides === undefined || fields.strides === null
    ? null : integerList(fields.strides, `${name}.strides`);
  const offset = fields.offset === undefined ? 0n : cIntegerBig(fields.offset, 'int64', `${name}.offset`);
  if (strides === null && offset !== 0n) {
    throw new InvalidArgumentError(`${name}.offset needs ${name}.strides: a contiguous tensor is its whole ` +
      'data (pass a subarray to start further in)');
  }
  const dtype = dtypeOf(array, fields.dtype, name);
  return new TensorArg(array, { shape, strides, offset, dtype, named: fields.dtype !== undefined }, name);
}

/**
 * The `out` argument: as tensorArg, except that a bare TypedArray is taken as a contiguous tensor
 * of data's shape (and data's named dtype when it is the same kind of array), since `out` always
 * has data's shape and dtype.
 * @param {TensorFields} fields From readTensor(value, 'out').
 * @param {TensorArg} data
 * @returns {TensorArg}
 */
function outArg(fields, data) {
  if (!fields.bare) return tensorArg(fields, 'out');
  const { array } = fields;
  checkMemory(array, 'out');
  const dtype = data.named && kindOf(array) === kindOf(data.array)
    ? data.dtype : dtypeOf(array, undefined, 'out');
  const length = lengthOf(array);
  if (BigInt(length) !== data.count) {
    throw new ShapeMismatchError(`out holds ${length} elements but data has shape ` +
      `[${data.shape.join(', ')}] (${data.count} elements)`);
  }
  return new TensorArg(array, { shape: data.shape, dtype, named: data.named }, 'out');
}

/**
 * Reads the indices: an Int32Array or BigInt64Array (or any TypedArray: the library names a
 * wrong dtype), a {data, shape, ...} object of one, or plain integers: a scalar, a (nested)
 * array, or {data: array, shape}.
 * @param {*} value
 * @returns {{tensor: TensorFields}|{shape: *, values: Array}} The fields of a tensor, or plain
 *   integers (unchecked) and their shape.
 */
function readIndices(value) {
  const name = 'indices';
  if (isTypedArray(value)) return { tensor: { array: value, bare: true } };
  if (typeof value === 'number' || typeof value === 'bigint') return { shape: [], values: [value] };
  if (Array.isArray(value)) {
    const [shape, values] = flatten(value, name);
    return { shape, values };
  }
  const data = value !== null && typeof value === 'object' ? value.data : undefined;
  if (isTypedArray(data)) return { tensor: readFields(value, data, name) };
  if (Array.isArray(data)) {
    checkKeys(value, name);
    const { shape, strides, offset, dtype } = value;
    if (strides !== undefined || offset !== undefined || dtype !== undefined) {
      throw new TypeError('indices given as a plain array take only a shape (they become a new BigInt64Array)');
    }
    // The array's own nesting gives the values; `shape`, when given, reshapes them.
    const [nested, values] = flatten(data, name);
    return { shape: shape === undefined ? nested : readList(shape), values };
  }
  throw new TypeError('indices must be an Int32Array or BigInt64Array, {data, shape}, or plain integers, ' +
    `not ${className(value)}`);
}

/**
 * The indices, checked. Plain integers become a new BigInt64Array, each checked to be a safe
 * integer Number or an int64 BigInt, so that no index is rounded or wrapped on the way.
 * @param {ReturnType<typeof readIndices>} read
 * @returns {TensorArg}
 */
function indexArg(read) {
  const name = 'indices';
  if (read.tensor) return tensorArg(read.tensor, name);
  const shape = integerList(read.shape, 'indices.shape');
  return new TensorArg(integerArray(read.values, name), { shape, dtype: 'i64' }, name);
}

/**
 * The shape and the row-major values of a rectangular nested array; ragged nesting is refused.
 * One walk that reads each entry and each length once: the first path down (every index 0) gives
 * the shape, every other node is checked against it. Plain loops, not Array.prototype.flat:
 * flat() and forEach() skip the holes of a sparse array, which would shift or drop indices
 * without a word.
 * @returns {[bigint[], Array]}
 */
function flatten(value, name) {
  const shape = [];
  let rank = -1; // known once the first path down reaches a number or an empty array
  const values = [];
  const walk = (node, depth, where) => {
    const isArray = Array.isArray(node);
    const length = isArray ? node.length : 0;
    if (rank < 0) {
      if (isArray) shape.push(BigInt(length));
      if (!isArray || length === 0) rank = shape.length;
    }
    if (depth === rank) {
      if (isArray) throw new ShapeMismatchError(`${where} is an array where a number was expected`);
      values.push(node);
      return;
    }
    if (!isArray || BigInt(length) !== shape[depth]) {
      throw new ShapeMismatchError(`${name} is a ragged nested array: ${where} ` +
        `${isArray ? `has ${length} entries` : 'is not an array'} where ${shape[depth]} were expected`);
    }
    for (let k = 0; k < length; k++) walk(node[k], depth + 1, `${where}[${k}]`);
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

module.exports = {
  DTYPES, NATURAL_DTYPES, NAMED_DTYPES, TensorArg, readTensor, readIndices, tensorArg, outArg, indexArg, isTypedArray,
};
