"""The version is set once, by project(VERSION) in CMakeLists.txt; everything else that states it
must agree: the header's SCATTER_VERSION_* macros, the Python, Rust, C# and JavaScript manifests,
CHANGELOG.md, the library's scatter_version()/scatter_version_string() and `scatter version`.
Every manifest also names the MIT licence of LICENSE.

    check_version.py --version X.Y.Z --source DIR --cli PATH --library PATH
"""
import argparse
import ctypes
import json
import os
import re
import subprocess
import sys

failures = []


def check(condition, what):
    print(("ok     " if condition else "FAILED ") + what)
    if not condition:
        failures.append(what)


def read(source, path):
    with open(os.path.join(source, path), encoding="utf-8") as f:
        return f.read()


def first(pattern, text, what):
    match = re.search(pattern, text, re.MULTILINE)
    if match is None:
        failures.append(f"{what}: no match for {pattern}")
        return None
    return match.group(1)


def main():
    parser = argparse.ArgumentParser()
    for name in ("--version", "--source", "--cli", "--library"):
        parser.add_argument(name, required=True)
    args = parser.parse_args()
    version, source = args.version, args.source
    major, minor, patch = (int(p) for p in version.split("."))

    cmake = read(source, "CMakeLists.txt")
    check(first(r"^project\(scatter VERSION ([0-9.]+)", cmake, "CMakeLists.txt") == version,
          f"CMakeLists.txt project VERSION is {version}")

    header = read(source, "include/scatter/scatter.h")
    macros = tuple(int(first(rf"^#define SCATTER_VERSION_{part} ([0-9]+)", header, "scatter.h") or -1)
                   for part in ("MAJOR", "MINOR", "PATCH"))
    check(macros == (major, minor, patch), f"scatter.h SCATTER_VERSION_MAJOR/MINOR/PATCH {macros}")

    pyproject = read(source, "bindings/python/pyproject.toml")
    check(first(r'^version = "([^"]+)"', pyproject, "pyproject.toml") == version,
          "bindings/python/pyproject.toml version")
    check(re.search(r'^license = \{text = "MIT"\}', pyproject, re.MULTILINE) is not None,
          "bindings/python/pyproject.toml names the MIT licence")

    lock = read(source, "bindings/rust/Cargo.lock")
    for crate in ("scatter", "scatter-sys"):
        cargo = read(source, f"bindings/rust/{crate}/Cargo.toml")
        check(first(r'^version = "([^"]+)"', cargo, f"{crate}/Cargo.toml") == version,
              f"bindings/rust/{crate}/Cargo.toml version")
        check(re.search(r'^license = "MIT"', cargo, re.MULTILINE) is not None,
              f"bindings/rust/{crate}/Cargo.toml names the MIT licence")
        check(first(rf'^name = "{crate}"\nversion = "([^"]+)"', lock, "Cargo.lock") == version,
              f"bindings/rust/Cargo.lock version of {crate}")
    cargo = read(source, "bindings/rust/scatter/Cargo.toml")
    check(first(r'^scatter-sys = \{ version = "([^"]+)"', cargo, "scatter/Cargo.toml") == version,
          "bindings/rust/scatter/Cargo.toml: the scatter-sys version it depends on")

    assembly = read(source, "bindings/csharp/src/AssemblyInfo.cs")
    check(first(r'AssemblyVersion\("([^"]+)"\)', assembly, "AssemblyInfo.cs") == version,
          "bindings/csharp AssemblyVersion")
    check(first(r'AssemblyInformationalVersion\("([^"]+)"\)', assembly, "AssemblyInfo.cs") == version,
          "bindings/csharp AssemblyInformationalVersion")
    check("MIT License" in assembly, "bindings/csharp AssemblyCopyright names the MIT licence")
    native = read(source, "bindings/csharp/src/Native.cs")
    check(first(r"public const uint VersionMajor = ([0-9]+);", native, "Native.cs") == str(major),
          "bindings/csharp Native.VersionMajor")
    csproj = read(source, "bindings/csharp/LibScatter.csproj")
    check(first(r"<Version>([^<]+)</Version>", csproj, "LibScatter.csproj") == version,
          "bindings/csharp/LibScatter.csproj Version")
    check("<PackageLicenseExpression>MIT</PackageLicenseExpression>" in csproj,
          "bindings/csharp/LibScatter.csproj names the MIT licence")
    nuspec = read(source, "bindings/csharp/LibScatter.nuspec")
    check(first(r"<version>([^<]+)</version>", nuspec, "LibScatter.nuspec") == version,
          "bindings/csharp/LibScatter.nuspec version")
    check("<licenseUrl>https://licenses.nuget.org/MIT</licenseUrl>" in nuspec,
          "bindings/csharp/LibScatter.nuspec names the MIT licence")
    unity = read(source, "bindings/csharp/unity/com.libscatter.scatter/package.json")
    check(first(r'^  "version": "([^"]+)"', unity, "Unity package.json") == version,
          "bindings/csharp/unity package.json version")
    check(re.search(r'^  "license": "MIT"', unity, re.MULTILINE) is not None,
          "bindings/csharp/unity package.json names the MIT licence")
    rust_lib = read(source, "bindings/rust/scatter-sys/src/lib.rs")
    rust_major = first(r"VERSION_MAJOR: u32 = ([0-9]+);", rust_lib, "scatter-sys")
    check(rust_major == str(major), "bindings/rust scatter_sys::SCATTER_VERSION_MAJOR")

    python_library = read(source, "bindings/python/scatter/_library.py")
    check(first(r"^BINDING_MAJOR = ([0-9]+)", python_library, "_library.py") == str(major),
          "bindings/python BINDING_MAJOR")

    js_package = json.loads(read(source, "bindings/js/package.json"))
    check(js_package.get("version") == version, "bindings/js/package.json version")
    check(js_package.get("license") == "MIT", "bindings/js/package.json names the MIT licence")
    js_library = read(source, "bindings/js/lib/library.js")
    check(first(r"^const BINDING_MAJOR = ([0-9]+);", js_library, "library.js") == str(major),
          "bindings/js BINDING_MAJOR")

    licence = read(source, "LICENSE")
    check(licence.startswith("MIT License"), "LICENSE is the MIT licence")
    changelog = read(source, "CHANGELOG.md")
    check(re.search(rf"^## {re.escape(version)}\b", changelog, re.MULTILINE) is not None,
          f"CHANGELOG.md has a section for {version}")

    lib = ctypes.CDLL(args.library)
    lib.scatter_version.restype = ctypes.c_uint32
    lib.scatter_version_string.restype = ctypes.c_char_p
    packed = lib.scatter_version()
    check((packed >> 22, (packed >> 12) & 0x3FF, packed & 0xFFF) == (major, minor, patch),
          f"scatter_version() = {packed:#x}")
    check(lib.scatter_version_string().decode() == version, "scatter_version_string()")

    printed = subprocess.run([args.cli, "version"], capture_output=True, text=True, check=True).stdout.strip()
    check(printed == version, f"`scatter version` prints {printed!r}")

    if failures:
        print(f"{len(failures)} version checks failed against CMakeLists.txt's {version}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
