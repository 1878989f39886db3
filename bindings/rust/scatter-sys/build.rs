//! Finds or builds libscatter and tells cargo how to link it. In order:
//!
//! 1. feature `static`: links `libscatter.a` statically, plus the C++ runtime it needs. The
//!    archive comes from `SCATTER_STATIC_LIB_DIR` when set (an already-built tree's `src`
//!    folder), else this script builds it: `cmake` on the libscatter source tree
//!    (`SCATTER_SOURCE_DIR`, default: the repository this crate sits in) into `OUT_DIR`, target
//!    `scatter_static` only (no tests, tools, examples or shared library). Extra configure
//!    arguments may be given in `SCATTER_CMAKE_ARGS` (split on whitespace).
//! 2. `SCATTER_LIB_DIR`: links `libscatter.so` from that folder, and records it as the run-time
//!    search path of this package's tests and of dependents that ask for it
//!    (`DEP_SCATTER_RPATH`, which the `scatter` crate uses for its own tests and examples).
//! 3. `pkg-config --libs scatter` (the library installs `scatter.pc`), unless
//!    `SCATTER_NO_PKG_CONFIG` is set; a library folder outside the system's is recorded as in 2.
//! 4. Otherwise plain `-lscatter` from the linker's default path, with a warning.
//!
//! Metadata for dependents' build scripts (`links = "scatter"`): `DEP_SCATTER_INCLUDE` (the
//! folder holding `scatter/scatter.h`, where known), `DEP_SCATTER_LIB_DIR` (where the library
//! was found, when known), `DEP_SCATTER_RPATH` (dylib routes outside the system path) and
//! `DEP_SCATTER_STATIC` (`1` or `0`).
use std::env;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn main() {
    for var in ["SCATTER_LIB_DIR", "SCATTER_STATIC_LIB_DIR", "SCATTER_SOURCE_DIR",
                "SCATTER_CMAKE_ARGS", "SCATTER_INCLUDE_DIR", "SCATTER_NO_PKG_CONFIG", "PKG_CONFIG",
                "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR", "PKG_CONFIG_SYSROOT_DIR", "CMAKE"] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    println!("cargo:rerun-if-changed=build.rs");
    if env::var_os("DOCS_RS").is_some() {
        return; // documentation only: nothing is linked
    }
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let repository = manifest_dir.join("..").join("..").join("..");
    let mut include = env::var_os("SCATTER_INCLUDE_DIR").map(PathBuf::from);

    if env::var_os("CARGO_FEATURE_STATIC").is_some() {
        let lib_dir = match env::var_os("SCATTER_STATIC_LIB_DIR") {
            Some(dir) => {
                let dir = PathBuf::from(dir);
                let archive = dir.join(static_name());
                if !archive.is_file() {
                    fail(&format!("SCATTER_STATIC_LIB_DIR={} holds no {}", dir.display(),
                                  static_name()));
                }
                println!("cargo:rerun-if-changed={}", archive.display());
                dir
            }
            None => {
                let source = env::var_os("SCATTER_SOURCE_DIR").map(PathBuf::from)
                    .unwrap_or_else(|| repository.clone());
                let dir = cmake_build(&source);
                include = include.or_else(|| Some(source.join("include")));
                dir
            }
        };
        include = include.or_else(|| Some(repository.join("include")));
        println!("cargo:rustc-link-search=native={}", lib_dir.display());
        println!("cargo:rustc-link-lib=static=scatter");
        // What the archive's C++ objects need (scatter.pc's Libs.private). The Vulkan loader is
        // opened at run time through volk, so nothing of Vulkan is linked.
        let target = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
        match target.as_str() {
            "macos" | "ios" => println!("cargo:rustc-link-lib=dylib=c++"),
            "windows" => {}
            _ => {
                for lib in ["stdc++", "m", "pthread", "dl"] {
                    println!("cargo:rustc-link-lib=dylib={lib}");
                }
            }
        }
        println!("cargo:lib_dir={}", lib_dir.display());
        println!("cargo:static=1");
    } else if let Some(dir) = env::var_os("SCATTER_LIB_DIR") {
        let dir = PathBuf::from(dir);
        println!("cargo:rustc-link-search=native={}", dir.display());
        println!("cargo:rustc-link-lib=dylib=scatter");
        rpath(&dir);
        include = include.or_else(|| Some(repository.join("include")));
        println!("cargo:lib_dir={}", dir.display());
        println!("cargo:static=0");
    } else if let Some(found) = pkg_config() {
        for dir in &found.lib_dirs {
            println!("cargo:rustc-link-search=native={}", dir.display());
            if !is_system_dir(dir) {
                rpath(dir);
            }
        }
        for lib in &found.libs {
            println!("cargo:rustc-link-lib=dylib={lib}");
        }
        if let Some(dir) = found.lib_dirs.first() {
            println!("cargo:lib_dir={}", dir.display());
        }
        include = include.or(found.include);
        println!("cargo:static=0");
    } else {
        println!("cargo:warning=libscatter: no SCATTER_LIB_DIR, no pkg-config scatter and no \
                  `static` feature; linking -lscatter from the default library path");
        println!("cargo:rustc-link-lib=dylib=scatter");
        println!("cargo:static=0");
    }

    if let Some(dir) = include {
        if dir.join("scatter").join("scatter.h").is_file() {
            let dir = dir.canonicalize().unwrap_or(dir);
            println!("cargo:include={}", dir.display());
        }
    }
}

fn static_name() -> &'static str {
    if env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("msvc") { "scatter.lib" } else { "libscatter.a" }
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    panic!("scatter-sys: {message}");
}

/// The run-time search path of this package's own tests and examples, and `DEP_SCATTER_RPATH`
/// for dependents (cargo never passes a dependency's link arguments on to a final binary).
fn rpath(dir: &Path) {
    let os = env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os != "windows" {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
        println!("cargo:rpath={}", dir.display());
    }
}

fn is_system_dir(dir: &Path) -> bool {
    ["/lib", "/usr/lib", "/lib64", "/usr/lib64", "/usr/local/lib"]
        .iter()
        .any(|system| dir.starts_with(system) && dir.components().count() <= 4)
}

struct PkgConfig {
    lib_dirs: Vec<PathBuf>,
    libs: Vec<String>,
    include: Option<PathBuf>,
}

fn pkg_config() -> Option<PkgConfig> {
    if env::var_os("SCATTER_NO_PKG_CONFIG").is_some() {
        return None;
    }
    let program = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_string());
    let run = |args: &[&str]| -> Option<String> {
        let output = Command::new(&program).args(args).stderr(Stdio::null()).output().ok()?;
        if !output.status.success() {
            return None;
        }
        String::from_utf8(output.stdout).ok()
    };
    let libs = run(&["--libs", "scatter"])?;
    let mut found = PkgConfig { lib_dirs: Vec::new(), libs: Vec::new(), include: None };
    for word in libs.split_whitespace() {
        if let Some(dir) = word.strip_prefix("-L") {
            found.lib_dirs.push(PathBuf::from(dir));
        } else if let Some(lib) = word.strip_prefix("-l") {
            found.libs.push(lib.to_string());
        }
    }
    if found.libs.is_empty() {
        return None;
    }
    if let Some(cflags) = run(&["--cflags-only-I", "scatter"]) {
        found.include = cflags.split_whitespace().filter_map(|w| w.strip_prefix("-I"))
            .map(PathBuf::from).find(|dir| dir.join("scatter").join("scatter.h").is_file());
    }
    if found.include.is_none() {
        if let Some(dir) = run(&["--variable=includedir", "scatter"]) {
            found.include = Some(PathBuf::from(dir.trim()));
        }
    }
    Some(found)
}

/// Configures and builds the `scatter_static` target of the source tree in OUT_DIR; returns the
/// folder that holds the archive. Re-run when the library's sources change, incrementally.
fn cmake_build(source: &Path) -> PathBuf {
    let top = source.join("CMakeLists.txt");
    let is_scatter = std::fs::read_to_string(&top).map(|t| t.contains("project(scatter")).unwrap_or(false);
    if !is_scatter {
        fail(&format!("feature `static`: {} is not libscatter's source tree (set \
                       SCATTER_SOURCE_DIR, or SCATTER_STATIC_LIB_DIR to a built libscatter.a)",
                      source.display()));
    }
    for part in ["CMakeLists.txt", "src", "include", "shaders", "cmake"] {
        println!("cargo:rerun-if-changed={}", source.join(part).display());
    }
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    let build = out_dir.join("cmake-build");
    let cmake = env::var("CMAKE").unwrap_or_else(|_| "cmake".to_string());
    let mut configure = Command::new(&cmake);
    configure.arg("-S").arg(source).arg("-B").arg(&build).args([
        "-DCMAKE_BUILD_TYPE=Release",
        "-DSCATTER_BUILD_TESTS=OFF",
        "-DSCATTER_BUILD_TOOLS=OFF",
        "-DSCATTER_BUILD_EXAMPLES=OFF",
        "-DSCATTER_BUILD_SHARED=OFF",
        "-DSCATTER_INSTALL=OFF",
    ]);
    if let Ok(extra) = env::var("SCATTER_CMAKE_ARGS") {
        configure.args(extra.split_whitespace());
    }
    run_cmake(configure, "configuring libscatter");
    let jobs = env::var("NUM_JOBS").unwrap_or_else(|_| "1".to_string());
    let mut build_cmd = Command::new(&cmake);
    build_cmd.arg("--build").arg(&build).args(["--target", "scatter_static", "--config", "Release",
                                                "--parallel", &jobs]);
    run_cmake(build_cmd, "building libscatter's static library");
    for dir in [build.join("src"), build.join("src").join("Release")] {
        if dir.join(static_name()).is_file() {
            return dir;
        }
    }
    fail(&format!("cmake built scatter_static but {} is not under {}", static_name(),
                  build.join("src").display()));
}

fn run_cmake(mut command: Command, what: &str) {
    // cmake's output goes to stderr: cargo reads the build script's stdout as instructions.
    command.stdout(Stdio::from(std::io::stderr()));
    eprintln!("running {command:?}");
    match command.status() {
        Ok(status) if status.success() => {}
        Ok(status) => fail(&format!("{what}: cmake exited with {status} (see the output above)")),
        Err(e) => fail(&format!("{what}: cannot run cmake ({e}); install cmake, or set \
                                 SCATTER_STATIC_LIB_DIR to a built libscatter.a")),
    }
}
