//! The README's Rust snippet (see build.rs), built against `scatter` with the `static` feature.
include!(concat!(env!("OUT_DIR"), "/readme_snippet.rs"));
