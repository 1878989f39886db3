#!/bin/sh
# The NuGet package as a user gets it: pack.sh packs it, nuget installs it offline from a local
# folder, and a console application compiled against the package's LibScatter.dll runs under
# mono with no LD_LIBRARY_PATH, finding libscatter in the package's runtimes/<rid>/native (the
# assembly loaded from the package), in runtimes/<rid>/native beside the application (the .NET
# SDK's output layout) and beside the application; with nothing there, the DllNotFoundException
# lists every place looked at.
#   check_nuget.sh <python> <libscatter.so> <scratch dir>
# (python reads the .nupkg, a zip.) Exits 77 (skipped) when mcs, mono or nuget is missing, 1
# instead under SCATTER_TEST_REQUIRE_CSHARP=1.
set -eu
python=$1 library=$2 scratch=$3
here=$(cd "$(dirname "$0")" && pwd)
for tool in mcs mono nuget; do
  if ! command -v $tool >/dev/null; then
    echo "check_nuget.sh: $tool not found (Debian: mono-mcs mono-runtime nuget)"
    [ "${SCATTER_TEST_REQUIRE_CSHARP:-}" = 1 ] && exit 1
    exit 77
  fi
done
library=$(cd "$(dirname "$library")" && pwd)/$(basename "$library")
rm -rf "$scratch" && mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
failures=0
fail() { echo "FAILED: $*"; failures=$((failures + 1)); }

package=$(sh "$here/../pack.sh" "$library" "$scratch/dist")
echo "packed $package"
listing=$("$python" -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$package")
for entry in LibScatter.nuspec lib/netstandard2.1/LibScatter.dll lib/netstandard2.1/LibScatter.xml \
             runtimes/linux-x64/native/libscatter.so LICENSE.txt README.md; do
  case "$(uname -m)/$entry" in aarch64/runtimes/linux-x64/*|arm64/runtimes/linux-x64/*) entry=runtimes/linux-arm64/native/libscatter.so ;; esac
  printf '%s\n' "$listing" | grep -qx "$entry" || fail "the package has no $entry"
done
nuspec=$("$python" -c 'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read("LibScatter.nuspec").decode())' "$package")
for field in '<id>LibScatter</id>' '<version>0.1.0</version>' '<licenseUrl>https://licenses.nuget.org/MIT</licenseUrl>' \
             '<authors>the libscatter authors</authors>'; do
  printf '%s\n' "$nuspec" | grep -qF "$field" || fail "the packed nuspec lacks $field"
done

HOME="$scratch/home" nuget install LibScatter -Version 0.1.0 -Source "$scratch/dist" \
  -OutputDirectory "$scratch/packages" -NonInteractive
installed=$scratch/packages/LibScatter.0.1.0
rid=$(ls "$installed/runtimes")
native=$installed/runtimes/$rid/native/libscatter.so
[ -f "$native" ] || fail "nuget install left no $native"
cmp -s "$native" "$library" || fail "$native is not $library"

mkdir -p "$scratch/app"
mcs -nologo -warnaserror+ -r:"$installed/lib/netstandard2.1/LibScatter.dll" -out:"$scratch/app/PackageApp.exe" \
  "$here/PackageApp.cs"

# run_app NAME EXPECTED-LOADED-FROM [VAR=VALUE ...] APP: no LD_LIBRARY_PATH, no SCATTER_LIBRARY.
run_app() {
  name=$1 expected=$2
  shift 2
  status=0
  output=$(env -u LD_LIBRARY_PATH -u SCATTER_LIBRARY "$@" 2>&1) || status=$?
  echo "--- $name (exit status $status)"
  printf '%s\n' "$output"
  if [ "$expected" = not-found ]; then
    [ $status -eq 3 ] || fail "$name: exit status $status, expected 3 (DllNotFoundException)"
    return
  fi
  [ $status -eq 0 ] || fail "$name: exit status $status"
  for line in "result 0 2 0 1" "loaded: $expected" "backend Cpu" "span 90 100 3 4 70 80" "device 0 Cpu"; do
    printf '%s\n' "$output" | grep -qxF "$line" || fail "$name: no line \"$line\""
  done
}

# 1. LibScatter.dll loaded from the installed package (MONO_PATH): ../../runtimes/<rid>/native.
run_app "assembly in the package" "$native" MONO_PATH="$installed/lib/netstandard2.1" mono "$scratch/app/PackageApp.exe"

# 2. The .NET SDK's output layout: LibScatter.dll and runtimes/<rid>/native beside the application.
mkdir -p "$scratch/sdk-layout/runtimes/$rid/native"
cp "$scratch/app/PackageApp.exe" "$installed/lib/netstandard2.1/LibScatter.dll" "$scratch/sdk-layout/"
cp "$native" "$scratch/sdk-layout/runtimes/$rid/native/"
run_app "runtimes/$rid/native beside the application" "$scratch/sdk-layout/runtimes/$rid/native/libscatter.so" \
  mono "$scratch/sdk-layout/PackageApp.exe"

# 3. The library beside LibScatter.dll.
mkdir -p "$scratch/flat"
cp "$scratch/app/PackageApp.exe" "$installed/lib/netstandard2.1/LibScatter.dll" "$native" "$scratch/flat/"
run_app "library beside the assembly" "$scratch/flat/libscatter.so" mono "$scratch/flat/PackageApp.exe"

# 4. SCATTER_LIBRARY wins over the library beside the assembly.
run_app "SCATTER_LIBRARY" "$native" SCATTER_LIBRARY="$native" mono "$scratch/flat/PackageApp.exe"

# 5. No library anywhere: the message names every place, in order.
mkdir -p "$scratch/bare"
cp "$scratch/app/PackageApp.exe" "$installed/lib/netstandard2.1/LibScatter.dll" "$scratch/bare/"
if env -u LD_LIBRARY_PATH -u SCATTER_LIBRARY mono "$scratch/bare/PackageApp.exe" | grep -q '^loaded: system:'; then
  echo "--- skipped the not-found message: a libscatter is installed on the system"
else
  run_app "no library" not-found mono "$scratch/bare/PackageApp.exe"
  up=$(cd "$scratch/.." && pwd)
  expected_lines=$(cat <<END
DllNotFoundException: libscatter was not found. The C# binding looked in these places, in this order:
  1. SCATTER_LIBRARY: not set
  2. $scratch/bare/runtimes/$rid/native/libscatter.so: no such file
  3. $up/runtimes/$rid/native/libscatter.so: no such file
  4. $scratch/bare/libscatter.so: no such file
  5. the system's library path (LD_LIBRARY_PATH, /etc/ld.so.cache, /lib, /usr/lib) for libscatter.so: (dlerror)
  6. the system's library path (LD_LIBRARY_PATH, /etc/ld.so.cache, /lib, /usr/lib) for libscatter.so.0: (dlerror)
Set SCATTER_LIBRARY to the library's path, or put libscatter.so into one of these folders.
END
)
  # The system loader's own words (dlerror) vary with the C library.
  normalized=$(printf '%s\n' "$output" | sed 's/\( for libscatter\.so\(\.0\)*: \).*/\1(dlerror)/')
  [ "$normalized" = "$expected_lines" ] || fail "the not-found message is not:
$expected_lines"
fi

if [ $failures -ne 0 ]; then
  echo "$failures NuGet checks failed"
  exit 1
fi
echo "NuGet package $package: packed, installed offline, and used by a console application under mono"
