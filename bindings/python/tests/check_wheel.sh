#!/bin/sh
# The wheel as a user gets it: build it with the library inside, install it offline into a fresh
# virtual environment, and run the binding's tests there from outside the source tree with no
# SCATTER_LIBRARY. The venv sees the system's site-packages for numpy and pytest only (no index
# is reachable to install them); the package under test is the wheel's.
#   check_wheel.sh <python> <libscatter.so> <scratch dir>
set -eu
python=$1 library=$2 scratch=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$scratch" && mkdir -p "$scratch"
wheel=$("$python" "$here/../build_wheel.py" --library "$library" --out "$scratch/dist")
case "$(basename "$wheel")" in
  libscatter-*-py3-none-linux_*.whl|libscatter-*-py3-none-macosx_*.whl|libscatter-*-py3-none-win*.whl) ;;
  *) echo "check_wheel.sh: unexpected wheel name $(basename "$wheel")" >&2; exit 1 ;;
esac
"$python" -m zipfile -l "$wheel" | grep -q 'scatter/libscatter.so' || { echo "no library in $wheel" >&2; exit 1; }
"$python" -m zipfile -l "$wheel" | grep -q 'scatter/py.typed' || { echo "no py.typed in $wheel" >&2; exit 1; }
"$python" -m venv --system-site-packages "$scratch/venv"
"$scratch/venv/bin/python" -m pip install --quiet --no-index --no-deps "$wheel"
unset SCATTER_LIBRARY
cd "$scratch"
# Every test but the source-tree install's and Dask's (bindings.python runs those; they took half
# of this suite's time and test nothing the wheel changes: CI time).
SCATTER_TEST_INSTALLED=1 "$scratch/venv/bin/python" -m pytest -q -p no:cacheprovider \
  --ignore="$here/test_install.py" --ignore="$here/test_dask.py" "$here"
"$scratch/venv/bin/python" -c "import scatter, sys; p = scatter.library_path; sys.exit(0 if p.startswith('$scratch/venv') else 'library from ' + p)"
