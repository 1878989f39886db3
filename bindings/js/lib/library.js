'use strict';
// Finds and loads libscatter, declares the C structs and functions the binding uses, and checks
// the library's major version. Loaded once, when the package is first required.
//
// Lookup order: the SCATTER_LIBRARY environment variable (an explicit choice: if it fails, the
// load fails, with no fallback to some other copy), a library bundled in the package's native/
// folder (bundle-library.js puts it there before `npm pack`), then the system's library path.

const fs = require('node:fs');
const path = require('node:path');
const koffi = require('koffi');
const { errorForStatus } = require('./errors');

/** The major version this binding was written for (SCATTER_VERSION_MAJOR of scatter.h). */
const BINDING_MAJOR = 0;
/** SCATTER_MAX_RANK of scatter.h: the largest rank of any tensor. */
const MAX_RANK = 16;

/** Where bundle-library.js puts a library inside the package. */
const BUNDLE_DIR = path.join(__dirname, '..', 'native');

/**
 * File names of the library on a platform.
 * @param {string} [platform] process.platform's value.
 * @returns {[string[], string[]]} [names tried in native/, names the system loader searches for].
 */
function libraryNames(platform = process.platform) {
  if (platform === 'win32') return [['scatter.dll'], ['scatter.dll']];
  if (platform === 'darwin') {
    return [['libscatter.dylib', 'libscatter.0.dylib'], ['libscatter.0.dylib', 'libscatter.dylib']];
  }
  // The unversioned name is what a build tree and bundle-library.js provide; the system has the
  // SONAME (libscatter.so.0) even without the -dev package's symlink.
  return [['libscatter.so', 'libscatter.so.0'], ['libscatter.so.0']];
}

// ---- C declarations (scatter.h). Enums are C enums held in 32 bits (each has a FORCE32_
// enumerator), declared here as int32_t. The layout test (test/layout.test.js) compares every
// struct with the C compiler's view printed by bindings/native_layout.c.
// Every type is anonymous: koffi's type names are global to the process, so named types would
// make a second evaluation of this module (a test runner's fresh module registry, two copies of
// the package) fail with "Duplicate type name".

const Tensor = koffi.struct({
  struct_size: 'uint32_t',
  dtype: 'int32_t',
  element_size: 'uint32_t',
  rank: 'uint32_t',
  shape: 'const int64_t *',
  strides: 'const int64_t *',
  data: 'void *',
  buffer: 'void *',
  byte_offset: 'uint64_t',
});

const Options = koffi.struct({
  struct_size: 'uint32_t',
  axis: 'int32_t',
  reduction: 'int32_t',
  out_of_range: 'int32_t',
  flags: 'uint32_t',
});

// The callback and allocator members are not bound (always NULL): declared as plain pointers so
// that the struct's layout is still the header's.
const ContextDesc = koffi.struct({
  struct_size: 'uint32_t',
  backend: 'int32_t',
  device_index: 'int32_t',
  thread_count: 'uint32_t',
  flags: 'uint32_t',
  parallel_for: 'void *',
  parallel_for_user: 'void *',
  allocator: 'void *',
  log: 'void *',
  log_user: 'void *',
});

const DeviceInfo = koffi.struct({
  struct_size: 'uint32_t',
  backend: 'int32_t',
  index: 'uint32_t',
  type: 'int32_t',
  name: koffi.array('char', 256, 'String'),
  vendor_id: 'uint32_t',
  device_id: 'uint32_t',
  api_version: 'uint32_t',
  thread_count: 'uint32_t',
  features: 'uint64_t',
  max_buffer_range: 'uint64_t',
});

/** The structs above by their C names, for the layout test. */
const STRUCTS = {
  scatter_tensor: Tensor,
  scatter_options: Options,
  scatter_context_desc: ContextDesc,
  scatter_device_info: DeviceInfo,
};

const ContextHandle = koffi.pointer(koffi.opaque());

function declare(lib) {
  const tensor = koffi.pointer(Tensor);
  const opFunction = (name) =>
    lib.func(name, 'int32_t', [ContextHandle, tensor, tensor, tensor, koffi.pointer(Options), tensor]);
  return {
    scatter_version: lib.func('uint32_t scatter_version(void)'),
    scatter_version_string: lib.func('const char *scatter_version_string(void)'),
    scatter_status_name: lib.func('const char *scatter_status_name(int32_t status)'),
    scatter_last_error_message: lib.func('const char *scatter_last_error_message(void)'),
    scatter_backend_name: lib.func('const char *scatter_backend_name(int32_t backend)'),
    scatter_dtype_name: lib.func('const char *scatter_dtype_name(int32_t dtype)'),
    scatter_dtype_size: lib.func('size_t scatter_dtype_size(int32_t dtype)'),
    scatter_context_create: lib.func('scatter_context_create', 'int32_t',
      [koffi.pointer(ContextDesc), koffi.out(koffi.pointer(ContextHandle))]),
    scatter_context_destroy: lib.func('scatter_context_destroy', 'void', [ContextHandle]),
    scatter_context_backend: lib.func('scatter_context_backend', 'int32_t',
      [ContextHandle, koffi.out(koffi.pointer('int32_t'))]),
    // infos: a byte buffer of `count` DeviceInfo entries (or null), filled in place by the library.
    scatter_devices: lib.func('int32_t scatter_devices(void *infos, uint32_t *count)'),
    scatter_elements: opFunction('scatter_elements'),
    scatter_rows: opFunction('scatter_rows'),
    scatter_nd: opFunction('scatter_nd'),
  };
}

/** [candidate paths, whether they come from SCATTER_LIBRARY]. */
function candidates() {
  const explicit = process.env.SCATTER_LIBRARY;
  if (explicit) return [[explicit], true];
  const [bundled, system] = libraryNames();
  const paths = bundled.map((name) => path.join(BUNDLE_DIR, name)).filter((p) => fs.existsSync(p));
  // A bare name: the dynamic loader searches its usual path (LD_LIBRARY_PATH, ld.so.cache, ...).
  return [[...paths, ...system], false];
}

/**
 * Loads the first libscatter found, declares its functions and checks its major version.
 * @returns {{lib: object, path: string, functions: object}}
 */
function load() {
  const [paths, explicit] = candidates();
  const failures = [];
  for (const candidate of paths) {
    let lib;
    try {
      lib = koffi.load(candidate);
    } catch (err) {
      failures.push(`${candidate}: ${err.message}`);
      continue;
    }
    let functions;
    try {
      functions = declare(lib);
    } catch (err) {
      // A library that loads but lacks a function is not libscatter (or a broken one): say so
      // rather than trying the next candidate, which would hide the problem.
      throw Object.assign(new Error(`${candidate} is not a usable libscatter: ${err.message}`),
        { code: 'SCATTER_LIBRARY_INVALID' });
    }
    const major = functions.scatter_version() >>> 22;
    if (major !== BINDING_MAJOR) {
      throw Object.assign(new Error(
        `${candidate} is libscatter ${functions.scatter_version_string()}, but this binding needs ` +
        `major version ${BINDING_MAJOR}`), { code: 'SCATTER_LIBRARY_VERSION' });
    }
    return { lib, path: candidate, functions };
  }
  const looked = explicit
    ? 'SCATTER_LIBRARY'
    : `SCATTER_LIBRARY (not set), ${BUNDLE_DIR} (${libraryNames()[0].join(', ')}) and the system library path`;
  throw Object.assign(new Error(
    `libscatter could not be loaded; looked in ${looked}: ${failures.join('; ')}. ` +
    'Set SCATTER_LIBRARY to the path of libscatter.so, or bundle one into the package with ' +
    '`npm run bundle -- /path/to/libscatter.so`.'), { code: 'SCATTER_LIBRARY_NOT_FOUND' });
}

const loaded = load();
const fn = loaded.functions;

/**
 * Throws the error of a nonzero status, with the calling thread's last-error message.
 * @param {number} status A scatter_status.
 */
function check(status) {
  if (status !== 0) throw errorForStatus(status, fn.scatter_last_error_message());
}

module.exports = {
  koffi,
  fn,
  check,
  libraryPath: loaded.path,
  libraryNames,
  BUNDLE_DIR,
  BINDING_MAJOR,
  MAX_RANK,
  STRUCTS,
  Tensor,
  Options,
  ContextDesc,
  DeviceInfo,
  TENSOR_SIZE: koffi.sizeof(Tensor),
  OPTIONS_SIZE: koffi.sizeof(Options),
  CONTEXT_DESC_SIZE: koffi.sizeof(ContextDesc),
  DEVICE_INFO_SIZE: koffi.sizeof(DeviceInfo),
};
