#!/usr/bin/env python3
"""Builds the `libscatter` wheel with the shared library inside, offline.

    python3 build_wheel.py --library build/src/libscatter.so --out dist

Copies this folder to a scratch directory, puts the library (symlinks resolved) into the
package as libscatter.so (libscatter.dylib / scatter.dll elsewhere), and runs `pip wheel`
without an index or build isolation, so only the setuptools and wheel already installed are
needed. The wheel is tagged py3-none-<platform>: it holds no Python extension, only a library
for this platform. Prints the wheel's path.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLED_NAME = {"win32": "scatter.dll", "darwin": "libscatter.dylib"}.get(sys.platform, "libscatter.so")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", required=True, help="the libscatter shared library to bundle")
    parser.add_argument("--out", required=True, help="folder the wheel is written to")
    args = parser.parse_args()
    library = os.path.realpath(args.library)
    if not os.path.isfile(library):
        print(f"build_wheel.py: no library at {args.library}", file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        source = os.path.join(scratch, "libscatter")
        shutil.copytree(HERE, source, ignore=shutil.ignore_patterns(
            "tests", "build", "dist", "*.egg-info", "__pycache__", "libscatter.so*", "*.dylib", "*.dll"))
        shutil.copy(library, os.path.join(source, "scatter", BUNDLED_NAME))
        licence = os.path.join(HERE, "..", "..", "LICENSE")
        if os.path.exists(licence):  # setuptools puts LICENSE* into the wheel's dist-info
            shutil.copy(licence, os.path.join(source, "LICENSE"))
        before = set(os.listdir(args.out))
        result = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-index",
                                 "--no-build-isolation", "--no-deps", "--wheel-dir", args.out, source],
                                capture_output=True, text=True)
        if result.returncode != 0:
            print(result.stdout + result.stderr, file=sys.stderr)
            return result.returncode
    built = sorted(set(os.listdir(args.out)) - before) or sorted(
        f for f in os.listdir(args.out) if f.startswith("libscatter-") and f.endswith(".whl"))
    print(os.path.join(args.out, built[-1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
