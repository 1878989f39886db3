"""The C# binding as a newcomer meets it: the README's C# section and the project files.

- README.md: the ```sh block of the "### C#" section is run as written (it compiles
  LibScatter.dll from bindings/csharp/src and App.cs with mcs and runs `mono App.exe` with
  SCATTER_LIBRARY, no LD_LIBRARY_PATH), with App.cs the block after `<!-- readme-test: csharp -->`;
  what it prints must be the block after `<!-- readme-test: csharp output -->`. The snippet is
  also compiled against the LibScatter.dll of the build (--assembly).
- LibScatter.csproj (no .NET SDK here to build it): well-formed SDK-style XML, netstandard2.1, a
  C# version mcs has (7.2), unsafe blocks allowed, compiling exactly src/*.cs, the assembly's name
  and version; LibScatter.nuspec: well-formed, id, version, licence, the files pack.sh lays out.

    check_project.py --source DIR --work DIR --library PATH --assembly PATH [--mcs PATH] [--mono PATH]

Exits 77 (skipped) when mcs or mono is missing, 1 instead under SCATTER_TEST_REQUIRE_CSHARP=1.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

BLOCK = re.compile(r"<!-- readme-test: (\w+)( output)? -->\n```[a-z]*\n(.*?)```", re.DOTALL)
NUSPEC_NS = "{http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd}"

failures = []


def check(condition, what):
    print(("ok     " if condition else "FAILED ") + what)
    if not condition:
        failures.append(what)


def csharp_section(readme):
    start = readme.index("\n### C#\n")
    end = readme.find("\n## ", start + 1)
    following = readme.find("\n### ", start + 1)
    ends = [e for e in (end, following) if e > 0]
    return readme[start:min(ends) if ends else len(readme)]


def check_readme(args, env):
    with open(os.path.join(args.source, "README.md"), encoding="utf-8") as f:
        section = csharp_section(f.read())
    blocks = {(kind, bool(output)): body for kind, output, body in BLOCK.findall(section)}
    code, expected = blocks.get(("csharp", False)), blocks.get(("csharp", True))
    check(code is not None and expected is not None,
          "README's C# section has <!-- readme-test: csharp --> and <!-- readme-test: csharp output --> blocks")
    commands = re.search(r"```sh\n(.*?)```\n<!-- readme-test: csharp -->", section, re.DOTALL)
    check(commands is not None, "README's C# section has the ```sh block right before the snippet")
    if code is None or expected is None or commands is None:
        return
    check("static void Main" in code or "static int Main" in code, "the snippet is a program with Main (mcs has no "
                                                                      "top-level statements)")

    # As written: in a folder where bindings/ and build/src/libscatter.so are the tree's.
    work = os.path.join(args.work, "readme")
    os.makedirs(os.path.join(work, "build", "src"))
    os.symlink(os.path.join(os.path.abspath(args.source), "bindings"), os.path.join(work, "bindings"))
    os.symlink(os.path.abspath(args.library), os.path.join(work, "build", "src", "libscatter.so"))
    with open(os.path.join(work, "App.cs"), "w", encoding="utf-8") as f:
        f.write(code)
    path = os.pathsep.join([os.path.dirname(args.mcs), os.path.dirname(args.mono), env.get("PATH", "")])
    print("$ " + commands.group(1).strip().replace("\n", "\n$ "))
    proc = subprocess.run(["bash", "-euo", "pipefail", "-c", commands.group(1)], cwd=work,
                          env=dict(env, PATH=path), capture_output=True, text=True)
    sys.stdout.write(proc.stdout + proc.stderr)
    check(proc.returncode == 0, f"the README's commands ran (exit status {proc.returncode})")
    same = proc.stdout.strip() == expected.strip()
    check(same, "the snippet printed what the README shows" + ("" if same else f":\n{proc.stdout}\nREADME:\n{expected}"))

    # Against the build's LibScatter.dll too.
    built = os.path.join(args.work, "built")
    os.makedirs(built)
    shutil.copy(args.assembly, built)
    proc = subprocess.run([args.mcs, "-nologo", "-warnaserror+", f"-r:{args.assembly}",
                           f"-out:{os.path.join(built, 'App.exe')}", os.path.join(work, "App.cs")],
                          capture_output=True, text=True)
    sys.stdout.write(proc.stdout + proc.stderr)
    check(proc.returncode == 0, "the snippet compiles against the build's LibScatter.dll")
    if proc.returncode == 0:
        proc = subprocess.run([args.mono, os.path.join(built, "App.exe")],
                              env=dict(env, SCATTER_LIBRARY=os.path.abspath(args.library)),
                              capture_output=True, text=True)
        same = proc.returncode == 0 and proc.stdout.strip() == expected.strip()
        check(same, "with the build's LibScatter.dll it prints what the README shows" +
              ("" if same else f":\n{proc.stdout}{proc.stderr}"))


def check_project_files(args):
    csharp = os.path.join(args.source, "bindings", "csharp")
    with open(os.path.join(csharp, "src", "AssemblyInfo.cs"), encoding="utf-8") as f:
        version = re.search(r'AssemblyVersion\("([^"]+)"\)', f.read()).group(1)
    sources = sorted(os.path.relpath(p, csharp) for p in glob.glob(os.path.join(csharp, "src", "*.cs")))

    try:
        project = ElementTree.parse(os.path.join(csharp, "LibScatter.csproj")).getroot()
    except ElementTree.ParseError as e:
        check(False, f"LibScatter.csproj is well-formed XML: {e}")
        return
    check(project.tag == "Project" and project.get("Sdk") == "Microsoft.NET.Sdk", "LibScatter.csproj is SDK-style")
    prop = {child.tag: (child.text or "").strip() for group in project.findall("PropertyGroup") for child in group}
    check(prop.get("TargetFramework") == "netstandard2.1", f"TargetFramework {prop.get('TargetFramework')}")
    check(prop.get("LangVersion") == "7.2", f"LangVersion {prop.get('LangVersion')} (the most mcs compiles)")
    check(prop.get("AllowUnsafeBlocks") == "true", "AllowUnsafeBlocks (spans are pinned with fixed)")
    check(prop.get("AssemblyName") == "LibScatter", "AssemblyName LibScatter")
    check(prop.get("Version") == version, f"Version {prop.get('Version')} is AssemblyInfo.cs's {version}")
    check(prop.get("GenerateAssemblyInfo") == "false", "GenerateAssemblyInfo false (AssemblyInfo.cs has them)")
    check(prop.get("PackageLicenseExpression") == "MIT", "PackageLicenseExpression MIT")
    check(prop.get("EnableDefaultCompileItems") == "false",
          "EnableDefaultCompileItems false (tests/ and unity/ hold .cs files that are not the library's)")
    compiled = set()
    for item in project.iter("Compile"):
        for pattern in (item.get("Include") or "").split(";"):
            compiled.update(os.path.relpath(p, csharp) for p in glob.glob(os.path.join(csharp, pattern)))
    check(sorted(compiled) == sources and sources, f"the project compiles exactly src/*.cs: {sorted(compiled)}")

    try:
        nuspec = ElementTree.parse(os.path.join(csharp, "LibScatter.nuspec")).getroot()
    except ElementTree.ParseError as e:
        check(False, f"LibScatter.nuspec is well-formed XML: {e}")
        return
    meta = nuspec.find(NUSPEC_NS + "metadata")
    field = (lambda name: (meta.findtext(NUSPEC_NS + name) or "").strip()) if meta is not None else (lambda name: "")
    check(field("id") == "LibScatter", f"nuspec id {field('id')}")
    check(field("version") == version, f"nuspec version {field('version')} is {version}")
    check(field("licenseUrl") == "https://licenses.nuget.org/MIT", "nuspec names the MIT licence")
    check(field("authors") != "" and field("description") != "", "nuspec authors and description")
    targets = {(f.get("src"), f.get("target")) for f in nuspec.iter(NUSPEC_NS + "file")}
    for entry in (("lib/netstandard2.1/LibScatter.dll", "lib/netstandard2.1"), ("runtimes/**", "runtimes"),
                  ("LICENSE.txt", None)):
        check(entry in targets, f"nuspec packs {entry[0]}")


def main():
    parser = argparse.ArgumentParser()
    for name in ("--source", "--work", "--library", "--assembly"):
        parser.add_argument(name, required=True)
    parser.add_argument("--mcs", default=shutil.which("mcs"))
    parser.add_argument("--mono", default=shutil.which("mono"))
    args = parser.parse_args()
    if not args.mcs or not args.mono:
        print("check_project.py: mcs or mono not found (Debian: mono-mcs mono-runtime)")
        return 1 if os.environ.get("SCATTER_TEST_REQUIRE_CSHARP") == "1" else 77
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    env = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "SCATTER_LIBRARY")}
    check_project_files(args)
    check_readme(args, env)
    if failures:
        print(f"{len(failures)} checks of the C# project and README failed")
        return 1
    print("C# project files and README snippet checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
