#!/usr/bin/env node
'use strict';
// Copies a built libscatter into this package's native/ folder (and the repository's LICENSE
// next to package.json, when it is there) so that `npm pack` ships them and the installed package
// finds the library with no SCATTER_LIBRARY:
//
//   npm run bundle -- /path/to/libscatter.so      (or: node bundle-library.js /path/to/libscatter.so)
//
// The copy follows symlinks (build/src/libscatter.so -> libscatter.so.0.1.0) and is stored under
// the name the loader looks for first on this platform (lib/library.js, libraryNames).

const fs = require('node:fs');
const path = require('node:path');

function main(argv) {
  if (argv.length !== 1 || argv[0].startsWith('-')) {
    console.error('usage: node bundle-library.js /path/to/libscatter.so');
    return 2;
  }
  const source = path.resolve(argv[0]);
  if (!fs.existsSync(source) || !fs.statSync(source).isFile()) {
    console.error(`bundle-library.js: ${source} is not a file`);
    return 1;
  }
  const here = __dirname;
  const native = path.join(here, 'native');
  // Only the library itself: a stale library of another name must not be found instead.
  fs.rmSync(native, { recursive: true, force: true });
  fs.mkdirSync(native);
  const name = { win32: 'scatter.dll', darwin: 'libscatter.dylib' }[process.platform] || 'libscatter.so';
  const target = path.join(native, name);
  fs.copyFileSync(source, target);
  fs.chmodSync(target, 0o755);
  console.log(`bundled ${source} as ${target}`);
  const license = path.join(here, '..', '..', 'LICENSE');
  if (fs.existsSync(license)) {
    fs.copyFileSync(license, path.join(here, 'LICENSE'));
    console.log(`copied ${license}`);
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
