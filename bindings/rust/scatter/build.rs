//! Gives this package's own tests, examples and doctests the run-time search path of the
//! shared library that scatter-sys linked (cargo does not pass a dependency's link arguments
//! on). Binaries of other crates: see the README ("Linking").
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=DEP_SCATTER_RPATH");
    if let Ok(dir) = std::env::var("DEP_SCATTER_RPATH") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    }
}
