"""docs/cli.md stays in step with `scatter devices`: every feature name the program knows, every
JSON key it prints here and the shape of each text line it prints are in the manual.

    check_cli_doc.py --source DIR --cli PATH
"""
import argparse
import json
import os
import re
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True)
    parser.add_argument("--cli", required=True)
    args = parser.parse_args()
    with open(os.path.join(args.source, "docs", "cli.md"), encoding="utf-8") as f:
        doc = f.read()
    with open(os.path.join(args.source, "tools", "devices_command.cpp"), encoding="utf-8") as f:
        source = f.read()
    section = doc[doc.index("## `scatter devices`"):doc.index("## `scatter version`")]
    failures = []

    for name in re.findall(r'\{SCATTER_FEATURE_\w+, "(\w+)"\}', source):
        if name not in section:
            failures.append(f"feature name {name} (tools/devices_command.cpp) is not in docs/cli.md")
    for name in re.findall(r'return "([a-zA-Z ]+)";', source):
        if f"`{name}`" not in section:
            failures.append(f"device type `{name}` is not in docs/cli.md")

    text = subprocess.run([args.cli, "devices"], capture_output=True, text=True, check=True).stdout
    shapes = {r"^(cpu|vulkan) \d+: .* \(.*\)$": "`BACKEND INDEX: NAME (TYPE)`",
              r"^  hardware threads: \d+$": "`hardware threads: N`",
              r"^  vulkan api: \d+\.\d+\.\d+, vendor 0x[0-9a-f]+, device 0x[0-9a-f]+$": "`vulkan api:",
              r"^  subgroup size: \d+$": "`subgroup size: N`",
              r"^  features: .+$": "`features:`",
              r"^  max buffer range: (unlimited|\d+ bytes)$": "`max buffer range:`",
              r"^vulkan: unavailable: \S+: .+$": "`vulkan: unavailable: STATUS: reason`"}
    for line in text.splitlines():
        documented = [words for pattern, words in shapes.items() if re.match(pattern, line)]
        if not documented:
            failures.append(f"`scatter devices` printed a line of no documented form: {line!r}")
        elif documented[0] not in section:
            failures.append(f"docs/cli.md does not describe {documented[0]}")

    rows = subprocess.run([args.cli, "devices", "--json"], capture_output=True, text=True,
                          check=True).stdout.splitlines()
    for row in rows:
        for key in json.loads(row):
            if f"`{key}`" not in section:
                failures.append(f"JSON key `{key}` of `scatter devices --json` is not in docs/cli.md")

    for failure in failures:
        print("FAILED " + failure)
    print(f"docs/cli.md against `scatter devices`: {len(text.splitlines())} text lines, {len(rows)} JSON rows, "
          f"{len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
