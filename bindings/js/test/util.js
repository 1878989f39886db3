'use strict';
// Test data: a seeded generator, arrays of every dtype, strided gathers.

const { positions } = require('./reference');

/** The TypedArray class of each dtype the generic tests cover (bool as named bytes). */
const CLASSES = {
  f32: Float32Array, f64: Float64Array,
  i8: Int8Array, i16: Int16Array, i32: Int32Array, i64: BigInt64Array,
  u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, u64: BigUint64Array,
  bool: Uint8Array,
};

/** Reductions each dtype supports (scatter.h: bool has none, add and mul). */
function reductionsOf(dtype) {
  return dtype === 'bool' ? ['none', 'add', 'mul'] : ['none', 'add', 'sub', 'mul', 'div', 'max', 'min', 'mean'];
}

/** A small deterministic generator (LCG), so that a failure reproduces. */
function rng(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return { next, int: (lo, hi) => lo + Math.floor(next() * (hi - lo)) };
}

/**
 * n values of `dtype` in a TypedArray: small integers and halves for floats; for 64-bit integers
 * values past 2**32 too, so that wide arithmetic and wrapping are exercised.
 * nonzero: no zeros (divisors; positive for the integers, so that no INT_MIN / -1 arises).
 */
function makeArray(dtype, n, random, { nonzero = false } = {}) {
  const Class = CLASSES[dtype];
  const out = new Class(n);
  for (let k = 0; k < n; k++) {
    let v;
    switch (dtype) {
      case 'f32': case 'f64':
        do v = random.int(-16, 17) / 2; while (nonzero && v === 0);
        break;
      case 'bool':
        v = random.int(0, 2);
        break;
      case 'i64':
        v = BigInt(random.int(-50, 51)) * (random.next() < 0.5 ? 1n : 1n << 33n);
        if (nonzero) v = BigInt(random.int(1, 6));
        break;
      case 'u64':
        v = BigInt(random.int(0, 51)) * (random.next() < 0.5 ? 1n : 1n << 40n);
        if (nonzero) v = BigInt(random.int(1, 6));
        break;
      default: {
        const signed = dtype.startsWith('i');
        v = nonzero ? random.int(1, 6) : signed ? random.int(-40, 41) : random.int(0, 60);
      }
    }
    out[k] = v;
  }
  return out;
}

/** Indices in [lo, hi) as an Int32Array or BigInt64Array. */
function makeIndices(n, lo, hi, random, Class = BigInt64Array) {
  const out = new Class(n);
  for (let k = 0; k < n; k++) out[k] = Class === BigInt64Array ? BigInt(random.int(lo, hi)) : random.int(lo, hi);
  return out;
}

/** The elements of a strided view {data, shape, strides, offset} as a new contiguous array. */
function gather(view) {
  const count = view.shape.reduce((a, b) => a * b, 1);
  const out = new view.data.constructor(count);
  let k = 0;
  for (const p of positions(view.shape)) {
    let at = view.offset || 0;
    p.forEach((i, d) => { at += i * view.strides[d]; });
    out[k++] = view.data[at];
  }
  return out;
}

/** Compares TypedArrays element by element, NaN equal to NaN; a readable failure. */
function sameValues(assert, actual, expected, what) {
  assert.equal(actual.constructor, expected.constructor, `${what}: array class`);
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let k = 0; k < actual.length; k++) {
    if (!Object.is(actual[k], expected[k]) && !(actual[k] === expected[k])) {
      assert.fail(`${what}: element ${k} is ${actual[k]}, expected ${expected[k]}\n` +
        `actual   ${Array.from(actual).join(', ')}\nexpected ${Array.from(expected).join(', ')}`);
    }
  }
}

module.exports = { CLASSES, reductionsOf, rng, makeArray, makeIndices, gather, sameValues };
