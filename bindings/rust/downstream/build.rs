//! Writes the README's `<!-- readme-test: rust -->` block to OUT_DIR/readme_snippet.rs, which
//! src/main.rs includes: the snippet users read is the program this crate runs. The README is
//! SCATTER_README, else the repository's (three folders up).
use std::env;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=SCATTER_README");
    let readme = env::var_os("SCATTER_README").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap()).join("../../../README.md")
    });
    println!("cargo:rerun-if-changed={}", readme.display());
    let text = std::fs::read_to_string(&readme)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", readme.display()));
    let marker = "<!-- readme-test: rust -->\n```rust\n";
    let start = text.find(marker)
        .unwrap_or_else(|| panic!("{} has no `<!-- readme-test: rust -->` block", readme.display()))
        + marker.len();
    let end = start + text[start..].find("```").expect("the rust block is not closed");
    let out = PathBuf::from(env::var("OUT_DIR").unwrap()).join("readme_snippet.rs");
    std::fs::write(&out, &text[start..end]).expect("writing the snippet");
}
