'use strict';
// A naive scatter in plain JS: the oracle of the tests. Tensors are contiguous {data, shape}.
// Integer dtypes compute in BigInt and wrap to their width; float dtypes compute in doubles and
// are rounded to their own precision after every step by storing into an array of their type
// (for f32 that is exact: a double holds an f32 sum, product or quotient well enough to round
// it once more correctly). Updates of one target are applied in row-major order of their position.

const INTEGERS = {
  i8: [8, true], i16: [16, true], i32: [32, true], i64: [64, true],
  u8: [8, false], u16: [16, false], u32: [32, false], u64: [64, false],
};

/** Row-major positions of a shape, as arrays of Numbers. */
function* positions(shape) {
  const count = shape.reduce((a, b) => a * b, 1);
  for (let flat = 0; flat < count; flat++) {
    const p = new Array(shape.length);
    let rest = flat;
    for (let d = shape.length - 1; d >= 0; d--) {
      p[d] = rest % shape[d];
      rest = Math.floor(rest / shape[d]);
    }
    yield p;
  }
}

/** The flat row-major offset of position p in shape. */
function flatIndex(shape, p) {
  let flat = 0;
  for (let d = 0; d < shape.length; d++) flat = flat * shape[d] + p[d];
  return flat;
}

function normalize(i, size, outOfRange) {
  const n = Number(i);
  if (n >= -size && n < size) return ((n % size) + size) % size;
  if (outOfRange === 'clamp') return Math.min(Math.max(n, 0), size - 1);
  if (outOfRange === 'skip') return null;
  throw new RangeError(`index ${n} outside [-${size}, ${size})`);
}

/** [target position in data, update flat index] in row-major order of the updates. */
function* targets(op, data, indices, updates, axis, outOfRange) {
  const ishape = indices.shape;
  for (const p of positions(updates.shape)) {
    const u = flatIndex(updates.shape, p);
    if (op === 'elements') {
      const i = normalize(indices.data[flatIndex(ishape, p)], data.shape[axis], outOfRange);
      if (i === null) continue;
      yield [[...p.slice(0, axis), i, ...p.slice(axis + 1)], u];
    } else if (op === 'rows') {
      const q = ishape.length;
      const i = normalize(indices.data[flatIndex(ishape, p.slice(axis, axis + q))], data.shape[axis], outOfRange);
      if (i === null) continue;
      yield [[...p.slice(0, axis), i, ...p.slice(axis + q)], u];
    } else {
      const lead = ishape.length - 1;
      const k = ishape[lead];
      const base = flatIndex(ishape, [...p.slice(0, lead), 0]);
      const coords = [];
      for (let d = 0; d < k; d++) coords.push(normalize(indices.data[base + d], data.shape[d], outOfRange));
      if (coords.includes(null)) continue;
      yield [[...coords, ...p.slice(lead)], u];
    }
  }
}

/** The arithmetic of one dtype: values read, combined and stored. */
function arithmetic(dtype, ArrayClass) {
  if (dtype === 'bool') {
    const b = (v) => (v ? 1 : 0);
    return {
      read: (v) => v,
      store: (v) => v,
      step: (t, u, r) => ({ none: u, add: b(t || u), mul: b(t && u) })[r],
      identity: (r) => ({ add: 0, mul: 1 })[r],
    };
  }
  if (INTEGERS[dtype]) {
    const [bits, signed] = INTEGERS[dtype];
    const wrap = (v) => (signed ? BigInt.asIntN(bits, v) : BigInt.asUintN(bits, v));
    const floorDiv = (a, b) => {
      const q = a / b;
      return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
    };
    return {
      read: (v) => BigInt(v),
      store: (v) => (bits === 64 ? wrap(v) : Number(wrap(v))),
      step: (t, u, r) => wrap({
        none: () => u, add: () => t + u, sub: () => t - u, mul: () => t * u,
        div: () => { if (u === 0n) throw new RangeError('integer division by zero'); return t / u; },
        max: () => (t > u ? t : u), min: () => (t < u ? t : u),
      }[r]()),
      identity: (r) => ({
        add: 0n, sub: 0n, mean: 0n, mul: 1n, div: 1n,
        max: signed ? -(2n ** BigInt(bits - 1)) : 0n,
        min: signed ? 2n ** BigInt(bits - 1) - 1n : 2n ** BigInt(bits) - 1n,
      })[r],
      mean: (total, count) => wrap(floorDiv(total, BigInt(count))),
    };
  }
  const cell = new ArrayClass(1);
  const round = (v) => { cell[0] = v; return cell[0]; };
  return {
    read: (v) => v,
    store: (v) => v,
    step: (t, u, r) => round({
      none: () => u, add: () => t + u, sub: () => t - u, mul: () => t * u, div: () => t / u,
      max: () => (Number.isNaN(t) || Number.isNaN(u) ? NaN : Math.max(t, u)),
      min: () => (Number.isNaN(t) || Number.isNaN(u) ? NaN : Math.min(t, u)),
    }[r]()),
    identity: (r) => ({ add: 0, sub: 0, mean: 0, mul: 1, div: 1, max: -Infinity, min: Infinity })[r],
    mean: (total, count) => round(total / count),
  };
}

/**
 * The expected result of a scatter.
 * @param {'elements'|'rows'|'nd'} op
 * @param {{data, shape}} data
 * @param {{data, shape}} indices
 * @param {{data, shape}} updates
 * @param {object} [options] axis, reduction (canonical names), excludeSelf, outOfRange, dtype
 * @returns {TypedArray} A new array of data's type.
 */
function scatterReference(op, data, indices, updates, options = {}) {
  const { axis = 0, reduction = 'none', excludeSelf = false, outOfRange = 'error' } = options;
  const dtype = options.dtype;
  const a = arithmetic(dtype, data.data.constructor);
  const rank = data.shape.length;
  const ax = axis < 0 ? axis + rank : axis;
  const hits = new Map();
  for (const [target, u] of targets(op, data, indices, updates, ax, outOfRange)) {
    const key = flatIndex(data.shape, target);
    if (!hits.has(key)) hits.set(key, []);
    hits.get(key).push(a.read(updates.data[u]));
  }
  const out = data.data.slice();
  for (const [key, values] of hits) {
    const own = reduction !== 'none' && excludeSelf;
    let t = own ? a.identity(reduction) : a.read(data.data[key]);
    if (reduction === 'mean') {
      for (const u of values) t = a.step(t, u, 'add');
      t = a.mean(t, values.length + (excludeSelf ? 0 : 1));
    } else {
      for (const u of values) t = a.step(t, u, reduction);
    }
    out[key] = a.store(t);
  }
  return out;
}

module.exports = { scatterReference, positions, flatIndex, INTEGERS };
