'use strict';
// How the library is found: SCATTER_LIBRARY alone when set, else native/ inside the package,
// else the system; a clear error naming every place; the major version check. Each case loads a
// copy of the package in a child process, so that this process's loaded library is not involved.

const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { scatter, root, installed } = require('./package');

/** A copy of the package's code in a temporary folder, koffi reachable, no native/. */
function packageCopy(t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scatter-js-copy-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.cpSync(path.join(root, 'lib'), path.join(dir, 'lib'), { recursive: true });
  fs.copyFileSync(path.join(root, 'index.js'), path.join(dir, 'index.js'));
  // koffi's folder: up from its entry point (its "exports" hide package.json from require).
  let koffi = path.dirname(require.resolve('koffi', { paths: [root] }));
  while (!fs.existsSync(path.join(koffi, 'package.json'))) koffi = path.dirname(koffi);
  fs.mkdirSync(path.join(dir, 'node_modules'));
  fs.symlinkSync(koffi, path.join(dir, 'node_modules', 'koffi'), 'dir');
  return dir;
}

/** Requires the package at `dir` in a child process; returns {ok, libraryPath} or {ok: false, code, message}. */
function load(dir, env) {
  const script = `
    try {
      const s = require(${JSON.stringify(dir)});
      console.log(JSON.stringify({ ok: true, libraryPath: s.libraryPath, version: s.version }));
    } catch (err) {
      console.log(JSON.stringify({ ok: false, code: err.code, message: err.message }));
    }`;
  const childEnv = { ...process.env, ...env };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete childEnv[key];
  const child = spawnSync(process.execPath, ['-e', script], { env: childEnv, encoding: 'utf8' });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout);
}

/** A library file that this process loaded (to copy into a package), or null. */
function builtLibrary() {
  const candidate = process.env.SCATTER_LIBRARY || scatter.libraryPath;
  return path.isAbsolute(candidate) && fs.existsSync(candidate) ? candidate : null;
}

test('SCATTER_LIBRARY is the only place tried when set', (t) => {
  const dir = packageCopy(t);
  const library = builtLibrary();
  if (library) {
    // A usable bundled library must not be taken instead of the broken explicit choice.
    fs.mkdirSync(path.join(dir, 'native'));
    fs.copyFileSync(library, path.join(dir, 'native', 'libscatter.so'));
  }
  const missing = path.join(dir, 'no-such-libscatter.so');
  const result = load(dir, { SCATTER_LIBRARY: missing });
  assert.equal(result.ok, false);
  assert.equal(result.code, 'SCATTER_LIBRARY_NOT_FOUND');
  assert.ok(result.message.includes(`looked in SCATTER_LIBRARY: ${missing}`), result.message);
});

test('a library in the package\'s native/ folder is found with no SCATTER_LIBRARY', (t) => {
  const library = builtLibrary();
  if (!library || process.platform !== 'linux') return t.skip('no library file to bundle on this platform');
  const dir = packageCopy(t);
  fs.mkdirSync(path.join(dir, 'native'));
  fs.copyFileSync(library, path.join(dir, 'native', 'libscatter.so'));
  const result = load(dir, { SCATTER_LIBRARY: undefined });
  assert.equal(result.ok, true, result.message);
  assert.equal(result.libraryPath, path.join(dir, 'native', 'libscatter.so'));
  assert.equal(result.version, scatter.version);
  return undefined;
});

test('with nothing to load, the error names every place it looked', (t) => {
  const dir = packageCopy(t);
  const result = load(dir, { SCATTER_LIBRARY: undefined, LD_LIBRARY_PATH: undefined });
  if (result.ok) return t.skip(`a system libscatter is installed: ${result.libraryPath}`);
  assert.equal(result.code, 'SCATTER_LIBRARY_NOT_FOUND');
  for (const part of ['SCATTER_LIBRARY (not set)', path.join(dir, 'native'), 'the system library path', 'libscatter.so.0']) {
    assert.ok(result.message.includes(part), `"${part}" in: ${result.message}`);
  }
  assert.match(result.message, /npm run bundle/);
  return undefined;
});

test('a library of another major version, or one that is not libscatter, is refused', (t) => {
  if (spawnSync('cc', ['--version']).error || process.platform !== 'linux') return t.skip('no cc');
  const dir = packageCopy(t);
  // Every function the binding declares, as stubs; scatter_version says 1.0.0.
  const stubs = [
    'unsigned scatter_version(void) { return 1u << 22; }',
    'const char* scatter_version_string(void) { return "1.0.0"; }',
    ...['scatter_status_name', 'scatter_last_error_message', 'scatter_backend_name', 'scatter_dtype_name']
      .map((name) => `const char* ${name}(void) { return ""; }`),
    ...['scatter_dtype_size', 'scatter_context_create', 'scatter_context_destroy', 'scatter_context_backend',
      'scatter_devices', 'scatter_elements', 'scatter_rows', 'scatter_nd'].map((name) => `int ${name}(void) { return 0; }`),
  ];
  const build = (name, lines) => {
    const source = path.join(dir, `${name}.c`);
    fs.writeFileSync(source, `${lines.join('\n')}\n`);
    const output = path.join(dir, `${name}.so`);
    const cc = spawnSync('cc', ['-shared', '-fPIC', source, '-o', output], { encoding: 'utf8' });
    assert.equal(cc.status, 0, cc.stderr);
    return output;
  };
  const newer = load(dir, { SCATTER_LIBRARY: build('newer', stubs) });
  assert.equal(newer.code, 'SCATTER_LIBRARY_VERSION');
  assert.match(newer.message, /is libscatter 1\.0\.0, but this binding needs major version 0/);
  const other = load(dir, { SCATTER_LIBRARY: build('other', stubs.slice(0, 1)) });
  assert.equal(other.code, 'SCATTER_LIBRARY_INVALID');
  assert.match(other.message, /is not a usable libscatter/);
  return undefined;
});

test('an installed package uses the library bundled in it', (t) => {
  if (!installed || process.env.SCATTER_LIBRARY) return t.skip('not the installed package, or SCATTER_LIBRARY set');
  assert.equal(path.dirname(scatter.libraryPath), path.join(root, 'native'));
  return undefined;
});
