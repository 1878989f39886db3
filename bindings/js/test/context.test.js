'use strict';
// Context, devices(), the version, and the Vulkan backend where there is one (on CI: Mesa's
// lavapipe, named by VK_DRIVER_FILES; without a Vulkan device those tests are skipped).

const test = require('node:test');
const assert = require('node:assert/strict');
const { scatter } = require('./package');
const { rng, makeArray, makeIndices, sameValues } = require('./util');

test('version and libraryPath', () => {
  assert.match(scatter.version, /^0\.\d+\.\d+/);
  assert.equal(typeof scatter.libraryPath, 'string');
  if (process.env.SCATTER_LIBRARY) assert.equal(scatter.libraryPath, process.env.SCATTER_LIBRARY);
});

test('Context: options, backend, close', () => {
  const context = new scatter.Context({ backend: 'cpu', threads: 3, deterministic: false });
  assert.equal(context.backend, 'cpu');
  assert.equal(context.closed, false);
  context.close();
  assert.equal(context.closed, true);
  context.close(); // twice is fine
  assert.throws(() => context.backend, scatter.InvalidArgumentError);
  const auto = new scatter.Context();
  assert.ok(['cpu', 'vulkan'].includes(auto.backend));
  auto.close();
  if (typeof Symbol.dispose === 'symbol') {
    const disposed = new scatter.Context({ backend: 'cpu' });
    disposed[Symbol.dispose]();
    assert.equal(disposed.closed, true);
  }
});

test('Context: bad options are refused', () => {
  assert.throws(() => new scatter.Context({ backend: 'metal' }), /backend 'metal' is not one of auto, cpu, vulkan/);
  assert.throws(() => new scatter.Context({ threads: -1 }), scatter.InvalidArgumentError);
  assert.throws(() => new scatter.Context({ threads: 2 ** 32 }), scatter.InvalidArgumentError);
  assert.throws(() => new scatter.Context({ device: 2 ** 31 }), scatter.InvalidArgumentError);
  assert.throws(() => new scatter.Context({ threads: 1.5 }), TypeError);
  assert.throws(() => new scatter.Context({ deterministic: 'no' }), TypeError);
  assert.throws(() => new scatter.Context({ thread: 2 }), /no option 'thread'/);
});

test('devices: the CPU first, then the Vulkan devices', () => {
  const list = scatter.devices();
  assert.ok(list.length >= 1);
  const cpu = list[0];
  assert.equal(cpu.backend, 'cpu');
  assert.equal(cpu.type, 'cpu');
  assert.equal(cpu.apiVersion, '');
  assert.equal(cpu.maxBufferRange, 2n ** 64n - 1n);
  assert.ok(cpu.threadCount >= 1);
  assert.ok(cpu.name.length > 0);
  for (const device of list.slice(1)) {
    assert.equal(device.backend, 'vulkan');
    assert.match(device.apiVersion, /^1\.\d+\.\d+$/);
    assert.ok(Array.isArray(device.features));
    assert.equal(typeof device.maxBufferRange, 'bigint');
  }
});

/** A Vulkan context, or null (the test is then skipped) when there is no Vulkan device. */
function vulkanContext(t) {
  try {
    return new scatter.Context({ backend: 'vulkan', threads: 2 });
  } catch (err) {
    if (!(err instanceof scatter.BackendUnavailableError)) throw err;
    t.skip(`no Vulkan device: ${err.message}`);
    return null;
  }
}

test('Vulkan gives the CPU\'s results, bit for bit', (t) => {
  const vulkan = vulkanContext(t);
  if (vulkan === null) return;
  const cpu = new scatter.Context({ backend: 'cpu', threads: 2 });
  try {
    assert.equal(vulkan.backend, 'vulkan');
    const random = rng(99);
    for (const [dtype, reductions] of [['f32', ['none', 'add', 'mul', 'max', 'mean']], ['i32', ['add', 'min']]]) {
      for (const reduction of reductions) {
        const data = { data: makeArray(dtype, 64, random), shape: [8, 8] };
        const indices = { data: makeIndices(128, -8, 8, random, Int32Array), shape: [16, 8] };
        const updates = { data: makeArray(dtype, 128, random), shape: [16, 8] };
        for (const op of ['elements', 'rows']) {
          const args = op === 'elements'
            ? [data, indices, updates]
            : [data, { data: indices.data.subarray(0, 16), shape: [16] }, updates];
          const expected = scatter[op](...args, { reduction, context: cpu });
          const actual = scatter[op](...args, { reduction, context: vulkan });
          sameValues(assert, actual.data, expected.data, `${op} ${dtype} ${reduction}`);
        }
      }
    }
    // In place on the GPU, and its errors: the same classes, out unchanged.
    const data = Float32Array.of(1, 2, 3);
    scatter.elements(data, [2, 2], Float32Array.of(1, 1), { reduction: 'add', out: data, context: vulkan });
    sameValues(assert, data, Float32Array.of(1, 2, 5), 'in place');
    assert.throws(() => scatter.elements(data, [5], Float32Array.of(1), { out: data, context: vulkan }),
      scatter.IndexOutOfRangeError);
    sameValues(assert, data, Float32Array.of(1, 2, 5), 'unchanged');
  } finally {
    vulkan.close();
    cpu.close();
  }
});
