#!/bin/sh
# A downstream binary crate on `scatter` with the `static` feature: built with cargo --offline,
# then run with LD_LIBRARY_PATH and SCATTER_LIB_DIR unset. It must not need libscatter.so
# (readelf: no NEEDED entry for it), and must print what README.md's `rust output` block says
# (its main is README.md's `<!-- readme-test: rust -->` snippet; downstream/build.rs).
#
#   check_downstream.sh TARGET_DIR
#
# TARGET_DIR holds a copy of downstream/ (the path dependency made absolute, so nothing is
# written in the source tree) and the CARGO_TARGET_DIR; keep it between runs and the library
# is built only once. libscatter.a comes from SCATTER_STATIC_LIB_DIR when that is set (ctest
# passes the build tree's), else scatter-sys's build.rs builds it with cmake from this
# repository (a few minutes the first time). CARGO names cargo (default: cargo on PATH).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
target=${1:?usage: check_downstream.sh TARGET_DIR}
cargo=${CARGO:-cargo}
readme=${SCATTER_README:-$here/../../README.md}
mkdir -p "$target"
target=$(cd "$target" && pwd)

crate=$target/downstream-src
rm -rf "$crate"
mkdir -p "$crate/src"
cp "$here/downstream/build.rs" "$crate/"
cp "$here/downstream/src/main.rs" "$crate/src/"
sed "s|path = \"../scatter\"|path = \"$here/scatter\"|" "$here/downstream/Cargo.toml" > "$crate/Cargo.toml"
grep -q "path = \"$here/scatter\"" "$crate/Cargo.toml"

if [ -n "${SCATTER_STATIC_LIB_DIR:-}" ]; then
    echo "libscatter.a from SCATTER_STATIC_LIB_DIR=$SCATTER_STATIC_LIB_DIR"
else
    echo "libscatter.a built by scatter-sys's build.rs with cmake (once per $target)"
fi
start=$(date +%s)
env -u SCATTER_LIB_DIR -u LD_LIBRARY_PATH SCATTER_README="$readme" CARGO_TARGET_DIR="$target/cargo" \
    "$cargo" build --offline --manifest-path "$crate/Cargo.toml"
echo "built in $(( $(date +%s) - start )) s"
exe=$target/cargo/debug/scatter-downstream

if command -v readelf >/dev/null 2>&1; then
    if readelf -d "$exe" | grep -i 'NEEDED.*libscatter'; then
        echo "FAILED: $exe needs libscatter at run time" >&2
        exit 1
    fi
    echo "readelf: no NEEDED entry for libscatter"
else
    echo "readelf not found: the NEEDED check is skipped"
fi

got=$(env -u LD_LIBRARY_PATH -u SCATTER_LIB_DIR "$exe")
want=$(awk 'f == 2 && /^```/ { exit } f == 2 { print } f == 1 { f = 2; next }
            /^<!-- readme-test: rust output -->$/ { f = 1 }' "$readme")
if [ -z "$want" ]; then
    echo "FAILED: $readme has no \`<!-- readme-test: rust output -->\` block" >&2
    exit 1
fi
if [ "$got" != "$want" ]; then
    printf 'FAILED: the README snippet printed\n%s\nbut README.md says\n%s\n' "$got" "$want" >&2
    exit 1
fi
printf '%s\n' "$got"
echo "downstream binary ran without LD_LIBRARY_PATH and printed the README's output"
