'use strict';
// The koffi structs and the enum tables of the binding against the C compiler's view of
// scatter.h, printed by bindings/native_layout.c: SCATTER_NATIVE_LAYOUT names the built program;
// without it the test compiles the program with `cc` when this tree has the source; else skips.

const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { internal, source } = require('./package');

const library = internal('lib/library');
const { STATUS_TABLE } = internal('lib/errors');
const { DTYPES } = internal('lib/tensor');
const { REDUCTIONS, OUT_OF_RANGE, OPTION_EXCLUDE_SELF } = internal('lib/ops');
const { BACKENDS, CONTEXT_FLAG_ALLOW_NONDETERMINISM } = internal('lib/context');
const { DEVICE_TYPES, FEATURES } = internal('lib/devices');

const ROOT = path.join(source, '..', '..');

/** The lines of native_layout's output split into words, or a reason to skip. */
function nativeLayout() {
  const run = (program) => execFileSync(program, { encoding: 'utf8' }).trim().split('\n').map((line) => line.split(/\s+/));
  if (process.env.SCATTER_NATIVE_LAYOUT) return run(process.env.SCATTER_NATIVE_LAYOUT);
  const file = path.join(ROOT, 'bindings', 'native_layout.c');
  const cc = spawnSync('cc', ['--version']);
  if (cc.error || !fs.existsSync(file)) return 'no SCATTER_NATIVE_LAYOUT and no cc to build bindings/native_layout.c';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scatter-layout-'));
  try {
    const program = path.join(dir, 'native_layout');
    execFileSync('cc', ['-I', path.join(ROOT, 'include'), file, '-o', program]);
    return run(program);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// What native_layout prints that this binding does not bind: complex and opaque dtypes (no
// TypedArray holds them), the DEFAULT enumerators (the binding always passes a choice), the
// log levels, the validation and profile flags and the per-call nondeterminism option (no
// parameter for them).
const NOT_BOUND = new Set([
  'SCATTER_DTYPE_UNDEFINED', 'SCATTER_DTYPE_C64', 'SCATTER_DTYPE_C128', 'SCATTER_DTYPE_OPAQUE',
  'SCATTER_REDUCTION_DEFAULT', 'SCATTER_OUT_OF_RANGE_DEFAULT',
  'SCATTER_LOG_DEBUG', 'SCATTER_LOG_INFO', 'SCATTER_LOG_WARNING', 'SCATTER_LOG_ERROR',
  'SCATTER_CONTEXT_FLAG_VALIDATION', 'SCATTER_CONTEXT_FLAG_PROFILE', 'SCATTER_OPTION_ALLOW_NONDETERMINISM',
]);

/** Every value the binding holds for a C enumerator or constant, by the C name. */
function bindingValues() {
  const values = new Map([['SCATTER_OK', 0]]);
  const table = (prefix, object) => {
    for (const [name, value] of Object.entries(object)) values.set(prefix + name.toUpperCase(), value);
  };
  table('SCATTER_DTYPE_', DTYPES);
  table('SCATTER_REDUCTION_', REDUCTIONS);
  table('SCATTER_OUT_OF_RANGE_', OUT_OF_RANGE);
  table('SCATTER_BACKEND_', BACKENDS);
  for (const [value, , name] of STATUS_TABLE) values.set(name, value);
  for (const [value, name] of Object.entries(DEVICE_TYPES)) values.set(`SCATTER_DEVICE_TYPE_${name.toUpperCase()}`, Number(value));
  FEATURES.forEach((name, bit) => values.set(`SCATTER_FEATURE_${name.toUpperCase()}`, 2 ** bit));
  values.set('SCATTER_OPTION_EXCLUDE_SELF', OPTION_EXCLUDE_SELF);
  values.set('SCATTER_CONTEXT_FLAG_ALLOW_NONDETERMINISM', CONTEXT_FLAG_ALLOW_NONDETERMINISM);
  values.set('SCATTER_MAX_RANK', library.MAX_RANK);
  values.set('SCATTER_VERSION_MAJOR', library.BINDING_MAJOR);
  return values;
}

test('the structs match the header', (t) => {
  const layout = nativeLayout();
  if (typeof layout === 'string') return t.skip(layout);
  const { koffi, STRUCTS } = library;
  const fields = Object.fromEntries(Object.keys(STRUCTS).map((name) => [name, 0]));
  for (const [kind, struct, ...rest] of layout) {
    if (kind === 'struct') {
      assert.ok(STRUCTS[struct], `${struct} is declared`);
      assert.equal(koffi.sizeof(STRUCTS[struct]), Number(rest[0]), `sizeof(${struct})`);
    } else if (kind === 'field') {
      const [field, offset, size] = rest;
      const member = STRUCTS[struct].members[field];
      assert.ok(member, `${struct}.${field} is declared`);
      assert.equal(koffi.offsetof(STRUCTS[struct], field), Number(offset), `offsetof(${struct}, ${field})`);
      assert.equal(member.type.size, Number(size), `sizeof(${struct}.${field})`);
      fields[struct] += 1;
    }
  }
  for (const [name, struct] of Object.entries(STRUCTS)) {
    assert.equal(fields[name], Object.keys(struct.members).length, `${name}: C and koffi have the same fields`);
  }
  return undefined;
});

test('the enumerators and constants match the header', (t) => {
  const layout = nativeLayout();
  if (typeof layout === 'string') return t.skip(layout);
  const values = bindingValues();
  const seen = new Set();
  for (const [kind, name, value] of layout) {
    if (kind !== 'enum') continue;
    seen.add(name);
    if (NOT_BOUND.has(name)) {
      assert.ok(!values.has(name), `${name} is listed as not bound but the binding has it`);
      continue;
    }
    assert.ok(values.has(name), `${name} = ${value} in C has no value in the binding (bind it or list it in NOT_BOUND)`);
    assert.equal(values.get(name), Number(value), `${name}`);
  }
  for (const name of values.keys()) assert.ok(seen.has(name), `the binding has ${name}, which the header lacks`);
  for (const name of NOT_BOUND) assert.ok(seen.has(name), `NOT_BOUND names ${name}, which the header lacks`);
  assert.ok(seen.size > 60, `only ${seen.size} enumerators compared`);
  return undefined;
});

test('each dtype has the library\'s name and the element size of the TypedArray that holds it', () => {
  const { fn } = library;
  const holders = { f16: Uint16Array, bf16: Uint16Array, bool: Uint8Array };
  for (const [name, value] of Object.entries(DTYPES)) {
    assert.equal(fn.scatter_dtype_name(value), name);
    const holder = holders[name] || {
      f32: Float32Array, f64: Float64Array, i8: Int8Array, i16: Int16Array, i32: Int32Array, i64: BigInt64Array,
      u8: Uint8Array, u16: Uint16Array, u32: Uint32Array, u64: BigUint64Array,
    }[name];
    assert.equal(Number(fn.scatter_dtype_size(value)), holder.BYTES_PER_ELEMENT, name);
  }
});
