'use strict';
// Every error class with its status name and message; `out` (and data, in place) unchanged after
// any failure, the library's or the binding's own checks.

const test = require('node:test');
const assert = require('node:assert/strict');
const { scatter, internal } = require('./package');

const { fn } = internal('lib/library');
const { ERROR_CLASSES, errorForStatus } = internal('lib/errors');

const fresh = () => ({ data: Float32Array.from({ length: 12 }, (_, k) => k), shape: [3, 4] });
const sentinel = () => new Float32Array(12).fill(-1);

/**
 * call(data, out) must throw `ErrorClass` (message matching `pattern`) and leave out and data
 * as they were; then the same in place (out = data).
 */
function failsAtomically(ErrorClass, call, pattern) {
  const data = fresh();
  const out = sentinel();
  const err = captured(() => call(data, out));
  assert.ok(err instanceof ErrorClass, `expected ${ErrorClass.name}, got ${err}`);
  assert.ok(err instanceof scatter.ScatterError && err instanceof Error);
  assert.equal(err.status, ErrorClass.status);
  assert.equal(err.code, ErrorClass.status);
  assert.equal(err.name, ErrorClass.name);
  assert.ok(err.message.length > 0);
  if (pattern) assert.match(err.message, pattern);
  assert.deepEqual(out, sentinel(), 'out unchanged');
  assert.deepEqual(data.data, fresh().data, 'data unchanged');
  assert.throws(() => call(data, data), ErrorClass);
  assert.deepEqual(data.data, fresh().data, 'data unchanged in place');
}

function captured(call) {
  try {
    call();
  } catch (err) {
    return err;
  }
  return undefined;
}

test('IndexOutOfRangeError names the index', () => {
  failsAtomically(scatter.IndexOutOfRangeError,
    (d, out) => scatter.elements(d, [[0, 7, 1, 2]], { data: new Float32Array(4), shape: [1, 4] }, { out }),
    /indices\[0\]\[1\] = 7 is outside \[-3, 3\) on axis 0/);
});

test('InvalidArgumentError: a bad axis, nd with an axis, integer division by zero, overlapping out', () => {
  failsAtomically(scatter.InvalidArgumentError,
    (d, out) => scatter.rows(d, [0], { data: new Float32Array(4), shape: [1, 4] }, { axis: 5, out }), /axis/);
  failsAtomically(scatter.InvalidArgumentError,
    (d, out) => scatter.nd(d, [[0]], { data: new Float32Array(4), shape: [1, 4] }, { axis: 1, out }), /axis/);
  const ints = Int32Array.of(1, 2, 3, 4);
  assert.throws(() => scatter.elements(ints, [0, 1], Int32Array.of(3, 0), { reduction: 'div', out: ints }),
    scatter.InvalidArgumentError);
  assert.deepEqual(ints, Int32Array.of(1, 2, 3, 4));
  // out overlapping data without being the same view.
  const backing = Float32Array.of(1, 2, 3, 4, 5);
  assert.throws(() => scatter.elements(backing.subarray(0, 4), [0], Float32Array.of(9), { out: backing.subarray(1, 5) }),
    scatter.InvalidArgumentError);
  assert.deepEqual(backing, Float32Array.of(1, 2, 3, 4, 5));
});

test('TypeMismatchError: updates of another dtype, float indices', () => {
  failsAtomically(scatter.TypeMismatchError,
    (d, out) => scatter.elements(d, [[0]], { data: Float64Array.of(1), shape: [1, 1] }, { out }));
  failsAtomically(scatter.TypeMismatchError,
    (d, out) => scatter.elements(d, { data: Float32Array.of(0), shape: [1, 1] }, { data: Float32Array.of(1), shape: [1, 1] }, { out }));
});

test('ShapeMismatchError: updates that break the op\'s shape rule', () => {
  failsAtomically(scatter.ShapeMismatchError,
    (d, out) => scatter.nd(d, [[0, 1]], Float32Array.of(1, 2, 3), { out }));
});

test('UnsupportedError: a dtype/reduction pair outside the table', () => {
  const data = { data: new Uint8Array(3), dtype: 'bool' };
  assert.throws(() => scatter.elements(data, [0], { data: Uint8Array.of(1), dtype: 'bool' }, { reduction: 'max', out: data }),
    (err) => err instanceof scatter.UnsupportedError && err.status === 'SCATTER_ERROR_UNSUPPORTED');
  assert.deepEqual(data.data, new Uint8Array(3));
});

test('BackendUnavailableError: a Vulkan device that is not there', () => {
  assert.throws(() => new scatter.Context({ backend: 'vulkan', device: 999 }), scatter.BackendUnavailableError);
});

test('every status has its class, named as the library names it', () => {
  // OUT_OF_MEMORY, DEVICE_LOST and INTERNAL cannot be provoked on purpose: their mapping is
  // checked here.
  assert.equal(ERROR_CLASSES.size, 9);
  for (const [value, cls] of ERROR_CLASSES) {
    const err = errorForStatus(value, 'why');
    assert.equal(err.constructor, cls);
    assert.ok(err instanceof scatter.ScatterError);
    assert.equal(err.status, fn.scatter_status_name(value));
    assert.equal(err.message, 'why');
    assert.equal(scatter[cls.name], cls, `${cls.name} exported`);
  }
  assert.ok(errorForStatus(6, '') instanceof scatter.OutOfMemoryError);
  assert.ok(errorForStatus(8, '') instanceof scatter.DeviceLostError);
  assert.ok(errorForStatus(9, '') instanceof scatter.InternalError);
  const unknown = errorForStatus(1234, 'x');
  assert.equal(unknown.constructor, scatter.ScatterError);
  assert.match(unknown.status, /^SCATTER_STATUS_UNKNOWN/);
});

test('the binding refuses bad options before calling: nothing is written', () => {
  const cases = [
    [scatter.InvalidArgumentError, /reduction 'xor' is not one of/, { reduction: 'xor' }],
    [scatter.InvalidArgumentError, /outOfRange 'wrap'/, { outOfRange: 'wrap' }],
    [scatter.InvalidArgumentError, /backend 'metal'/, { backend: 'metal' }],
    [scatter.InvalidArgumentError, /axis = 2147483648 is outside/, { axis: 2 ** 31 }],
    [scatter.InvalidArgumentError, /axis = -2147483649/, { axis: -(2 ** 31) - 1 }],
    [TypeError, /axis must be an integer/, { axis: 0.5 }],
    [TypeError, /axis must be an integer/, { axis: '0' }],
    [TypeError, /excludeSelf must be true or false/, { excludeSelf: 1 }],
    [TypeError, /no option 'exclude_self'/, { exclude_self: true }],
    [TypeError, /context must be a Context/, { context: {} }],
  ];
  for (const [ErrorClass, pattern, options] of cases) {
    const d = fresh();
    const out = sentinel();
    assert.throws(() => scatter.elements(d, [[0]], { data: Float32Array.of(1), shape: [1, 1] }, { out, ...options }),
      (err) => err instanceof ErrorClass && pattern.test(err.message), JSON.stringify(options));
    assert.deepEqual(out, sentinel());
  }
  const context = new scatter.Context({ backend: 'cpu' });
  assert.throws(() => scatter.elements(new Float32Array(1), [0], new Float32Array(1), { context, backend: 'cpu' }), TypeError);
  context.close();
  assert.throws(() => scatter.elements(new Float32Array(1), [0], new Float32Array(1), { context }),
    (err) => err instanceof scatter.InvalidArgumentError && /closed/.test(err.message));
});

test('the binding checks that every tensor lies inside its array', () => {
  const u = Float32Array.of(1);
  const cases = [
    [scatter.ShapeMismatchError, /shape \[3, 3\] \(9 elements\) but its data holds 12/, { data: new Float32Array(12), shape: [3, 3] }],
    [scatter.ShapeMismatchError, /rank 17, more than the maximum rank 16/, { data: new Float32Array(1), shape: new Array(17).fill(1) }],
    [scatter.ShapeMismatchError, /shape\[0\] = -2 is negative/, { data: new Float32Array(0), shape: [-2, 0] }],
    [scatter.ShapeMismatchError, /reaches elements 1 to 12 of data that holds 12/, { data: new Float32Array(12), shape: [3, 4], strides: [4, 1], offset: 1 }],
    [scatter.ShapeMismatchError, /reaches elements -3 to 0/, { data: new Float32Array(4), shape: [4], strides: [-1] }],
    [scatter.ShapeMismatchError, /1 strides for its 2 dimensions/, { data: new Float32Array(4), shape: [2, 2], strides: [1] }],
    [scatter.InvalidArgumentError, /offset needs data.strides/, { data: new Float32Array(4), offset: 1 }],
    [scatter.InvalidArgumentError, /offset = 5 is outside/, { data: new Float32Array(4), shape: [0], strides: [1], offset: 5 }],
    [TypeError, /shape\[0\] must be an integer/, { data: new Float32Array(4), shape: [4.5] }],
    [TypeError, /no field 'stride'/, { data: new Float32Array(4), stride: [1] }],
    [TypeError, /data must be a TypedArray/, [1, 2, 3]],
    [TypeError, /data must be a TypedArray/, new DataView(new ArrayBuffer(4))],
    [scatter.TypeMismatchError, /Uint8ClampedArray, which holds no libscatter dtype/, new Uint8ClampedArray(4)],
    [scatter.TypeMismatchError, /dtype 'bool' needs its data in a Uint8Array, not a Float32Array/, { data: new Float32Array(4), dtype: 'bool' }],
    [scatter.InvalidArgumentError, /dtype 'c64' is not one of/, { data: new Float32Array(4), dtype: 'c64' }],
  ];
  for (const [ErrorClass, pattern, data] of cases) {
    assert.throws(() => scatter.elements(data, [0], u), (err) => err instanceof ErrorClass && pattern.test(err.message),
      String(pattern));
  }
  const out = new Float32Array(3).fill(-1);
  assert.throws(() => scatter.elements(new Float32Array(4), [0], u, { out }),
    (err) => err instanceof scatter.ShapeMismatchError && /out holds 3 elements/.test(err.message));
  assert.deepEqual(out, new Float32Array(3).fill(-1));
});

test('plain indices must be exact integers in a rectangular array', () => {
  const d = new Float32Array(4);
  const cases = [
    [scatter.TypeMismatchError, /value 1.5 at flat position 1/, [0, 1.5]],
    [scatter.TypeMismatchError, /value 9007199254740992 /, [2 ** 53]],
    [scatter.TypeMismatchError, /value 9223372036854775808n/, [2n ** 63n]],
    [scatter.TypeMismatchError, /value 1 at flat position 0/, ['1']],
    [scatter.TypeMismatchError, /value undefined at flat position 1/, [0, , 2]], // eslint-disable-line no-sparse-arrays
    [scatter.ShapeMismatchError, /ragged nested array: indices\[1\] has 1 entries where 2 were expected/, [[0, 1], [2]]],
    [scatter.ShapeMismatchError, /indices\[1\] is an array where a number was expected/, [0, [1]]],
    [TypeError, /indices must be/, 'abc'],
    [TypeError, /take only a shape/, { data: [0], strides: [1] }],
  ];
  for (const [ErrorClass, pattern, indices] of cases) {
    assert.throws(() => scatter.elements(d, indices, new Float32Array(1)),
      (err) => err instanceof ErrorClass && pattern.test(err.message), String(pattern));
  }
});
