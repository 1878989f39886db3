"""Runs the shared conformance cases (../shared/conformance/<category>/manifest.json) through
`scatter run` and checks each result: the output file against expected.npy (exact or allclose),
or the exit code, the `error: STATUS: message` line and an untouched --out for error cases.

usage: run_conformance.py --cli PATH --cases CATEGORY_DIR [--backend B] [--case ID ...]

With --backend vulkan every case runs on the Vulkan backend; when `scatter devices` lists no
Vulkan device the run is skipped (exit 77).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

PRECREATED_BYTES = b"pre-existing output that must survive a failed run\n"
EXIT_SKIPPED = 77


def command_for(cli, case, case_dir, out_path, backend):
    args = [cli, "run", "--op", case["op"], *case["flags"]]
    if backend:
        args += ["--backend", backend]
    for role in ("data", "indices", "updates"):
        args += [f"--{role}", os.path.join(case_dir, case["inputs"][role])]
    if case.get("pass_out", True):
        args += ["--out", out_path]
    return args


def check_output(case, case_dir, proc, out_path):
    expect = case["expect"]
    if proc.returncode != 0:
        return f"exit {proc.returncode}, expected 0: {proc.stderr.strip()}"
    result = np.load(out_path)
    expected = np.load(os.path.join(case_dir, expect["file"]))
    if result.dtype.name != expect["dtype"] or result.dtype != expected.dtype:
        return f"dtype {result.dtype}, expected {expect['dtype']}"
    if list(result.shape) != list(expect["shape"]):
        return f"shape {list(result.shape)}, expected {expect['shape']}"
    if expect["compare"] == "exact":
        same = np.array_equal(result, expected, equal_nan=result.dtype.kind in "fc")
    else:
        same = np.allclose(result, expected, rtol=expect["rtol"], atol=expect["atol"], equal_nan=True)
    if not same:
        return f"{expect['compare']} comparison failed:\n  got      {result.tolist()}\n  expected {expected.tolist()}"
    return None


def check_error(case, proc, out_path):
    expect = case["expect"]
    if proc.returncode != expect["exit_code"]:
        return f"exit {proc.returncode}, expected {expect['exit_code']} (stderr: {proc.stderr.strip()})"
    first = (proc.stderr.splitlines() or [""])[0]
    if not any(first.startswith(f"error: {status}: ") for status in expect["status"]):
        return f"first stderr line {first!r}, expected one of {expect['status']}"
    if case.get("precreate_out"):
        with open(out_path, "rb") as f:
            if f.read() != PRECREATED_BYTES:
                return "the pre-existing --out file was changed"
    elif os.path.exists(out_path):
        return "a --out file was created although the run failed"
    return None


def run_case(cli, case, category_dir, backend):
    case_dir = os.path.join(category_dir, case["dir"])
    with tempfile.TemporaryDirectory() as work:
        out_path = os.path.join(work, "out.npy")
        if case.get("precreate_out"):
            with open(out_path, "wb") as f:
                f.write(PRECREATED_BYTES)
        proc = subprocess.run(command_for(cli, case, case_dir, out_path, backend), capture_output=True,
                              text=True, timeout=120)
        if case["expect"]["kind"] == "error":
            return check_error(case, proc, out_path)
        return check_output(case, case_dir, proc, out_path)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", required=True, help="the scatter program")
    parser.add_argument("--cases", required=True, help="a category folder with manifest.json")
    parser.add_argument("--backend", help="pass --backend to every run (auto, cpu, vulkan)")
    parser.add_argument("--case", action="append", help="run only these case ids")
    parser.add_argument("--sample", type=int, default=1, metavar="N",
                        help="run every Nth case only, starting at the first (make test's quick tier)")
    args = parser.parse_args()
    if args.sample < 1:
        parser.error("--sample must be at least 1")

    if args.backend == "vulkan":
        devices = subprocess.run([args.cli, "devices"], capture_output=True, text=True).stdout
        if not any(line.startswith("vulkan ") for line in devices.splitlines()):
            if os.environ.get("SCATTER_TEST_REQUIRE_VULKAN") == "1":
                print("no Vulkan device although SCATTER_TEST_REQUIRE_VULKAN=1")
                return 1
            print("no Vulkan device: skipped")
            return EXIT_SKIPPED

    with open(os.path.join(args.cases, "manifest.json")) as f:
        manifest = json.load(f)
    cases = [c for c in manifest["cases"] if not args.case or c["id"] in args.case][::args.sample]
    failures = 0
    for case in cases:
        problem = run_case(args.cli, case, args.cases, args.backend)
        if problem:
            failures += 1
            print(f"FAIL {case['id']}: {problem}")
    where = f" on {args.backend}" if args.backend else ""
    print(f"{manifest['category']}{where}: {len(cases) - failures} of {len(cases)} cases passed")
    return 1 if failures or not cases else 0


if __name__ == "__main__":
    sys.exit(main())
