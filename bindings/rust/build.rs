//! Links libscatter: from SCATTER_LIB_DIR (a build tree or install prefix's lib folder, also
//! recorded as the run-time search path so tests run from the build tree), else the system path.
fn main() {
    println!("cargo:rerun-if-env-changed=SCATTER_LIB_DIR");
    if let Ok(dir) = std::env::var("SCATTER_LIB_DIR") {
        println!("cargo:rustc-link-search=native={dir}");
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    }
    println!("cargo:rustc-link-lib=dylib=scatter");
}
