#!/bin/sh
# The package as a user gets it: bundle the library into a copy of bindings/js, `npm pack` it,
# install the tarball into a fresh scratch project offline, and there, with no SCATTER_LIBRARY,
# require('libscatter') and run the binding's tests against the installed package.
#   check_package.sh <libscatter.so> <scratch dir>
#
# Offline: npm reaches no registry here. koffi comes from bindings/js/node_modules (installed by
# `npm ci` in scripts/install-deps.sh), packed into tarballs and installed by path beside the
# package: npm's cache after `npm ci` lacks the full registry metadata that resolving
# "koffi": "3.3.4" for a new project needs, so a cache-only install cannot work.
set -eu
[ $# -eq 2 ] || { echo "usage: check_package.sh <libscatter.so> <scratch dir>" >&2; exit 2; }
library=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
scratch=$2
here=$(cd "$(dirname "$0")" && pwd)
package=$(dirname "$here")
[ -f "$library" ] || { echo "check_package.sh: no library at $library" >&2; exit 1; }
[ -d "$package/node_modules/koffi" ] || {
  echo "check_package.sh: $package/node_modules/koffi is missing: run scripts/install-deps.sh" \
       "(it runs npm ci in bindings/js)" >&2
  exit 1
}
rm -rf "$scratch" && mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
# npm writes its logs and cache here, not into the user's ~/.npm.
export npm_config_cache="$scratch/npm-cache" npm_config_offline=true npm_config_audit=false \
       npm_config_fund=false npm_config_update_notifier=false

# 1. A copy of the package's files (not its node_modules), with the library bundled in.
mkdir "$scratch/package"
cp -R "$package/package.json" "$package/package-lock.json" "$package/README.md" "$package/index.js" \
      "$package/index.d.ts" "$package/bundle-library.js" "$package/lib" "$scratch/package/"
cp "$package/../../LICENSE" "$scratch/package/" 2>/dev/null || true
node "$scratch/package/bundle-library.js" "$library"

# 2. The tarballs: the package, and koffi with its platform package(s) from node_modules.
mkdir "$scratch/dist"
(cd "$scratch/dist" && npm pack --silent "$scratch/package" >/dev/null)
tarball=$(ls "$scratch"/dist/libscatter-*.tgz)
tar -tzf "$tarball" > "$scratch/contents.txt"
for f in package/package.json package/index.js package/index.d.ts package/lib/library.js \
         package/native/libscatter.so package/README.md package/LICENSE; do
  grep -qx "$f" "$scratch/contents.txt" || { echo "check_package.sh: $f is not in $tarball" >&2; exit 1; }
done
if grep -q -e '^package/test/' -e '^package/node_modules/' "$scratch/contents.txt"; then
  echo "check_package.sh: $tarball ships tests or node_modules" >&2; exit 1
fi
mkdir "$scratch/deps"
for dir in "$package/node_modules/koffi" "$package"/node_modules/@koromix/*; do
  [ -d "$dir" ] && (cd "$scratch/deps" && npm pack --silent "$dir" >/dev/null)
done

# 3. A scratch project that installs the tarball, offline.
mkdir "$scratch/project"
cd "$scratch/project"
echo '{ "name": "scratch", "version": "1.0.0", "private": true }' > package.json
npm install --silent --no-save "$scratch"/deps/*.tgz "$tarball"
[ -f node_modules/libscatter/native/libscatter.so ] || { echo "check_package.sh: no library in the installed package" >&2; exit 1; }

# 4. Use it as a user would, with no SCATTER_LIBRARY, from outside the source tree.
unset SCATTER_LIBRARY
node -e "
const scatter = require('libscatter');
const out = scatter.elements(new Float32Array(4), [1, 1, 3], Float32Array.of(1, 1, 1), { reduction: 'add' });
const expected = [0, 2, 0, 1];
if (String(Array.from(out)) !== String(expected)) throw new Error('got ' + Array.from(out));
const want = require('path').join(process.cwd(), 'node_modules', 'libscatter', 'native');
if (!scatter.libraryPath.startsWith(want)) throw new Error('library from ' + scatter.libraryPath);
console.log('installed libscatter ' + scatter.version + ' from ' + scatter.libraryPath + ': ok');
"
# 5. The binding's tests against the installed package.
SCATTER_TEST_INSTALLED=1 node --test "$here"/*.test.js
