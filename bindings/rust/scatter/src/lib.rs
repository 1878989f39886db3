#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![warn(rust_2018_idioms)]

mod alloc;
mod batch;
mod buffer;
mod context;
mod device;
mod dtype;
mod error;
mod ops;
mod tensor;

/// The raw C declarations (the `scatter-sys` crate), for what this crate does not wrap.
pub use scatter_sys as sys;

pub use batch::Batch;
pub use buffer::Buffer;
pub use context::{version, version_numbers, Backend, Context, ContextOptions, LogHandler, LogLevel,
                  Profile, ProfilePass};
pub use device::{devices, Device, DeviceType, Features};
pub use dtype::{Complex32, Complex64, DType, Element, Index, Opaque, BF16, F16};
pub use error::{Error, Result, Status};
pub use ops::{Op, Options, OutOfRange, Reduction};
pub use tensor::{TensorView, TensorViewMut, MAX_RANK};
