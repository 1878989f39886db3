#!/usr/bin/env python3
"""Checks that `make test` (every ctest test without the label `long`) still exercises what
docs/testing.md ("Two tiers") promises, and that every long test says what covers it in make test:

  - every Vulkan switch name (src/vulkan/vk_switches.cpp) in some quick test's
    SCATTER_VULKAN_DISABLE_FEATURES, and every numeric Vulkan and CPU test switch in some quick
    test's environment (or in the test sources that set it themselves);
  - every op x dtype of the Vulkan sweep (vulkan.AllOpsAllDtypes/Sweep.BitwiseEqualToCpu/<op>_<dtype>,
    each every reduction of the dtype on the CPU and on Vulkan);
  - every exported function and every status name used by some test source;
  - every long test has a quick twin (<name>_quick) or an entry in COVERED_BY below.

Usage: check_test_tiers.py BUILD_DIR. Exit status 1 with the problems listed, 0 when all hold.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Long tests without a quick twin, and what covers their point in make test.
COVERED_BY = {
    "consumer.subproject": "consumer.install_find_package_pkg_config (the installed CMake package and pkg-config)",
    "bindings.rust_downstream_cmake": "bindings.rust_downstream (the same README program on this tree's libscatter.a)",
    "vulkan.long_run_hundred_thousand_calls": "vulkan.LongRun.HundredThousandCalls* (the same with 10 000 calls)",
    "errors.vulkan_garbage": "errors.vulkan_matrix (GarbageDescriptors with 800 descriptors of another seed)",
}

OPS = ["elements", "rows", "nd"]
DTYPES = ["f16", "bf16", "f32", "f64", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "bool", "c64",
          "c128", "opaque"]
NUMERIC_SWITCHES = ["SCATTER_VULKAN_TEST_WINDOW_BYTES", "SCATTER_VULKAN_TEST_MAX_GROUPS",
                    "SCATTER_VULKAN_TEST_SLAB_WORDS"]
CPU_SWITCHES = ["blocks", "stage", "gather_parallel"]


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def test_sources():
    text = []
    for top in ["tests", "bindings"]:
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            if "node_modules" in folder or "/target" in folder or "corpus" in folder:
                continue
            for name in files:
                if name.endswith((".cpp", ".c", ".h", ".py", ".rs", ".cs", ".js", ".cmake", ".txt", ".sh")):
                    with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                        text.append(f.read())
    return "\n".join(text)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    shown = subprocess.run(["ctest", "--show-only=json-v1"], cwd=sys.argv[1], capture_output=True, text=True,
                           check=True).stdout
    tests = {}
    for t in json.loads(shown)["tests"]:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        tests[t["name"]] = (props.get("LABELS", []), props.get("ENVIRONMENT", []))
    quick = {name: env for name, (labels, env) in tests.items() if "long" not in labels}
    long_tests = [name for name, (labels, _) in tests.items() if "long" in labels]
    problems = []

    hidden = set()
    quick_env = []
    for env in quick.values():
        for entry in env:
            quick_env.append(entry)
            if entry.startswith("SCATTER_VULKAN_DISABLE_FEATURES="):
                hidden.update(n for n in entry.split("=", 1)[1].split(",") if n)
    sources = test_sources()
    for name in re.findall(r'name == "([a-z0-9_]+)"', read("src/vulkan/vk_switches.cpp")):
        set_in_source = re.search(r'DISABLE_FEATURES[^\n]*\b%s\b' % name, sources)
        if name not in hidden and not set_in_source:
            problems.append(f"the Vulkan switch {name} is hidden by no test of make test")
    for variable in NUMERIC_SWITCHES:
        if not any(e.startswith(variable + "=") for e in quick_env) and variable not in sources.replace(
                "set_tests_properties", ""):
            problems.append(f"{variable} is set by no test of make test")
    cpu_env = ",".join(e.split("=", 1)[1] for e in quick_env if e.startswith("SCATTER_CPU_TEST_PATHS="))
    for term in CPU_SWITCHES:
        if term + "=" not in cpu_env:
            problems.append(f"SCATTER_CPU_TEST_PATHS={term}=N is set by no test of make test")

    for op in OPS:
        for dtype in DTYPES:
            name = f"vulkan.AllOpsAllDtypes/Sweep.BitwiseEqualToCpu/{op}_{dtype}"
            # gtest_discover_tests appends "  # GetParam() = ..." to a parameterized test's name.
            if not any(q == name or q.startswith(name + " ") for q in quick):
                problems.append(f"{name} is not in make test")

    for symbol in read("tests/unit/exported_symbols.txt").split():
        if re.search(r"\b%s\b" % re.escape(symbol), sources.replace(read("tests/unit/exported_symbols.txt"), "")) is None:
            problems.append(f"the exported function {symbol} is called by no test")
    for status in re.findall(r"X\((SCATTER_(?:OK|ERROR_[A-Z_]+)),", read("include/scatter/scatter.h")):
        if status == "SCATTER_OK":
            continue
        if len(re.findall(r"\b%s\b" % status, sources)) < 2:
            problems.append(f"the status {status} is provoked by no test")

    for name in long_tests:
        if name + "_quick" not in quick and name not in COVERED_BY:
            problems.append(f"the long test {name} has no quick twin ({name}_quick) and no entry in COVERED_BY")

    for p in problems:
        print("check_test_tiers: " + p)
    print(f"check_test_tiers: {len(quick)} tests in make test, {len(long_tests)} in make test-long, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
