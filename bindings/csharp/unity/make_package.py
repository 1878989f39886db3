#!/usr/bin/env python3
"""Assembles the Unity package com.libscatter.scatter from the template beside this script, the
binding's sources and the native libraries given.

    make_package.py --out DIR [--library RID=FILE ...] [--tgz]

The repository keeps one copy of the code, bindings/csharp/src; the template
(com.libscatter.scatter/: package.json, Runtime/LibScatter.asmdef, README.md) holds no C#. This
script writes DIR/com.libscatter.scatter with:
  Runtime/*.cs               copied from bindings/csharp/src
  Plugins/x86_64/libscatter.so   for --library linux-x64=FILE
  Plugins/x86_64/scatter.dll     for --library win-x64=FILE
  Plugins/macOS/libscatter.dylib for --library osx-x64=FILE, osx-arm64=FILE or osx=FILE (universal)
  LICENSE.md                 the repository's LICENSE
and a .meta file for every file and folder: Unity ignores assets without one in an immutable
(registry, git or tarball) package. GUIDs are derived from the package name and path, so they
stay the same from build to build. Plugin .meta files enable each library for its own editor and
standalone player only. --tgz also writes DIR/com.libscatter.scatter-VERSION.tgz (the npm layout
"Add package from tarball" reads). Prints the package folder.
"""
import argparse
import hashlib
import json
import os
import shutil
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
TEMPLATE = os.path.join(HERE, "com.libscatter.scatter")
SOURCES = os.path.join(HERE, "..", "src")
LICENSE = os.path.join(HERE, "..", "..", "..", "LICENSE")

# RID -> (folder under Plugins, file name, editor OS, standalone target, CPU)
PLUGINS = {
    "linux-x64": ("x86_64", "libscatter.so", "Linux", "Linux64", "x86_64"),
    "win-x64": ("x86_64", "scatter.dll", "Windows", "Win64", "x86_64"),
    "osx-x64": ("macOS", "libscatter.dylib", "OSX", "OSXUniversal", "x86_64"),
    "osx-arm64": ("macOS", "libscatter.dylib", "OSX", "OSXUniversal", "ARM64"),
    "osx": ("macOS", "libscatter.dylib", "OSX", "OSXUniversal", "AnyCPU"),
}
STANDALONE_EXCLUDES = {"Linux64": "Exclude Linux64", "OSXUniversal": "Exclude OSXUniversal", "Win64": "Exclude Win64"}

FOOTER = "  userData: \n  assetBundleName: \n  assetBundleVariant: \n"


def guid(package, relative):
    return hashlib.md5(f"{package}/{relative}".encode()).hexdigest()


def importer_meta(relative, package):
    """The .meta of a folder or a non-plugin file."""
    head = f"fileFormatVersion: 2\nguid: {guid(package, relative)}\n"
    name = os.path.basename(relative)
    if relative.endswith("/"):
        return head + "folderAsset: yes\nDefaultImporter:\n  externalObjects: {}\n" + FOOTER
    if name.endswith(".cs"):
        return head + ("MonoImporter:\n  externalObjects: {}\n  serializedVersion: 2\n  defaultReferences: []\n"
                       "  executionOrder: 0\n  icon: {instanceID: 0}\n") + FOOTER
    if name.endswith(".asmdef"):
        return head + "AssemblyDefinitionImporter:\n  externalObjects: {}\n" + FOOTER
    if name == "package.json":
        return head + "PackageManifestImporter:\n  externalObjects: {}\n" + FOOTER
    return head + "TextScriptImporter:\n  externalObjects: {}\n" + FOOTER


def plugin_meta(relative, package, editor_os, standalone, cpu):
    """A PluginImporter enabling the library for one editor OS and one standalone player."""
    excludes = "".join(f"        {flag}: {0 if target == standalone else 1}\n"
                       for target, flag in sorted(STANDALONE_EXCLUDES.items()))
    players = "".join(
        f"  - first:\n      Standalone: {target}\n    second:\n      enabled: {1 if target == standalone else 0}\n"
        f"      settings:\n        CPU: {cpu if target == standalone else 'None'}\n"
        for target in sorted(STANDALONE_EXCLUDES))
    return (f"fileFormatVersion: 2\nguid: {guid(package, relative)}\nPluginImporter:\n"
            "  externalObjects: {}\n  serializedVersion: 2\n  iconMap: {}\n  executionOrder: {}\n"
            "  defineConstraints: []\n  isPreloaded: 0\n  isOverridable: 0\n  isExplicitlyReferenced: 0\n"
            "  validateReferences: 1\n  platformData:\n"
            "  - first:\n      : Any\n    second:\n      enabled: 0\n      settings:\n"
            "        Exclude Editor: 0\n" + excludes +
            "  - first:\n      Any: \n    second:\n      enabled: 0\n      settings: {}\n"
            "  - first:\n      Editor: Editor\n    second:\n      enabled: 1\n      settings:\n"
            f"        CPU: {cpu}\n        DefaultValueInitialized: true\n        OS: {editor_os}\n" +
            players + FOOTER)


def write(path, text):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--library", action="append", default=[], metavar="RID=FILE",
                        help="a native library: " + ", ".join(sorted(PLUGINS)))
    parser.add_argument("--tgz", action="store_true")
    args = parser.parse_args()

    with open(os.path.join(TEMPLATE, "package.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    package = manifest["name"]
    root = os.path.join(os.path.abspath(args.out), package)
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(TEMPLATE, root)
    runtime = os.path.join(root, "Runtime")
    for name in sorted(os.listdir(SOURCES)):
        if name.endswith(".cs"):
            shutil.copyfile(os.path.join(SOURCES, name), os.path.join(runtime, name))
    shutil.copyfile(LICENSE, os.path.join(root, "LICENSE.md"))

    plugins = {}
    for item in args.library:
        rid, _, path = item.partition("=")
        if rid not in PLUGINS or not path:
            raise SystemExit(f"make_package.py: --library wants RID=FILE with RID one of {sorted(PLUGINS)}: {item}")
        if not os.path.isfile(path):
            raise SystemExit(f"make_package.py: no library {path}")
        folder, name, editor_os, standalone, cpu = PLUGINS[rid]
        relative = f"Plugins/{folder}/{name}"
        if relative in plugins:
            raise SystemExit(f"make_package.py: two libraries for {relative}")
        os.makedirs(os.path.join(root, "Plugins", folder), exist_ok=True)
        shutil.copyfile(path, os.path.join(root, relative))  # follows symlinks
        plugins[relative] = (editor_os, standalone, cpu)

    for directory, folders, files in os.walk(root):
        for name in folders + files:
            if name.endswith(".meta"):
                continue
            path = os.path.join(directory, name)
            relative = os.path.relpath(path, root).replace(os.sep, "/")
            if relative in plugins:
                text = plugin_meta(relative, package, *plugins[relative])
            else:
                text = importer_meta(relative + ("/" if os.path.isdir(path) else ""), package)
            write(path + ".meta", text)

    if args.tgz:
        tarball = os.path.join(os.path.abspath(args.out), f"{package}-{manifest['version']}.tgz")
        with tarfile.open(tarball, "w:gz") as tar:
            tar.add(root, arcname="package")
    print(root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
