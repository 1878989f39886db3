#!/bin/sh
# Packs the C# binding as a NuGet package with Debian's nuget 2.8.7 (mono); offline.
#   pack.sh <libscatter.so> <out dir> [RID=FILE ...]
# The first library is this machine's (runtimes/linux-x64 or linux-arm64); each RID=FILE adds
# another runtime, e.g. win-x64=build-mingw/src/scatter.dll osx-arm64=libscatter.dylib (packed
# under the name DllImport("scatter") looks for there: scatter.dll, libscatter.dylib). Only the
# runtimes given are packed. LibScatter.dll is built here by Mono's mcs from src/*.cs and goes into
# lib/netstandard2.1: it is a .NET Framework 4.x assembly (it references mscorlib, not
# netstandard.dll), which .NET Core 3+/.NET 5+, Mono and Unity load; `dotnet pack` of
# LibScatter.csproj makes a true netstandard2.1 one where a .NET SDK exists.
# Prints the path of the .nupkg. MCS and NUGET override the tools.
set -eu
if [ $# -lt 2 ]; then
  echo "usage: pack.sh <libscatter.so> <out dir> [RID=FILE ...]" >&2
  exit 2
fi
library=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mcs=${MCS:-mcs} nuget=${NUGET:-nuget}
for tool in "$mcs" "$nuget"; do
  command -v "$tool" >/dev/null || { echo "pack.sh: $tool not found (Debian: mono-mcs, nuget)" >&2; exit 1; }
done
[ -f "$library" ] || { echo "pack.sh: no library $library" >&2; exit 1; }

case "$(uname -m)" in
  x86_64|amd64) host_rid=linux-x64 ;;
  aarch64|arm64) host_rid=linux-arm64 ;;
  *) echo "pack.sh: no NuGet runtime identifier for $(uname -m)" >&2; exit 1 ;;
esac

mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$out/stage
rm -rf "$stage"
mkdir -p "$stage/lib/netstandard2.1"

# The library of each runtime, under the file name DllImport("scatter") asks for there.
add_runtime() { # RID FILE
  case "$1" in
    win-*) name=scatter.dll ;;
    osx-*) name=libscatter.dylib ;;
    linux-*) name=libscatter.so ;;
    *) echo "pack.sh: unknown runtime identifier $1" >&2; exit 1 ;;
  esac
  [ -f "$2" ] || { echo "pack.sh: no library $2 for $1" >&2; exit 1; }
  mkdir -p "$stage/runtimes/$1/native"
  cp -L "$2" "$stage/runtimes/$1/native/$name"
}
add_runtime "$host_rid" "$library"
for arg in "$@"; do
  case "$arg" in
    *=*) add_runtime "${arg%%=*}" "${arg#*=}" ;;
    *) echo "pack.sh: expected RID=FILE, got $arg" >&2; exit 2 ;;
  esac
done

"$mcs" -nologo -warnaserror+ -unsafe -optimize+ -nowarn:1591 -r:System.Numerics.dll -target:library \
  -out:"$stage/lib/netstandard2.1/LibScatter.dll" -doc:"$stage/lib/netstandard2.1/LibScatter.xml" "$here"/src/*.cs
cp "$here/../../LICENSE" "$stage/LICENSE.txt"
cp "$here/README.md" "$stage/README.md"

# nuget keeps its settings under $HOME: give it a scratch one.
HOME="$out/.nuget-home" "$nuget" pack "$here/LibScatter.nuspec" -BasePath "$stage" -OutputDirectory "$out" \
  -NonInteractive -NoPackageAnalysis -Verbosity quiet >&2
version=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' "$here/LibScatter.nuspec")
package="$out/LibScatter.$version.nupkg"
[ -f "$package" ] || { echo "pack.sh: nuget made no $package" >&2; exit 1; }
echo "$package"
