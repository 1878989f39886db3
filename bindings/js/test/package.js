'use strict';
// The package under test: this source tree's, or with SCATTER_TEST_INSTALLED=1 the one that
// `require('libscatter')` finds from the working directory (check_package.sh installs the packed
// tarball into a scratch project and runs these tests from there).

const path = require('node:path');

const installed = process.env.SCATTER_TEST_INSTALLED === '1';
const entry = installed
  ? require.resolve('libscatter', { paths: [process.cwd()] })
  : require.resolve('..');
const root = path.dirname(entry);

module.exports = {
  scatter: require(entry),
  /** The package's folder (where package.json, lib/ and native/ are). */
  root,
  /** A module of the package itself, e.g. internal('lib/errors'): the same instance it uses. */
  internal: (name) => require(path.join(root, name)),
  installed,
  /** This source tree's bindings/js folder (README.md, test/). */
  source: path.join(__dirname, '..'),
};
