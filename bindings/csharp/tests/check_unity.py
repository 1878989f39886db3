"""Structural check of the Unity package (no Unity here): make_package.py assembles it with the
library of this build, then the manifest, the assembly definition, the sources, the plugin and
every .meta file are checked, and Runtime/ is compiled with mcs as Unity would (UNITY_5_3_OR_NEWER
defined, unsafe code allowed; once more with UNITY_IOS for the iOS branch).

    check_unity.py --library PATH --work DIR [--mcs PATH]

Exits 77 (skipped) when mcs is missing, 1 instead under SCATTER_TEST_REQUIRE_CSHARP=1.
"""
import argparse
import filecmp
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import xml.etree.ElementTree as ElementTree

HERE = os.path.dirname(os.path.abspath(__file__))
CSHARP = os.path.dirname(HERE)
TEMPLATE = os.path.join(CSHARP, "unity", "com.libscatter.scatter")
SOURCES = os.path.join(CSHARP, "src")

failures = []


def check(condition, what):
    print(("ok     " if condition else "FAILED ") + what)
    if not condition:
        failures.append(what)


def load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        check(False, f"{path} is valid JSON: {e}")
        return {}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--library", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--mcs", default=shutil.which("mcs"))
    args = parser.parse_args()
    if not args.mcs or not os.path.exists(args.mcs):
        print("check_unity.py: mcs not found (Debian: mono-mcs)")
        return 1 if os.environ.get("SCATTER_TEST_REQUIRE_CSHARP") == "1" else 77

    # The repository keeps the code once: no C# in the template.
    template_code = [os.path.join(d, f) for d, _, files in os.walk(TEMPLATE) for f in files if f.endswith(".cs")]
    check(not template_code, f"the template holds no C# (src/ is the only copy): {template_code}")

    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    proc = subprocess.run([sys.executable, os.path.join(CSHARP, "unity", "make_package.py"), "--out", args.work,
                           "--library", f"linux-x64={args.library}", "--tgz"],
                          capture_output=True, text=True)
    sys.stdout.write(proc.stdout + proc.stderr)
    if proc.returncode != 0:
        check(False, f"make_package.py exited with {proc.returncode}")
        return 1
    root = proc.stdout.strip().splitlines()[-1]

    # package.json
    manifest = load_json(os.path.join(root, "package.json"))
    check(re.fullmatch(r"com\.[a-z0-9-]+\.[a-z0-9.-]+", manifest.get("name", "")) is not None and len(manifest["name"]) <= 214,
          f"package.json name {manifest.get('name')!r} is a lowercase reverse-domain name")
    check(os.path.basename(root) == manifest.get("name"), "the package folder is named after the package")
    with open(os.path.join(CSHARP, "src", "AssemblyInfo.cs"), encoding="utf-8") as f:
        assembly_version = re.search(r'AssemblyVersion\("([^"]+)"\)', f.read()).group(1)
    check(manifest.get("version") == assembly_version, f"package.json version {manifest.get('version')} "
                                                        f"is the assembly's {assembly_version}")
    check(re.fullmatch(r"20\d\d\.\d", manifest.get("unity", "")) is not None and manifest["unity"] == "2021.3",
          f"package.json unity {manifest.get('unity')!r}")
    for field in ("displayName", "description"):
        check(isinstance(manifest.get(field), str) and manifest[field].strip() != "", f"package.json {field}")
    check(manifest.get("license") == "MIT", "package.json license MIT")

    # The assembly definition: named like the assembly everywhere else.
    asmdef_path = os.path.join(root, "Runtime", "LibScatter.asmdef")
    asmdef = load_json(asmdef_path)
    csproj = ElementTree.parse(os.path.join(CSHARP, "LibScatter.csproj")).getroot()
    assembly_name = csproj.findtext("PropertyGroup/AssemblyName")
    check(asmdef.get("name") == assembly_name == "LibScatter" and
          os.path.splitext(os.path.basename(asmdef_path))[0] == asmdef.get("name"),
          f"asmdef name {asmdef.get('name')!r} = file name = csproj AssemblyName {assembly_name!r}")
    check(asmdef.get("allowUnsafeCode") is True, "asmdef allows unsafe code (spans are pinned with fixed)")
    check(asmdef.get("rootNamespace") == "LibScatter", "asmdef rootNamespace LibScatter")
    check(asmdef.get("noEngineReferences") is True, "asmdef needs no UnityEngine")
    for field in ("references", "includePlatforms", "excludePlatforms", "precompiledReferences", "defineConstraints"):
        check(isinstance(asmdef.get(field), list), f"asmdef {field} is a list")

    # Runtime/: exactly the binding's sources, unchanged.
    sources = sorted(f for f in os.listdir(SOURCES) if f.endswith(".cs"))
    runtime = os.path.join(root, "Runtime")
    runtime_code = sorted(f for f in os.listdir(runtime) if f.endswith(".cs"))
    check(sources and runtime_code == sources, f"Runtime/ holds exactly src/*.cs: {runtime_code}")
    for name in sources:
        path = os.path.join(runtime, name)
        check(os.path.isfile(path) and filecmp.cmp(path, os.path.join(SOURCES, name), shallow=False),
              f"Runtime/{name} exists and is src/{name}")

    # The plugin of this build, enabled for the Linux editor and player only.
    plugin = os.path.join(root, "Plugins", "x86_64", "libscatter.so")
    check(os.path.isfile(plugin) and filecmp.cmp(plugin, args.library, shallow=False),
          "Plugins/x86_64/libscatter.so is the library of this build")
    with open(plugin + ".meta", encoding="utf-8") as f:
        meta = f.read()
    check("PluginImporter:" in meta and "OS: Linux" in meta and "Exclude Linux64: 0" in meta and
          "Exclude Win64: 1" in meta and "Exclude OSXUniversal: 1" in meta and
          re.search(r"Standalone: Linux64\n    second:\n      enabled: 1", meta) is not None,
          "libscatter.so.meta enables it for the Linux editor and player only")

    for name in ("README.md", "LICENSE.md"):
        check(os.path.isfile(os.path.join(root, name)), f"{name} in the package")
    with open(os.path.join(root, "LICENSE.md"), encoding="utf-8") as f:
        check(f.read().startswith("MIT License"), "LICENSE.md is the MIT licence")

    # Every file and folder has a .meta with a unique GUID; no .meta without its asset.
    guids = {}
    for directory, folders, files in os.walk(root):
        for name in folders + files:
            path = os.path.join(directory, name)
            relative = os.path.relpath(path, root)
            if name.endswith(".meta"):
                check(os.path.exists(path[:-5]), f"{relative} has its asset")
                continue
            meta_path = path + ".meta"
            if not os.path.isfile(meta_path):
                check(False, f"{relative} has a .meta file")
                continue
            with open(meta_path, encoding="utf-8") as f:
                text = f.read()
            match = re.search(r"^guid: ([0-9a-f]{32})$", text, re.MULTILINE)
            check(text.startswith("fileFormatVersion: 2\n") and match is not None, f"{relative}.meta is well formed")
            if match:
                check(match.group(1) not in guids, f"{relative}.meta GUID is unique")
                guids[match.group(1)] = relative
            if os.path.isdir(path):
                check("folderAsset: yes" in text, f"{relative}.meta marks a folder")

    # The tarball has the npm layout.
    tarball = os.path.join(args.work, f"{manifest.get('name')}-{manifest.get('version')}.tgz")
    with tarfile.open(tarball) as tar:
        names = tar.getnames()
    check("package/package.json" in names and "package/Runtime/LibScatter.asmdef" in names and
          "package/Plugins/x86_64/libscatter.so" in names, f"{os.path.basename(tarball)} holds package/...")

    # Runtime/ compiles as Unity compiles it.
    code = [os.path.join(runtime, name) for name in runtime_code]
    for defines in ("UNITY_5_3_OR_NEWER", "UNITY_5_3_OR_NEWER;UNITY_IOS"):
        out = os.path.join(args.work, "LibScatter-" + defines.replace(";", "-") + ".dll")
        proc = subprocess.run([args.mcs, "-nologo", "-warnaserror+", "-unsafe", f"-define:{defines}",
                               "-r:System.Numerics.dll", "-target:library", f"-out:{out}"] + code,
                              capture_output=True, text=True)
        sys.stdout.write(proc.stdout + proc.stderr)
        check(proc.returncode == 0, f"Runtime/*.cs compiles with {defines}")

    if failures:
        print(f"{len(failures)} Unity package checks failed")
        return 1
    print(f"Unity package {root}: structure checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
