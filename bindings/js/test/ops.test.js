'use strict';
// The three operations against the JS reference: every dtype, every reduction and alias, int32
// and int64 indices, duplicates, negative and out-of-range indices, exclude_self, mean, in place,
// strided views and the forms of arguments and results.

const test = require('node:test');
const assert = require('node:assert/strict');
const { scatter } = require('./package');
const { scatterReference } = require('./reference');
const { CLASSES, reductionsOf, rng, makeArray, makeIndices, gather, sameValues } = require('./util');

const OPS = { elements: scatter.elements, rows: scatter.rows, nd: scatter.nd };

/** The cases of each op: shapes, axis and the range of the index values. */
function cases(op, random, { IndexClass = BigInt64Array, lo, hi } = {}) {
  const idx = (n, l, h) => ({ data: makeIndices(n, lo ?? l, hi ?? h, random, IndexClass) });
  switch (op) {
    case 'elements': return [
      // axis 0: indices longer than data on the axis, so targets repeat.
      { data: [3, 4], indices: { ...idx(15, -3, 3), shape: [5, 3] }, updates: [5, 3], axis: 0 },
      { data: [3, 4], indices: { ...idx(6, -4, 4), shape: [2, 3] }, updates: [2, 3], axis: -1 },
    ];
    case 'rows': return [
      { data: [4, 3], indices: { ...idx(5, -4, 4), shape: [5] }, updates: [5, 3], axis: 0 },
      // 2-D indices on the middle axis: updates = data[:1] + indices.shape + data[2:].
      { data: [2, 3, 2], indices: { ...idx(4, -3, 3), shape: [2, 2] }, updates: [2, 2, 2, 2], axis: 1 },
    ];
    default: return [
      { data: [3, 4], indices: { ...idx(5, -3, 3), shape: [5, 1] }, updates: [5, 4], axis: 0 },
      {
        data: [3, 4],
        indices: { data: interleave(makeIndices(6, -3, 3, random, IndexClass), makeIndices(6, -4, 4, random, IndexClass)), shape: [6, 2] },
        updates: [6],
        axis: 0,
      },
    ];
  }
}

function interleave(a, b) {
  const out = new a.constructor(a.length * 2);
  a.forEach((v, k) => { out[2 * k] = v; out[2 * k + 1] = b[k]; });
  return out;
}

const count = (shape) => shape.reduce((a, b) => a * b, 1);

/** Runs one case through the binding and the reference and compares. */
function check(op, dtype, reduction, c, random, options = {}) {
  const named = dtype === 'bool' ? { dtype: 'bool' } : {};
  const data = { data: makeArray(dtype, count(c.data), random), shape: c.data, ...named };
  const updates = {
    data: makeArray(dtype, count(c.updates), random, { nonzero: reduction === 'div' }),
    shape: c.updates,
    ...named,
  };
  const before = data.data.slice();
  const canonical = scatter.REDUCTION_ALIASES[reduction] || reduction;
  const expected = scatterReference(op, data, c.indices, updates,
    { axis: c.axis, reduction: canonical, dtype, ...options });
  const result = OPS[op](data, c.indices, updates, { axis: c.axis, reduction, ...options });
  const what = `${op} ${dtype} ${reduction} axis ${c.axis} ${JSON.stringify(options)}`;
  assert.deepEqual(result.shape, c.data, `${what}: shape`);
  if (dtype === 'bool') assert.equal(result.dtype, 'bool', `${what}: named dtype kept`);
  sameValues(assert, result.data, expected, what);
  sameValues(assert, data.data, before, `${what}: data untouched`);
}

for (const op of Object.keys(OPS)) {
  test(`${op}: every dtype and reduction matches the reference`, () => {
    const random = rng(op.length * 7919);
    for (const dtype of Object.keys(CLASSES)) {
      for (const reduction of reductionsOf(dtype)) {
        for (const c of cases(op, random)) check(op, dtype, reduction, c, random);
      }
    }
  });

  test(`${op}: int32 indices give what int64 indices give`, () => {
    for (const IndexClass of [Int32Array, BigInt64Array]) {
      const random = rng(11);
      for (const c of cases(op, random, { IndexClass })) {
        assert.equal(c.indices.data.constructor, IndexClass);
        check(op, 'f32', 'add', c, random);
        check(op, 'i64', 'mul', c, random);
      }
    }
  });

  test(`${op}: exclude_self with every reduction`, () => {
    const random = rng(23);
    for (const dtype of ['f32', 'f64', 'i32', 'u8', 'i64']) {
      for (const reduction of reductionsOf(dtype)) {
        for (const c of cases(op, random)) check(op, dtype, reduction, c, random, { excludeSelf: true });
      }
    }
  });

  test(`${op}: out-of-range indices skipped or clamped`, () => {
    const random = rng(31);
    for (const outOfRange of ['skip', 'clamp']) {
      // Values well outside every dimension, both sides.
      for (const c of cases(op, random, { lo: -9, hi: 9 })) {
        check(op, 'f32', 'add', c, random, { outOfRange });
        check(op, 'i32', 'none', c, random, { outOfRange });
      }
    }
  });
}

test('reduction aliases are their reductions', () => {
  const random = rng(5);
  for (const [alias, name] of Object.entries(scatter.REDUCTION_ALIASES)) {
    for (const c of cases('elements', random)) check('elements', 'f32', alias, c, random);
    const data = Float64Array.of(2, 3, 4);
    const args = [data, [0, 0, 2], Float64Array.of(5, 6, 7)];
    sameValues(assert, scatter.elements(...args, { reduction: alias }),
      scatter.elements(...args, { reduction: name }), alias);
  }
  assert.deepEqual(Object.keys(scatter.REDUCTIONS), ['none', 'add', 'sub', 'mul', 'div', 'max', 'min', 'mean']);
});

test('duplicates apply in row-major order: the last assignment wins, others accumulate', () => {
  const data = new Float32Array(3);
  sameValues(assert, scatter.elements(data, [1, 1, 1], Float32Array.of(5, 6, 7)), Float32Array.of(0, 7, 0), 'none');
  sameValues(assert, scatter.elements(Float32Array.of(100, 100), [0, 0], Float32Array.of(10, 4), { reduction: 'div' }),
    Float32Array.of(2.5, 100), 'div order');
  sameValues(assert, scatter.elements(Int32Array.of(1, 1), [1, 1, 1], Int32Array.of(5, -2, 3), { reduction: 'sub' }),
    Int32Array.of(1, -5), 'sub');
  // 2-D elements along axis 1: row-major order of the update positions, row by row.
  const m = scatter.elements({ data: new Int16Array(4), shape: [2, 2] }, { data: [[0, 0], [1, 1]], shape: [2, 2] },
    { data: Int16Array.of(1, 2, 3, 4), shape: [2, 2] }, { axis: 1 });
  sameValues(assert, m.data, Int16Array.of(2, 0, 0, 4), 'axis 1');
});

test('negative indices count from the back', () => {
  sameValues(assert, scatter.elements(new Float64Array(4), [-1, -4], Float64Array.of(1, 2)), Float64Array.of(2, 0, 0, 1), 'elements');
  const r = scatter.rows({ data: new Int32Array(6), shape: [3, 2] }, [-1], { data: Int32Array.of(7, 8), shape: [1, 2] });
  sameValues(assert, r.data, Int32Array.of(0, 0, 0, 0, 7, 8), 'rows');
  const n = scatter.nd({ data: new Int32Array(6), shape: [3, 2] }, [[-3, -1]], Int32Array.of(9));
  sameValues(assert, n.data, Int32Array.of(0, 9, 0, 0, 0, 0), 'nd');
});

test('out of range: clamp to the ends, skip whole slices', () => {
  sameValues(assert, scatter.elements(new Float32Array(3), [-7, 9], Float32Array.of(1, 2), { outOfRange: 'clamp' }),
    Float32Array.of(1, 0, 2), 'clamp');
  const r = scatter.rows({ data: new Float32Array(4), shape: [2, 2] }, [5, 1], { data: Float32Array.of(1, 2, 3, 4), shape: [2, 2] },
    { outOfRange: 'skip' });
  sameValues(assert, r.data, Float32Array.of(0, 0, 3, 4), 'skip');
});

test('mean: (self + sum) / (1 + count); integers floor; exclude_self drops self', () => {
  const args = [[1, 1, 1], Float32Array.of(1, 2, 4)];
  sameValues(assert, scatter.elements(Float32Array.of(0, 0), ...args, { reduction: 'mean' }), Float32Array.of(0, 1.75), 'f32');
  sameValues(assert, scatter.elements(Float32Array.of(0, 3), ...args, { reduction: 'mean', excludeSelf: true }),
    Float32Array.of(0, 7 / 3), 'f32 exclude_self');
  sameValues(assert, scatter.elements(Int32Array.of(0, -8), [1, 1], Int32Array.of(1, 2), { reduction: 'mean' }),
    Int32Array.of(0, -2), 'i32 floor');
});

test('integers wrap', () => {
  sameValues(assert, scatter.elements(Int8Array.of(120), [0], Int8Array.of(10), { reduction: 'add' }), Int8Array.of(-126), 'i8');
  sameValues(assert, scatter.elements(Uint8Array.of(3), [0], Uint8Array.of(5), { reduction: 'sub' }), Uint8Array.of(254), 'u8');
  const big = 2n ** 62n;
  sameValues(assert, scatter.elements(BigInt64Array.of(big), [0], BigInt64Array.of(4n), { reduction: 'mul' }),
    BigInt64Array.of(0n), 'i64');
  sameValues(assert, scatter.elements(BigUint64Array.of(2n ** 64n - 1n), [0], BigUint64Array.of(2n), { reduction: 'add' }),
    BigUint64Array.of(1n), 'u64');
});

test('half precision: f16 and bf16 as named Uint16Array bits, Float16Array where Node has it', () => {
  // f16 1.0 = 0x3c00, 2.0 = 0x4000, 3.0 = 0x4200, 0.5 = 0x3800, 1.5 = 0x3e00.
  const f16 = scatter.elements({ data: Uint16Array.of(0x3c00, 0x3c00), dtype: 'f16' }, [0, 1],
    { data: Uint16Array.of(0x4000, 0x3800), dtype: 'f16' }, { reduction: 'add' });
  assert.equal(f16.dtype, 'f16');
  sameValues(assert, f16.data, Uint16Array.of(0x4200, 0x3e00), 'f16');
  // bf16 1.0 = 0x3f80, 2.0 = 0x4000, 3.0 = 0x4040.
  const bf16 = scatter.elements({ data: Uint16Array.of(0x3f80), dtype: 'bf16' }, [0],
    { data: Uint16Array.of(0x4000), dtype: 'bf16' }, { reduction: 'add' });
  sameValues(assert, bf16.data, Uint16Array.of(0x4040), 'bf16');
  // Without a dtype a Uint16Array is u16: 0x3c00 + 0x4000 as integers.
  sameValues(assert, scatter.elements(Uint16Array.of(0x3c00), [0], Uint16Array.of(0x4000), { reduction: 'add' }),
    Uint16Array.of(0x7c00), 'u16');
  if (typeof globalThis.Float16Array === 'function') {
    const F16 = globalThis.Float16Array;
    sameValues(assert, scatter.elements(F16.of(1, 1), [1], F16.of(0.5), { reduction: 'add' }), F16.of(1, 1.5), 'Float16Array');
  }
});

test('bool: add is or, mul is and', () => {
  const data = { data: Uint8Array.of(0, 1, 0, 1), dtype: 'bool' };
  const updates = { data: Uint8Array.of(1, 1, 0, 0), dtype: 'bool' };
  sameValues(assert, scatter.elements(data, [0, 1, 2, 3], updates, { reduction: 'add' }).data, Uint8Array.of(1, 1, 0, 1), 'or');
  sameValues(assert, scatter.elements(data, [0, 1, 2, 3], updates, { reduction: 'mul' }).data, Uint8Array.of(0, 1, 0, 0), 'and');
});

test('in place: out === data writes into data, nothing around it', () => {
  const backing = Float32Array.of(-1, -1, 0, 0, 0, 0, -1, -1);
  const data = backing.subarray(2, 6); // byteOffset 8: the view's own memory is used
  const result = scatter.elements(data, [1, 1, 3], Float32Array.of(1, 1, 1), { reduction: 'add', out: data });
  assert.equal(result, data);
  sameValues(assert, backing, Float32Array.of(-1, -1, 0, 2, 0, 1, -1, -1), 'backing');
  const m = { data: new Int32Array(6), shape: [2, 3] };
  assert.equal(scatter.rows(m, [1], { data: Int32Array.of(4, 5, 6), shape: [1, 3] }, { out: m }), m);
  sameValues(assert, m.data, Int32Array.of(0, 0, 0, 4, 5, 6), 'object in place');
});

test('out given: filled and returned, data untouched; a bare out takes data\'s shape', () => {
  const data = { data: Float64Array.of(1, 2, 3, 4), shape: [2, 2] };
  const out = new Float64Array(4);
  const result = scatter.elements(data, [[1, 0]], { data: Float64Array.of(9, 8), shape: [1, 2] }, { out });
  assert.equal(result, out);
  sameValues(assert, out, Float64Array.of(1, 8, 9, 4), 'out');
  sameValues(assert, data.data, Float64Array.of(1, 2, 3, 4), 'data');
});

test('results have the form of data: a TypedArray for a TypedArray, {data, shape} for an object', () => {
  const bare = Int16Array.of(1, 2, 3);
  const r = scatter.elements(bare, Int32Array.of(0), Int16Array.of(7));
  assert.ok(r instanceof Int16Array);
  assert.notEqual(r, bare);
  sameValues(assert, r, Int16Array.of(7, 2, 3), 'bare');
  const o = scatter.elements({ data: bare, shape: [3] }, [2], Int16Array.of(9));
  assert.deepEqual(Object.keys(o), ['data', 'shape']);
  assert.deepEqual(o.shape, [3]);
  sameValues(assert, o.data, Int16Array.of(1, 2, 9), 'object');
});

test('a Buffer is a Uint8Array; an array of another realm is its kind', () => {
  const buffer = Buffer.from([1, 2, 3]);
  const r = scatter.elements(buffer, [0], Uint8Array.of(250), { reduction: 'add' });
  assert.equal(r.constructor, Uint8Array);
  sameValues(assert, r, Uint8Array.of(251, 2, 3), 'Buffer');
  scatter.elements(buffer, [2], Uint8Array.of(9), { out: buffer });
  assert.deepEqual([...buffer], [1, 2, 9]);
  const foreign = require('node:vm').runInNewContext('new Float64Array([1, 2])');
  const f = scatter.elements(foreign, [1], Float64Array.of(5), { reduction: 'mul' });
  sameValues(assert, f, Float64Array.of(1, 10), 'vm realm');
});

test('indices in every form: TypedArrays, nested arrays, {data: array, shape}, BigInts, a scalar for rows', () => {
  const data = { data: new Int32Array(6), shape: [2, 3] };
  const updates = { data: Int32Array.of(1, 2, 3, 4, 5, 6), shape: [2, 3] };
  const expected = scatter.elements(data, { data: Int32Array.of(1, 0, 1, 0, 1, 0), shape: [2, 3] }, updates).data;
  for (const indices of [
    [[1, 0, 1], [0, 1, 0]],
    [[1n, 0n, 1n], [0n, 1n, 0n]],
    { data: [1, 0, 1, 0, 1, 0], shape: [2, 3] },
    { data: BigInt64Array.of(1n, 0n, 1n, 0n, 1n, 0n), shape: [2, 3] },
  ]) {
    sameValues(assert, scatter.elements(data, indices, updates).data, expected, JSON.stringify(indices, (_, v) => String(v)));
  }
  // rank-0 indices (a scalar) for rows: updates have data's shape without the axis.
  const r = scatter.rows({ data: new Float32Array(6), shape: [3, 2] }, 2, { data: Float32Array.of(5, 6), shape: [2] });
  sameValues(assert, r.data, Float32Array.of(0, 0, 0, 0, 5, 6), 'scalar');
  // Empty indices: nothing happens.
  sameValues(assert, scatter.elements(Float32Array.of(1, 2), [], new Float32Array(0)), Float32Array.of(1, 2), 'empty');
});

test('strided views: transposed data, strided out, negative strides, broadcast updates', () => {
  const random = rng(77);
  // A 4x3 row-major array seen as its 3x4 transpose.
  const base = makeArray('f32', 12, random);
  const data = { data: base, shape: [3, 4], strides: [1, 3] };
  const indices = { data: [[2, 0, 1, 2], [1, 1, 0, 0]], shape: [2, 4] };
  const updates = { data: makeArray('f32', 8, random), shape: [2, 4] };
  const contiguous = { data: gather(data), shape: [3, 4] };
  const idx = { data: BigInt64Array.from(indices.data.flat(), BigInt), shape: [2, 4] };
  const expected = scatterReference('elements', contiguous, idx, updates, { reduction: 'add', dtype: 'f32' });
  const result = scatter.elements(data, indices, updates, { reduction: 'add' });
  sameValues(assert, result.data, expected, 'transposed data -> contiguous result');
  // A column-major out.
  const out = { data: new Float32Array(12), shape: [3, 4], strides: [1, 3] };
  scatter.elements(data, indices, updates, { reduction: 'add', out });
  sameValues(assert, gather(out), expected, 'strided out');
  // In place through the strided view: the same elements of base change.
  const copy = base.slice();
  scatter.elements(data, indices, updates, { reduction: 'add', out: data });
  sameValues(assert, gather(data), expected, 'in place strided');
  assert.notDeepEqual(base, copy);
  // Every other element of a longer array: the ones between stay.
  const sparse = Float64Array.of(1, -1, 2, -1, 3, -1);
  const view = { data: sparse, shape: [3], strides: [2] };
  scatter.elements(view, [2, 0], Float64Array.of(10, 20), { out: view, reduction: 'add' });
  sameValues(assert, sparse, Float64Array.of(21, -1, 2, -1, 13, -1), 'stride 2');
  // A reversed view: negative stride, element 0 at offset 3.
  const reversed = { data: Int32Array.of(0, 1, 2, 3), shape: [4], strides: [-1], offset: 3 };
  const rev = scatter.elements(reversed, [0], Int32Array.of(9));
  sameValues(assert, rev.data, Int32Array.of(9, 2, 1, 0), 'negative stride');
  // Updates broadcast from one element by zero strides (read-only tensors may repeat memory).
  const ones = { data: Float32Array.of(1), shape: [2, 4], strides: [0, 0] };
  const b = scatter.elements({ data: new Float32Array(8), shape: [2, 4] }, { data: [[0, 1, 0, 1], [0, 1, 0, 1]], shape: [2, 4] }, ones,
    { reduction: 'add' });
  sameValues(assert, b.data, Float32Array.of(2, 0, 2, 0, 0, 2, 0, 2), 'broadcast');
});

test('a context given explicitly, or a shared one per backend', () => {
  const context = new scatter.Context({ backend: 'cpu', threads: 2 });
  try {
    const r = scatter.elements(new Float32Array(3), [2], Float32Array.of(4), { context });
    sameValues(assert, r, Float32Array.of(0, 0, 4), 'context');
    const s = scatter.elements(new Float32Array(3), [2], Float32Array.of(4), { backend: 'cpu' });
    sameValues(assert, s, r, 'backend');
  } finally {
    context.close();
  }
});
