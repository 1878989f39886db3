#!/bin/sh
# The binding's tests (node --test test/*.test.js) in this source tree, as ctest's bindings.js runs
# them: SCATTER_LIBRARY names the library, SCATTER_NATIVE_LAYOUT the layout program.
#   run_tests.sh [node]
set -eu
node=${1:-node}
here=$(cd "$(dirname "$0")" && pwd)
package=$(dirname "$here")
[ -d "$package/node_modules/koffi" ] || {
  echo "run_tests.sh: $package/node_modules/koffi is missing: run scripts/install-deps.sh" \
       "(it runs npm ci in bindings/js)" >&2
  exit 1
}
cd "$package"
exec "$node" --test "$here"/*.test.js
