'use strict';
// Arguments that change under the call (issue 43): the binding reads every option and every
// field of every argument once, before checking anything, measures arrays with the built-in
// getters, and refuses memory that could change or vanish during the call (a SharedArrayBuffer,
// a resizable ArrayBuffer, a detached one). The cases that once crashed the process run in a
// child process (changing_arguments.js), so that a crash is reported as a failure here.

const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { scatter } = require('./package');
const { sameValues } = require('./util');

const FIXTURE = path.join(__dirname, 'changing_arguments.js');

/** Runs a case of changing_arguments.js in a child process: {error, message, facts}. */
function runCase(name) {
  const child = spawnSync(process.execPath, [FIXTURE, name], { encoding: 'utf8', timeout: 120_000 });
  const stderr = child.stderr.trim().split('\n').slice(-5).join('\n');
  assert.equal(child.signal, null, `'${name}' killed the process with ${child.signal}: ${stderr}`);
  assert.equal(child.status, 0, `'${name}' exited with status ${child.status}: ${stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop());
}

const CHILD_CASES = [
  ['out getter shrinks out', { error: 'TypeError', message: /^out is backed by a resizable ArrayBuffer/, facts: { calls: 1 } }],
  // Read once, out is never detached: the call simply runs.
  ['out getter detaches out', { error: null, facts: { calls: 1, first: 1 } }],
  ['updates getter shrinks data', { error: 'TypeError', message: /^data is backed by a resizable ArrayBuffer/, facts: { calls: 1 } }],
  ['updates getter detaches data', { error: 'TypeError', message: /^data is backed by a detached ArrayBuffer/, facts: { calls: 1 } }],
  ['out with a lying length', { error: 'ShapeMismatchError', message: /^out holds 4 elements/, facts: {} }],
  ['data with a lying kind', { error: 'TypeMismatchError', facts: {} }],
  ['data with a lying element size', { error: null, facts: { first: 1 } }],
  // The own `handle` getter never runs: the context stays open and the call uses it.
  ['context whose own handle closes it', { error: null, facts: { calls: 0, first: 1, closed: false } }],
];

for (const [name, expected] of CHILD_CASES) {
  test(`changing arguments (child process): ${name}`, () => {
    const got = runCase(name);
    assert.equal(got.error, expected.error, `error: ${got.error}: ${got.message}`);
    if (expected.message) assert.match(got.message, expected.message);
    assert.deepEqual(got.facts, expected.facts);
  });
}

/** A TypedArray of `Class` holding `values`, over the buffer `makeBuffer(byteLength)` gives. */
function over(makeBuffer, Class, values) {
  const array = new Class(makeBuffer(values.length * Class.BYTES_PER_ELEMENT));
  array.set(values);
  return array;
}

/**
 * Calls elements() with one of data, indices, updates or out over a buffer that `makeBuffer`
 * makes, and checks that the call is refused with a TypeError naming that argument and that
 * neither out nor data changed.
 */
function refusedInEveryRole(makeBuffer, pattern) {
  for (const role of ['data', 'indices', 'updates', 'out']) {
    const make = (name, Class, values) => (name === role ? over(makeBuffer, Class, values) : Class.from(values));
    const data = make('data', Float32Array, [1, 2, 3, 4]);
    const indices = make('indices', Int32Array, [3, 0]);
    const updates = make('updates', Float32Array, [7, 8]);
    const out = make('out', Float32Array, [-1, -1, -1, -1]);
    assert.throws(() => scatter.elements(data, indices, updates, { out }),
      (err) => err instanceof TypeError && err.message.startsWith(`${role} is backed by `) && pattern.test(err.message),
      `${role}: ${pattern}`);
    sameValues(assert, out, Float32Array.of(-1, -1, -1, -1), `${role}: out unchanged`);
    sameValues(assert, data, Float32Array.of(1, 2, 3, 4), `${role}: data unchanged`);
  }
}

test('a SharedArrayBuffer is refused in every argument, a growable one too', () => {
  refusedInEveryRole((n) => new SharedArrayBuffer(n), /a SharedArrayBuffer, which another thread/);
  refusedInEveryRole((n) => new SharedArrayBuffer(n, { maxByteLength: 2 * n }), /a SharedArrayBuffer/);
});

test('a resizable ArrayBuffer is refused in every argument, under a fixed-length view too', () => {
  refusedInEveryRole((n) => new ArrayBuffer(n, { maxByteLength: 2 * n }), /a resizable ArrayBuffer/);
  const buffer = new ArrayBuffer(16, { maxByteLength: 32 });
  const fixed = new Float32Array(buffer, 0, 4);
  assert.throws(() => scatter.elements(fixed, [0], Float32Array.of(1)),
    (err) => err instanceof TypeError && /^data is backed by a resizable ArrayBuffer/.test(err.message));
  assert.throws(() => scatter.elements({ data: new Float32Array(4), shape: [4] }, [0], Float32Array.of(1),
    { out: { data: fixed, shape: [4] } }),
  (err) => err instanceof TypeError && /^out is backed by a resizable ArrayBuffer/.test(err.message));
  sameValues(assert, fixed, new Float32Array(4), 'out unchanged');
});

test('a detached ArrayBuffer is refused', () => {
  const detached = (Class) => {
    const array = new Class(4);
    structuredClone(array.buffer, { transfer: [array.buffer] });
    return array;
  };
  const message = (name) => (err) => err instanceof TypeError &&
    err.message.startsWith(`${name} is backed by a detached ArrayBuffer`);
  assert.throws(() => scatter.elements(detached(Float32Array), [0], Float32Array.of(1)), message('data'));
  assert.throws(() => scatter.elements(new Float32Array(4), detached(Int32Array), new Float32Array(0)), message('indices'));
  assert.throws(() => scatter.elements({ data: new Float32Array(4), shape: [4] }, [0],
    { data: detached(Float32Array), shape: [1] }), message('updates'));
  const out = detached(Float32Array);
  assert.throws(() => scatter.elements(new Float32Array(0), new Int32Array(0), new Float32Array(0), { out }), message('out'));
});

/** A plain object with `fields` as getters that count their reads in reads[`${label}.${key}`]. */
function counted(fields, label, reads) {
  const object = {};
  for (const [key, value] of Object.entries(fields)) {
    reads[`${label}.${key}`] = 0;
    Object.defineProperty(object, key, {
      enumerable: true,
      get() {
        reads[`${label}.${key}`] += 1;
        return value;
      },
    });
  }
  return object;
}

/** A real Array whose entries are getters that count their reads (a nested one's too). */
function countedArray(values, label, reads) {
  const array = new Array(values.length);
  values.forEach((value, k) => {
    const entry = Array.isArray(value) ? countedArray(value, `${label}[${k}]`, reads) : value;
    reads[`${label}[${k}]`] = 0;
    Object.defineProperty(array, k, {
      enumerable: true,
      get() {
        reads[`${label}[${k}]`] += 1;
        return entry;
      },
    });
  });
  return array;
}

function assertReadOnce(reads) {
  const wrong = Object.entries(reads).filter(([, n]) => n !== 1).map(([key, n]) => `${key} read ${n} times`);
  assert.deepEqual(wrong, [], 'every getter is called exactly once');
}

test('every option and every field of every argument is read exactly once', () => {
  const reads = {};
  const dataArray = Float32Array.of(1, 2, 3, 4, 5, 6);
  const outArray = new Float32Array(6);
  const tensor = (array, label, shape) => counted({
    data: array,
    shape: countedArray(shape, `${label}.shape`, reads),
    strides: countedArray([3, 1], `${label}.strides`, reads),
    offset: 0,
    dtype: 'f32',
  }, label, reads);
  const data = tensor(dataArray, 'data', [2, 3]);
  const updates = counted({ data: Float32Array.of(10, 20, 30, 40, 50, 60), shape: [2, 3] }, 'updates', reads);
  const indices = counted({ data: Int32Array.of(1, 1), shape: countedArray([2], 'indices.shape', reads) }, 'indices', reads);
  const out = tensor(outArray, 'out', [2, 3]);
  const options = counted({ axis: 0, reduction: 'add', excludeSelf: false, outOfRange: 'error', out, backend: 'cpu' },
    'options', reads);
  assert.equal(scatter.rows(data, indices, updates, options), out);
  assertReadOnce(reads);
  sameValues(assert, outArray, Float32Array.of(1, 2, 3, 54, 75, 96), 'out');
  sameValues(assert, dataArray, Float32Array.of(1, 2, 3, 4, 5, 6), 'data untouched');
});

test('read once: data as out (in place), plain nested indices, a context, Context options', () => {
  const reads = {};
  const context = new scatter.Context(counted({ backend: 'cpu', threads: 1, device: -1, deterministic: true },
    'Context', reads));
  const array = Int32Array.of(1, 2, 3, 4);
  const data = counted({ data: array, shape: [2, 2] }, 'data', reads);
  const indices = countedArray([[1, 0]], 'indices', reads);
  const updates = { data: Int32Array.of(10, 20), shape: [1, 2] };
  scatter.elements(data, indices, updates, counted({ out: data, context }, 'options', reads));
  const plain = counted({ data: countedArray([0], 'plain.data', reads), shape: [1] }, 'plain', reads);
  scatter.elements(array, plain, Int32Array.of(5), { out: array, context });
  context.close();
  assertReadOnce(reads);
  sameValues(assert, array, Int32Array.of(5, 20, 10, 4), 'in place');
});

test('a Proxy of a Context, or an object that only inherits from Context, is not a Context', () => {
  const context = new scatter.Context({ backend: 'cpu' });
  for (const fake of [new Proxy(context, {}), Object.create(scatter.Context.prototype)]) {
    assert.throws(() => scatter.elements(new Float32Array(1), [0], Float32Array.of(1), { context: fake }),
      (err) => err instanceof TypeError && err.message === 'context must be a Context');
  }
  context.close();
});
