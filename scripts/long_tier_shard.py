#!/usr/bin/env python3
"""Prints a ctest -R regular expression that selects share K of N of the long tier (label `long`)
of a build tree: each long test belongs to the share crc32(name) % N, so a test keeps its share
while tests are added or removed, and the two halves of today's tier take about the same time
(838 and 917 s of tests on a 2-core VM, 2026-11-29).

.ci/run runs one half of the long tier per run, alternating with the commit count (CI's 50
minutes, docs/testing.md); `make test-long` without LONG_SHARD runs all of it.

Usage: long_tier_shard.py BUILD_DIR K N   (0 <= K < N). Exit status 2 on bad arguments, 1 when
ctest lists no long test (a tier that cannot fail is a defect).
"""
import re
import subprocess
import sys
import zlib


def long_tests(build_dir):
    listing = subprocess.run(["ctest", "-N", "-L", "long"], cwd=build_dir, check=True, capture_output=True,
                             text=True).stdout
    return [m.group(1) for m in re.finditer(r"^\s*Test\s+#\d+: (\S+)\s*$", listing, re.MULTILINE)]


def main():
    if len(sys.argv) != 4 or not sys.argv[2].isdigit() or not sys.argv[3].isdigit():
        print(__doc__, file=sys.stderr)
        return 2
    build_dir, k, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    if n < 1 or k >= n:
        print(__doc__, file=sys.stderr)
        return 2
    names = long_tests(build_dir)
    if not names:
        print(f"long_tier_shard.py: ctest lists no test labelled long in {build_dir}", file=sys.stderr)
        return 1
    chosen = sorted(name for name in names if zlib.crc32(name.encode()) % n == k)
    print(f"long_tier_shard.py: share {k}/{n}: {len(chosen)} of {len(names)} long tests", file=sys.stderr)
    # A share may be empty with few tests; a pattern that matches nothing keeps ctest from running all.
    print("^(" + "|".join(re.escape(name) for name in chosen) + ")$" if chosen else "^$")
    return 0


if __name__ == "__main__":
    sys.exit(main())
