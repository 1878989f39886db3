//! Safe Rust binding of libscatter over its C ABI: scatter slices on the CPU or a Vulkan GPU.
//!
//! ```
//! use scatter::{Context, Op, Options, Reduction, View};
//! let ctx = Context::cpu().unwrap();
//! let data = [0.0f32; 4];
//! let out = ctx.scatter(Op::Elements, View::new(&data, &[4]).unwrap(),
//!     View::new(&[1i64, 1, 3], &[3]).unwrap(), View::new(&[1.0f32; 3], &[3]).unwrap(),
//!     &Options { reduction: Reduction::Add, ..Options::default() }).unwrap();
//! assert_eq!(out, [0.0, 2.0, 0.0, 1.0]);
//! ```
pub mod ffi;
mod error;

use std::os::raw::c_void;
use std::ptr;

pub use error::{ScatterError, Status};
use error::check;

/// Element types libscatter scatters (same numbering as scatter_dtype).
pub unsafe trait Element: Copy {
    const DTYPE: i32;
}
/// Index types: i32 and i64.
pub unsafe trait Index: Copy {
    const DTYPE: i32;
}

macro_rules! elements {
    ($($t:ty => $code:expr),*) => { $(unsafe impl Element for $t { const DTYPE: i32 = $code; })* };
}
elements!(f32 => 3, f64 => 4, i8 => 5, i16 => 6, i32 => 7, i64 => 8,
          u8 => 9, u16 => 10, u32 => 11, u64 => 12, bool => 13);
unsafe impl Index for i32 { const DTYPE: i32 = ffi::SCATTER_DTYPE_I32; }
unsafe impl Index for i64 { const DTYPE: i32 = ffi::SCATTER_DTYPE_I64; }

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op { Elements, Rows, Nd }

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reduction { #[default] None = 1, Add, Sub, Mul, Div, Max, Min, Mean }

/// The name is not a reduction ("xor").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownReduction(pub String);

impl std::fmt::Display for UnknownReduction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "reduction {:?} is not one of none, add, sub, mul, div, max, min, mean \
                   (or sum, prod, multiply, amax, amin)", self.0)
    }
}

impl std::error::Error for UnknownReduction {}

/// `"add".parse::<Reduction>()`; the PyTorch names (sum, prod, amax, amin) and ONNX's
/// (multiply) are aliases of add, mul, max, min.
impl std::str::FromStr for Reduction {
    type Err = UnknownReduction;
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Ok(match name {
            "none" => Reduction::None,
            "add" | "sum" => Reduction::Add,
            "sub" => Reduction::Sub,
            "mul" | "prod" | "multiply" => Reduction::Mul,
            "div" => Reduction::Div,
            "max" | "amax" => Reduction::Max,
            "min" | "amin" => Reduction::Min,
            "mean" => Reduction::Mean,
            _ => return Err(UnknownReduction(name.to_string())),
        })
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutOfRange { #[default] Error = 1, Skip, Clamp }

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backend { #[default] Auto = 0, Cpu, Vulkan }

/// Options of one operation; `Options::default()` is axis 0, assign, out-of-range error.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    pub axis: i32,
    pub reduction: Reduction,
    pub out_of_range: OutOfRange,
    /// PyTorch include_self=False: a hit target starts from the reduction's identity.
    pub exclude_self: bool,
}

/// A contiguous row-major tensor over a slice.
#[derive(Clone, Copy, Debug)]
pub struct View<'a, T> {
    data: &'a [T],
    shape: &'a [usize],
}

impl<'a, T> View<'a, T> {
    /// Fails with ShapeMismatch when the shape's element count is not the slice's length.
    pub fn new(data: &'a [T], shape: &'a [usize]) -> Result<Self, ScatterError> {
        check_len(data.len(), shape, "view")?;
        Ok(View { data, shape })
    }
}

fn check_len(len: usize, shape: &[usize], what: &str) -> Result<(), ScatterError> {
    let count: usize = shape.iter().product();
    if count == len {
        return Ok(());
    }
    Err(ScatterError::local(Status::ShapeMismatch, "SCATTER_ERROR_SHAPE_MISMATCH",
        format!("{what} shape {shape:?} holds {count} elements but the slice has {len}")))
}

/// A tensor descriptor plus the i64 shape it points to.
struct RawTensor {
    _shape_storage: Vec<i64>, // owns the memory tensor.shape points to
    tensor: ffi::scatter_tensor,
}

impl RawTensor {
    fn new(dtype: i32, shape: &[usize], data: *mut c_void) -> RawTensor {
        let shape: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
        let tensor = ffi::scatter_tensor {
            struct_size: std::mem::size_of::<ffi::scatter_tensor>() as u32,
            dtype,
            element_size: 0,
            rank: shape.len() as u32,
            shape: shape.as_ptr(), // the Vec's heap buffer does not move with the struct
            strides: ptr::null(),
            data,
            buffer: ptr::null_mut(),
            byte_offset: 0,
        };
        RawTensor { _shape_storage: shape, tensor }
    }
}

/// A libscatter context. It may be shared between threads.
pub struct Context {
    raw: ffi::scatter_context,
}

unsafe impl Send for Context {}
unsafe impl Sync for Context {}

impl Context {
    /// Creates a context on `backend` with `threads` CPU threads (0: one per hardware thread).
    /// Fails if the loaded library's major version differs from this crate's.
    pub fn new(backend: Backend, threads: u32) -> Result<Context, ScatterError> {
        let major = unsafe { ffi::scatter_version() } >> 22;
        if major != ffi::SCATTER_VERSION_MAJOR {
            return Err(ScatterError::local(Status::Unsupported, "SCATTER_ERROR_UNSUPPORTED",
                format!("libscatter major version {major}, this crate needs {}",
                        ffi::SCATTER_VERSION_MAJOR)));
        }
        let desc = ffi::scatter_context_desc {
            struct_size: std::mem::size_of::<ffi::scatter_context_desc>() as u32,
            backend: backend as i32,
            device_index: -1,
            thread_count: threads,
            flags: 0,
            parallel_for: ptr::null_mut(),
            parallel_for_user: ptr::null_mut(),
            allocator: ptr::null(),
            log: ptr::null_mut(),
            log_user: ptr::null_mut(),
        };
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::scatter_context_create(&desc, &mut raw) })?;
        Ok(Context { raw })
    }

    /// A CPU context with one thread per hardware thread.
    pub fn cpu() -> Result<Context, ScatterError> {
        Context::new(Backend::Cpu, 0)
    }

    /// The backend the context runs on (never Auto).
    pub fn backend(&self) -> Backend {
        let mut code = 0;
        let _ = unsafe { ffi::scatter_context_backend(self.raw, &mut code) };
        if code == Backend::Vulkan as i32 { Backend::Vulkan } else { Backend::Cpu }
    }

    /// Returns a new vector: `data` with `updates` scattered in. On failure nothing is returned.
    pub fn scatter<T: Element, I: Index>(&self, op: Op, data: View<T>, indices: View<I>,
                                         updates: View<T>, options: &Options)
                                         -> Result<Vec<T>, ScatterError> {
        let mut out = data.data.to_vec();
        let out_ptr = out.as_mut_ptr() as *mut c_void;
        self.run(op, data.data.as_ptr() as *mut c_void, data.shape, indices, updates, options,
                 out_ptr)?;
        Ok(out)
    }

    /// Scatters into `data` (of shape `shape`) in place. On failure `data` is unchanged.
    pub fn scatter_in_place<T: Element, I: Index>(&self, op: Op, data: &mut [T],
                                                  shape: &[usize], indices: View<I>,
                                                  updates: View<T>, options: &Options)
                                                  -> Result<(), ScatterError> {
        check_len(data.len(), shape, "data")?;
        let ptr = data.as_mut_ptr() as *mut c_void;
        self.run(op, ptr, shape, indices, updates, options, ptr)
    }

    #[allow(clippy::too_many_arguments)]
    fn run<T: Element, I: Index>(&self, op: Op, data: *mut c_void, shape: &[usize],
                                 indices: View<I>, updates: View<T>, options: &Options,
                                 out: *mut c_void) -> Result<(), ScatterError> {
        let data_t = RawTensor::new(T::DTYPE, shape, data);
        let out_t = RawTensor::new(T::DTYPE, shape, out);
        let indices_t = RawTensor::new(I::DTYPE, indices.shape,
                                       indices.data.as_ptr() as *mut c_void);
        let updates_t = RawTensor::new(T::DTYPE, updates.shape,
                                       updates.data.as_ptr() as *mut c_void);
        let opts = ffi::scatter_options {
            struct_size: std::mem::size_of::<ffi::scatter_options>() as u32,
            axis: options.axis,
            reduction: options.reduction as i32,
            out_of_range: options.out_of_range as i32,
            flags: if options.exclude_self { ffi::SCATTER_OPTION_EXCLUDE_SELF } else { 0 },
        };
        let function: ffi::scatter_op_fn = match op {
            Op::Elements => ffi::scatter_elements,
            Op::Rows => ffi::scatter_rows,
            Op::Nd => ffi::scatter_nd,
        };
        // SAFETY: every tensor points to memory whose length matches its shape (checked by
        // View::new / check_len); the library only reads data/indices/updates and writes out.
        let status = unsafe {
            function(self.raw, &data_t.tensor, &indices_t.tensor, &updates_t.tensor, &opts,
                     &out_t.tensor)
        };
        check(status)
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        unsafe { ffi::scatter_context_destroy(self.raw) }
    }
}

/// The loaded library's version string, e.g. "0.1.0".
pub fn version() -> String {
    unsafe { error::text(ffi::scatter_version_string()) }
}
