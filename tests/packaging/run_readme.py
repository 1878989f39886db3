"""Runs the README's snippets and the quick start at the top of scatter.h, as a newcomer would.

A fenced block right after `<!-- readme-test: KIND -->` is run: `c` (compiled as C99 against
the built library), `cpp` (C++17, through scatter.hpp), `cli` (bash, with `scatter` on PATH, in
an empty directory), `python` (with the binding and the built library). A block after
`<!-- readme-test: KIND output -->` is what that snippet must print. Every kind must be present.
The other languages' blocks (`js`, `rust`, `csharp`) are run by their bindings' own tests
(`ctest -L bindings`), which need node, cargo and mono.

    run_readme.py --source DIR --work DIR --cli PATH --library PATH --cc CC --cxx CXX
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

KINDS = ("c", "cpp", "cli", "python")
BLOCK = re.compile(r"<!-- readme-test: (\w+)( output)? -->\n```[a-z]*\n(.*?)```", re.DOTALL)


def snippets(readme):
    code, output = {}, {}
    for kind, is_output, body in BLOCK.findall(readme):
        (output if is_output else code)[kind] = body
    return code, output


def quick_start(header):
    """The example under "## Quick start" in scatter.h's leading comment, as a program."""
    lines = header.split("\n")
    start = next(i for i, line in enumerate(lines) if line.strip() == "* ## Quick start")
    body = []
    for line in lines[start + 1:]:
        if not line.startswith(" *   "):
            if body:
                break
            continue
        body.append(line[len(" *   "):])
    return ("#include <scatter/scatter.h>\n#include <stdio.h>\n\nint main(void) {\n    " +
            "\n    ".join(body) + "\n    return 0;\n}\n")


def run(command, what, **kwargs):
    print("$ " + " ".join(command) if isinstance(command, list) else "$ " + command)
    proc = subprocess.run(command, capture_output=True, text=True, **kwargs)
    sys.stdout.write(proc.stdout)
    sys.stderr.write(proc.stderr)
    if proc.returncode != 0:
        raise SystemExit(f"FAILED: {what} exited with {proc.returncode}")
    return proc.stdout


def main():
    parser = argparse.ArgumentParser()
    for name in ("--source", "--work", "--cli", "--library", "--cc", "--cxx"):
        parser.add_argument(name, required=True)
    args = parser.parse_args()
    with open(os.path.join(args.source, "README.md"), encoding="utf-8") as f:
        code, expected = snippets(f.read())
    missing = [k for k in KINDS if k not in code]
    if missing:
        raise SystemExit(f"FAILED: README.md has no <!-- readme-test: ... --> block for {missing}")

    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    include = os.path.join(args.source, "include")
    lib_dir = os.path.dirname(os.path.abspath(args.library))
    link = [f"-L{lib_dir}", "-lscatter", f"-Wl,-rpath,{lib_dir}"]
    env = dict(os.environ)
    env.pop("LD_LIBRARY_PATH", None)
    outputs = {}

    def write(name, text):
        path = os.path.join(args.work, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    with open(os.path.join(include, "scatter", "scatter.h"), encoding="utf-8") as f:
        header_program = quick_start(f.read())
    exe = os.path.join(args.work, "quick_start")
    run([args.cc, "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", f"-I{include}",
         write("quick_start.c", header_program), "-o", exe] + link, "compiling scatter.h's quick start")
    run([exe], "scatter.h's quick start", env=env)

    exe = os.path.join(args.work, "readme_c")
    run([args.cc, "-std=c99", "-Wall", "-Wextra", "-Werror", f"-I{include}", write("readme.c", code["c"]),
         "-o", exe] + link, "compiling the C example")
    outputs["c"] = run([exe], "the C example", env=env)

    exe = os.path.join(args.work, "readme_cpp")
    run([args.cxx, "-std=c++17", "-Wall", "-Wextra", "-Werror", f"-I{include}",
         write("readme.cpp", code["cpp"]), "-o", exe] + link, "compiling the C++ example")
    outputs["cpp"] = run([exe], "the C++ example", env=env)

    cli_dir = os.path.join(args.work, "cli")
    os.makedirs(cli_dir)
    bin_dir = os.path.join(args.work, "bin")
    os.makedirs(bin_dir)
    os.symlink(os.path.abspath(args.cli), os.path.join(bin_dir, "scatter"))
    cli_env = dict(env, PATH=bin_dir + os.pathsep + os.path.dirname(sys.executable) + os.pathsep + env["PATH"])
    outputs["cli"] = run(["bash", "-euo", "pipefail", write("readme_cli.sh", code["cli"])], "the CLI example",
                         cwd=cli_dir, env=cli_env)

    py_env = dict(env, PYTHONPATH=os.path.join(args.source, "bindings", "python"),
                  SCATTER_LIBRARY=os.path.abspath(args.library))
    outputs["python"] = run([sys.executable, write("readme.py", code["python"])], "the Python example",
                            env=py_env)

    for kind, want in expected.items():
        if kind not in KINDS:
            continue  # csharp, rust: run by their bindings' own tests
        if outputs.get(kind, "").strip() != want.strip():
            raise SystemExit(f"FAILED: the {kind} example printed\n{outputs.get(kind)}\nbut the README says\n{want}")
    print(f"README: {', '.join(KINDS)} examples and scatter.h's quick start ran; "
          f"outputs of {', '.join(sorted(k for k in expected if k in KINDS))} as the README shows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
