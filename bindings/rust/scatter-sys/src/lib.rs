//! Raw declarations of libscatter's C ABI, `include/scatter/scatter.h` (the header is the
//! manual; every item here names the C item it mirrors).
//!
//! Everything in the header is declared here except the `*_FORCE32_` enumerators, which only
//! pin the enums' size. C enums are `i32` type aliases with one constant per enumerator, so any
//! value a C caller may pass is representable; the `*_INIT` macros are constants and `Default`
//! implementations. The `tests/layout.rs` test checks every struct's size and field offsets and
//! every constant's value against the C compiler's view of the header.
//!
//! How the library is linked is decided by `build.rs`: see the crate's README (below).
#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![allow(non_camel_case_types)]
#![no_std]

use core::ffi::{c_char, c_void};
use core::marker::{PhantomData, PhantomPinned};
use core::mem::size_of;
use core::ptr;

// ---------------------------------------------------------------------------------------------
// Version
// ---------------------------------------------------------------------------------------------

/// `SCATTER_MAKE_VERSION`: packs a version as `(major << 22) | (minor << 12) | patch`.
pub const fn scatter_make_version(major: u32, minor: u32, patch: u32) -> u32 {
    (major << 22) | (minor << 12) | patch
}
/// `SCATTER_VERSION_MAJOR` of the header this crate was written against.
pub const SCATTER_VERSION_MAJOR: u32 = 0;
/// `SCATTER_VERSION_MINOR` of the header this crate was written against.
pub const SCATTER_VERSION_MINOR: u32 = 1;
/// `SCATTER_VERSION_PATCH` of the header this crate was written against.
pub const SCATTER_VERSION_PATCH: u32 = 0;
/// `SCATTER_VERSION`: the version this crate describes, packed. Compare the major part with
/// [`scatter_version`]`() >> 22` at run time.
pub const SCATTER_VERSION: u32 =
    scatter_make_version(SCATTER_VERSION_MAJOR, SCATTER_VERSION_MINOR, SCATTER_VERSION_PATCH);

// ---------------------------------------------------------------------------------------------
// Status codes
// ---------------------------------------------------------------------------------------------

/// `scatter_status`: what every fallible function returns; [`SCATTER_OK`] is 0.
pub type scatter_status = i32;
/// Success.
pub const SCATTER_OK: scatter_status = 0;
/// Null pointer, bad enum, bad axis, bad option or integer division by zero.
pub const SCATTER_ERROR_INVALID_ARGUMENT: scatter_status = 1;
/// Dtypes of the tensors do not fit together.
pub const SCATTER_ERROR_TYPE_MISMATCH: scatter_status = 2;
/// Shapes or ranks of the tensors do not fit together.
pub const SCATTER_ERROR_SHAPE_MISMATCH: scatter_status = 3;
/// An index is outside its dimension.
pub const SCATTER_ERROR_INDEX_OUT_OF_RANGE: scatter_status = 4;
/// The combination is valid but not supported.
pub const SCATTER_ERROR_UNSUPPORTED: scatter_status = 5;
/// Host or device memory could not be allocated.
pub const SCATTER_ERROR_OUT_OF_MEMORY: scatter_status = 6;
/// The requested backend or device is not present.
pub const SCATTER_ERROR_BACKEND_UNAVAILABLE: scatter_status = 7;
/// The device was lost.
pub const SCATTER_ERROR_DEVICE_LOST: scatter_status = 8;
/// An internal error; please report it.
pub const SCATTER_ERROR_INTERNAL: scatter_status = 9;

/// `SCATTER_STATUS_LIST`: (name, value, description) of every status, in the header's order.
pub const SCATTER_STATUS_LIST: [(&str, scatter_status, &str); 10] = [
    ("SCATTER_OK", SCATTER_OK, "success"),
    ("SCATTER_ERROR_INVALID_ARGUMENT", SCATTER_ERROR_INVALID_ARGUMENT,
     "null pointer, bad enum, bad axis, bad option or integer division by zero"),
    ("SCATTER_ERROR_TYPE_MISMATCH", SCATTER_ERROR_TYPE_MISMATCH,
     "dtypes of the tensors do not fit together"),
    ("SCATTER_ERROR_SHAPE_MISMATCH", SCATTER_ERROR_SHAPE_MISMATCH,
     "shapes or ranks of the tensors do not fit together"),
    ("SCATTER_ERROR_INDEX_OUT_OF_RANGE", SCATTER_ERROR_INDEX_OUT_OF_RANGE,
     "an index is outside its dimension"),
    ("SCATTER_ERROR_UNSUPPORTED", SCATTER_ERROR_UNSUPPORTED,
     "the combination is valid but not supported"),
    ("SCATTER_ERROR_OUT_OF_MEMORY", SCATTER_ERROR_OUT_OF_MEMORY,
     "host or device memory could not be allocated"),
    ("SCATTER_ERROR_BACKEND_UNAVAILABLE", SCATTER_ERROR_BACKEND_UNAVAILABLE,
     "the requested backend or device is not present"),
    ("SCATTER_ERROR_DEVICE_LOST", SCATTER_ERROR_DEVICE_LOST, "the device was lost"),
    ("SCATTER_ERROR_INTERNAL", SCATTER_ERROR_INTERNAL, "an internal error; please report it"),
];

// ---------------------------------------------------------------------------------------------
// Enumerations
// ---------------------------------------------------------------------------------------------

/// `scatter_dtype`: element types.
pub type scatter_dtype = i32;
/// Invalid in a tensor.
pub const SCATTER_DTYPE_UNDEFINED: scatter_dtype = 0;
/// IEEE binary16; steps compute in f32, rounded after each.
pub const SCATTER_DTYPE_F16: scatter_dtype = 1;
/// bfloat16; steps compute in f32, rounded after each.
pub const SCATTER_DTYPE_BF16: scatter_dtype = 2;
/// 32-bit IEEE float.
pub const SCATTER_DTYPE_F32: scatter_dtype = 3;
/// 64-bit IEEE float.
pub const SCATTER_DTYPE_F64: scatter_dtype = 4;
/// Signed 8-bit integer.
pub const SCATTER_DTYPE_I8: scatter_dtype = 5;
/// Signed 16-bit integer.
pub const SCATTER_DTYPE_I16: scatter_dtype = 6;
/// Signed 32-bit integer (also an index type).
pub const SCATTER_DTYPE_I32: scatter_dtype = 7;
/// Signed 64-bit integer (also an index type).
pub const SCATTER_DTYPE_I64: scatter_dtype = 8;
/// Unsigned 8-bit integer.
pub const SCATTER_DTYPE_U8: scatter_dtype = 9;
/// Unsigned 16-bit integer.
pub const SCATTER_DTYPE_U16: scatter_dtype = 10;
/// Unsigned 32-bit integer.
pub const SCATTER_DTYPE_U32: scatter_dtype = 11;
/// Unsigned 64-bit integer.
pub const SCATTER_DTYPE_U64: scatter_dtype = 12;
/// One byte; 0 is false, anything else true; add/mul give 0 or 1.
pub const SCATTER_DTYPE_BOOL: scatter_dtype = 13;
/// Two f32: real, imaginary.
pub const SCATTER_DTYPE_C64: scatter_dtype = 14;
/// Two f64: real, imaginary.
pub const SCATTER_DTYPE_C128: scatter_dtype = 15;
/// `element_size` raw bytes (strings, structs); only `none`.
pub const SCATTER_DTYPE_OPAQUE: scatter_dtype = 16;

/// `scatter_reduction`: how updates combine with their target.
pub type scatter_reduction = i32;
/// The default: [`SCATTER_REDUCTION_NONE`].
pub const SCATTER_REDUCTION_DEFAULT: scatter_reduction = 0;
/// Assign: the last update in row-major order wins.
pub const SCATTER_REDUCTION_NONE: scatter_reduction = 1;
/// `t + u`; integers wrap.
pub const SCATTER_REDUCTION_ADD: scatter_reduction = 2;
/// `t - u`; integers wrap.
pub const SCATTER_REDUCTION_SUB: scatter_reduction = 3;
/// `t * u`; integers wrap.
pub const SCATTER_REDUCTION_MUL: scatter_reduction = 4;
/// `t / u`; integers truncate, a zero divisor is an error.
pub const SCATTER_REDUCTION_DIV: scatter_reduction = 5;
/// Maximum; NaN propagates.
pub const SCATTER_REDUCTION_MAX: scatter_reduction = 6;
/// Minimum; NaN propagates.
pub const SCATTER_REDUCTION_MIN: scatter_reduction = 7;
/// `(self + sum) / (1 + count)`; integers use floor division.
pub const SCATTER_REDUCTION_MEAN: scatter_reduction = 8;

/// `scatter_out_of_range`: what happens to an index outside `[-s, s)` of its dimension.
pub type scatter_out_of_range = i32;
/// The default: [`SCATTER_OUT_OF_RANGE_ERROR`].
pub const SCATTER_OUT_OF_RANGE_DEFAULT: scatter_out_of_range = 0;
/// The call fails with [`SCATTER_ERROR_INDEX_OUT_OF_RANGE`].
pub const SCATTER_OUT_OF_RANGE_ERROR: scatter_out_of_range = 1;
/// The update (for rows/nd: the whole slice) is ignored.
pub const SCATTER_OUT_OF_RANGE_SKIP: scatter_out_of_range = 2;
/// The index is clamped into `[0, s-1]`.
pub const SCATTER_OUT_OF_RANGE_CLAMP: scatter_out_of_range = 3;
/// Gather only: the element (rows/nd: the whole slice) takes `scatter_gather_options::fill_value`.
pub const SCATTER_OUT_OF_RANGE_FILL: scatter_out_of_range = 4;

/// `scatter_backend`.
pub type scatter_backend = i32;
/// A Vulkan GPU when there is a usable one (with per-call routing), else the CPU.
pub const SCATTER_BACKEND_AUTO: scatter_backend = 0;
/// The CPU backend.
pub const SCATTER_BACKEND_CPU: scatter_backend = 1;
/// The Vulkan backend.
pub const SCATTER_BACKEND_VULKAN: scatter_backend = 2;

/// `scatter_log_level`.
pub type scatter_log_level = i32;
/// Debug: AUTO's cost model and each call's route.
pub const SCATTER_LOG_DEBUG: scatter_log_level = 0;
/// Information: the backend and device a context uses.
pub const SCATTER_LOG_INFO: scatter_log_level = 1;
/// Warning.
pub const SCATTER_LOG_WARNING: scatter_log_level = 2;
/// Error.
pub const SCATTER_LOG_ERROR: scatter_log_level = 3;

/// `scatter_device_type`.
pub type scatter_device_type = i32;
/// Another kind of device.
pub const SCATTER_DEVICE_TYPE_OTHER: scatter_device_type = 0;
/// An integrated GPU.
pub const SCATTER_DEVICE_TYPE_INTEGRATED_GPU: scatter_device_type = 1;
/// A discrete GPU.
pub const SCATTER_DEVICE_TYPE_DISCRETE_GPU: scatter_device_type = 2;
/// A virtual GPU.
pub const SCATTER_DEVICE_TYPE_VIRTUAL_GPU: scatter_device_type = 3;
/// The CPU (the CPU backend, or a CPU-type Vulkan device such as lavapipe).
pub const SCATTER_DEVICE_TYPE_CPU: scatter_device_type = 4;

/// `scatter_op`: the operations, for the functions that take the operation as a value.
pub type scatter_op = i32;
/// Invalid.
pub const SCATTER_OP_UNDEFINED: scatter_op = 0;
/// As [`scatter_elements`].
pub const SCATTER_OP_ELEMENTS: scatter_op = 1;
/// As [`scatter_rows`].
pub const SCATTER_OP_ROWS: scatter_op = 2;
/// As [`scatter_nd`].
pub const SCATTER_OP_ND: scatter_op = 3;

// ---------------------------------------------------------------------------------------------
// Flags and limits
// ---------------------------------------------------------------------------------------------

/// Context flag: faster order-dependent paths allowed.
pub const SCATTER_CONTEXT_FLAG_ALLOW_NONDETERMINISM: u32 = 0x1;
/// Context flag: Vulkan: enable the validation layer if present.
pub const SCATTER_CONTEXT_FLAG_VALIDATION: u32 = 0x2;
/// Context flag: time each operation ([`scatter_last_profile`]).
pub const SCATTER_CONTEXT_FLAG_PROFILE: u32 = 0x4;
/// The most CPU threads a context's own pool runs.
pub const SCATTER_MAX_THREAD_COUNT: u32 = 1024;

/// Device feature bit: 8-bit integer arithmetic.
pub const SCATTER_FEATURE_INT8: u64 = 0x1;
/// Device feature bit: 16-bit integer arithmetic.
pub const SCATTER_FEATURE_INT16: u64 = 0x2;
/// Device feature bit: 64-bit integers (shaderInt64).
pub const SCATTER_FEATURE_INT64: u64 = 0x4;
/// Device feature bit: 16-bit float arithmetic.
pub const SCATTER_FEATURE_FLOAT16: u64 = 0x8;
/// Device feature bit: 64-bit floats (shaderFloat64).
pub const SCATTER_FEATURE_FLOAT64: u64 = 0x10;
/// Device feature bit: 8-bit storage buffer access.
pub const SCATTER_FEATURE_STORAGE8: u64 = 0x20;
/// Device feature bit: 16-bit storage buffer access.
pub const SCATTER_FEATURE_STORAGE16: u64 = 0x40;
/// Device feature bit: 64-bit integer buffer atomics.
pub const SCATTER_FEATURE_INT64_ATOMICS: u64 = 0x80;
/// Device feature bit: f32 atomic add on buffers.
pub const SCATTER_FEATURE_FLOAT32_ATOMIC_ADD: u64 = 0x100;
/// Device feature bit: f32 atomic min/max on buffers.
pub const SCATTER_FEATURE_FLOAT32_ATOMIC_MINMAX: u64 = 0x200;
/// Device feature bit: subgroup operations.
pub const SCATTER_FEATURE_SUBGROUPS: u64 = 0x400;
/// Device feature bit: buffer device addresses.
pub const SCATTER_FEATURE_BUFFER_DEVICE_ADDRESS: u64 = 0x800;
/// Device feature bit: subnormal f32 (f16, bf16, c64) values are preserved by arithmetic.
pub const SCATTER_FEATURE_DENORM_PRESERVE32: u64 = 0x1000;
/// Device feature bit: subnormal f64 (c128) values are preserved by arithmetic.
pub const SCATTER_FEATURE_DENORM_PRESERVE64: u64 = 0x2000;
/// Device feature bit: 64-bit integer atomics on workgroup shared memory.
pub const SCATTER_FEATURE_SHARED_INT64_ATOMICS: u64 = 0x4000;

/// The largest rank any tensor may have.
pub const SCATTER_MAX_RANK: u32 = 16;

/// Option flag: a hit target starts from the reduction's identity (PyTorch
/// `include_self=False`).
pub const SCATTER_OPTION_EXCLUDE_SELF: u32 = 0x1;
/// Option flag: this call may use order-dependent fast paths.
pub const SCATTER_OPTION_ALLOW_NONDETERMINISM: u32 = 0x2;

/// The passes a [`scatter_profile`] holds.
pub const SCATTER_PROFILE_MAX_PASSES: u32 = 32;

// ---------------------------------------------------------------------------------------------
// Handles
// ---------------------------------------------------------------------------------------------

macro_rules! opaque {
    ($(#[$doc:meta] $name:ident),*) => {$(
        #[$doc]
        #[repr(C)]
        pub struct $name {
            _private: [u8; 0],
            _marker: PhantomData<(*mut u8, PhantomPinned)>,
        }
    )*};
}
opaque!(
    /// The object behind a [`scatter_context`] (never instantiated in Rust).
    scatter_context_t,
    /// The object behind a [`scatter_buffer`] (never instantiated in Rust).
    scatter_buffer_t,
    /// The object behind a [`scatter_batch`] (never instantiated in Rust).
    scatter_batch_t,
    /// The object behind a [`scatter_recording`] (never instantiated in Rust).
    scatter_recording_t
);

/// A context: the backend, its device, threads and caches.
pub type scatter_context = *mut scatter_context_t;
/// Memory owned by a context (device memory on Vulkan, host memory on the CPU).
pub type scatter_buffer = *mut scatter_buffer_t;
/// Several operations recorded, submitted once and waited for together (Vulkan).
pub type scatter_batch = *mut scatter_batch_t;
/// The transient memory of an operation recorded into an application command buffer.
pub type scatter_recording = *mut scatter_recording_t;

// ---------------------------------------------------------------------------------------------
// Callbacks and structs
// ---------------------------------------------------------------------------------------------

/// `scatter_allocator.alloc`: memory of `size` bytes aligned to `alignment`, or NULL.
pub type scatter_alloc_fn =
    Option<unsafe extern "C" fn(user: *mut c_void, size: usize, alignment: usize) -> *mut c_void>;
/// `scatter_allocator.free`: releases memory from `alloc` (`ptr` may be NULL).
pub type scatter_free_fn = Option<unsafe extern "C" fn(user: *mut c_void, ptr: *mut c_void)>;

/// `scatter_allocator`: a host allocator (both functions may be called from any thread at once).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scatter_allocator {
    /// Passed to both functions.
    pub user: *mut c_void,
    /// Returns memory aligned to `alignment` (a power of two <= 4096) or NULL.
    pub alloc: scatter_alloc_fn,
    /// Releases memory from `alloc`.
    pub free: scatter_free_fn,
}

/// `scatter_task_fn`: one task of a [`scatter_parallel_for_fn`].
pub type scatter_task_fn = Option<unsafe extern "C" fn(task_data: *mut c_void, task_index: u32)>;
/// `scatter_parallel_for_fn`: runs `task(task_data, i)` for every `i` in `[0, task_count)` and
/// returns when all have finished.
pub type scatter_parallel_for_fn = Option<
    unsafe extern "C" fn(user: *mut c_void, task_count: u32, task: scatter_task_fn,
                         task_data: *mut c_void),
>;
/// `scatter_log_fn`: receives a NUL-terminated log line, valid only during the call.
pub type scatter_log_fn =
    Option<unsafe extern "C" fn(user: *mut c_void, level: scatter_log_level, message: *const c_char)>;

/// `scatter_context_desc`: describes a context. Start from [`SCATTER_CONTEXT_DESC_INIT`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scatter_context_desc {
    /// `sizeof(scatter_context_desc)`.
    pub struct_size: u32,
    /// AUTO, CPU or VULKAN.
    pub backend: scatter_backend,
    /// Vulkan device index from [`scatter_devices`], or -1 to choose automatically.
    pub device_index: i32,
    /// CPU threads in all, the calling thread's included; 0 means one per hardware thread.
    pub thread_count: u32,
    /// `SCATTER_CONTEXT_FLAG_*`.
    pub flags: u32,
    /// Optional host job system; NULL uses the context's own threads.
    pub parallel_for: scatter_parallel_for_fn,
    /// Passed to `parallel_for`.
    pub parallel_for_user: *mut c_void,
    /// Optional; copied at creation; NULL uses malloc.
    pub allocator: *const scatter_allocator,
    /// Optional log callback.
    pub log: scatter_log_fn,
    /// Passed to `log`.
    pub log_user: *mut c_void,
}

/// `SCATTER_CONTEXT_DESC_INIT`.
pub const SCATTER_CONTEXT_DESC_INIT: scatter_context_desc = scatter_context_desc {
    struct_size: size_of::<scatter_context_desc>() as u32,
    backend: SCATTER_BACKEND_AUTO,
    device_index: -1,
    thread_count: 0,
    flags: 0,
    parallel_for: None,
    parallel_for_user: ptr::null_mut(),
    allocator: ptr::null(),
    log: None,
    log_user: ptr::null_mut(),
};

impl Default for scatter_context_desc {
    /// [`SCATTER_CONTEXT_DESC_INIT`].
    fn default() -> Self {
        SCATTER_CONTEXT_DESC_INIT
    }
}

/// `scatter_device_info`: one device. Strings are NUL-terminated UTF-8.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scatter_device_info {
    /// Set by the caller to `sizeof(scatter_device_info)`.
    pub struct_size: u32,
    /// CPU or VULKAN.
    pub backend: scatter_backend,
    /// `device_index` to pass in [`scatter_context_desc`] (Vulkan).
    pub index: u32,
    /// `SCATTER_DEVICE_TYPE_*`.
    pub type_: scatter_device_type,
    /// The device's name.
    pub name: [c_char; 256],
    /// PCI vendor id.
    pub vendor_id: u32,
    /// PCI device id.
    pub device_id: u32,
    /// Vulkan API version; 0 for the CPU.
    pub api_version: u32,
    /// CPU: hardware threads; Vulkan: subgroup size.
    pub thread_count: u32,
    /// `SCATTER_FEATURE_*` bits.
    pub features: u64,
    /// Largest single binding in bytes; `u64::MAX` for the CPU.
    pub max_buffer_range: u64,
}

impl Default for scatter_device_info {
    /// All zeros with `struct_size` set.
    fn default() -> Self {
        // SAFETY: every field is an integer or an integer array, for which zero is valid.
        let mut info: scatter_device_info = unsafe { core::mem::zeroed() };
        info.struct_size = size_of::<scatter_device_info>() as u32;
        info
    }
}

/// `scatter_tensor`: a view of caller memory (host pointer) or of a buffer.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scatter_tensor {
    /// `sizeof(scatter_tensor)`.
    pub struct_size: u32,
    /// `SCATTER_DTYPE_*`.
    pub dtype: scatter_dtype,
    /// OPAQUE: bytes per element (>= 1); others: 0 or the dtype size.
    pub element_size: u32,
    /// 0 .. [`SCATTER_MAX_RANK`].
    pub rank: u32,
    /// `rank` entries >= 0; may be NULL when rank is 0.
    pub shape: *const i64,
    /// `rank` entries (in elements, may be negative) or NULL for contiguous row-major.
    pub strides: *const i64,
    /// Host memory, or NULL with a buffer.
    pub data: *mut c_void,
    /// A buffer of the call's context, or NULL.
    pub buffer: scatter_buffer,
    /// Offset of element 0 in the buffer.
    pub byte_offset: u64,
}

/// `SCATTER_TENSOR_INIT`.
pub const SCATTER_TENSOR_INIT: scatter_tensor = scatter_tensor {
    struct_size: size_of::<scatter_tensor>() as u32,
    dtype: SCATTER_DTYPE_UNDEFINED,
    element_size: 0,
    rank: 0,
    shape: ptr::null(),
    strides: ptr::null(),
    data: ptr::null_mut(),
    buffer: ptr::null_mut(),
    byte_offset: 0,
};

impl Default for scatter_tensor {
    /// [`SCATTER_TENSOR_INIT`].
    fn default() -> Self {
        SCATTER_TENSOR_INIT
    }
}

/// `scatter_options`: options of one operation. Start from [`SCATTER_OPTIONS_INIT`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scatter_options {
    /// `sizeof(scatter_options)`.
    pub struct_size: u32,
    /// elements/rows: in `[-r, r)`; negative counts from the back. nd: must be 0.
    pub axis: i32,
    /// `SCATTER_REDUCTION_*`.
    pub reduction: scatter_reduction,
    /// `SCATTER_OUT_OF_RANGE_*`.
    pub out_of_range: scatter_out_of_range,
    /// `SCATTER_OPTION_*`.
    pub flags: u32,
}

/// `SCATTER_OPTIONS_INIT`.
pub const SCATTER_OPTIONS_INIT: scatter_options = scatter_options {
    struct_size: size_of::<scatter_options>() as u32,
    axis: 0,
    reduction: SCATTER_REDUCTION_DEFAULT,
    out_of_range: SCATTER_OUT_OF_RANGE_DEFAULT,
    flags: 0,
};

impl Default for scatter_options {
    /// [`SCATTER_OPTIONS_INIT`].
    fn default() -> Self {
        SCATTER_OPTIONS_INIT
    }
}

/// `scatter_gather_options`: options of one gather. Start from [`SCATTER_GATHER_OPTIONS_INIT`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scatter_gather_options {
    /// `sizeof(scatter_gather_options)`.
    pub struct_size: u32,
    /// elements/rows: in `[-r, r)`; negative counts from the back. nd: must be 0.
    pub axis: i32,
    /// nd: leading batch dimensions shared by data and indices; elsewhere 0.
    pub batch_dims: u32,
    /// `SCATTER_OUT_OF_RANGE_DEFAULT`, `_ERROR`, `_CLAMP` or `_FILL` (`_SKIP` is refused).
    pub out_of_range: scatter_out_of_range,
    /// FILL: one element of data's dtype; null means all-zero bytes.
    pub fill_value: *const c_void,
    /// None defined yet: 0.
    pub flags: u32,
}

/// `SCATTER_GATHER_OPTIONS_INIT`.
pub const SCATTER_GATHER_OPTIONS_INIT: scatter_gather_options = scatter_gather_options {
    struct_size: size_of::<scatter_gather_options>() as u32,
    axis: 0,
    batch_dims: 0,
    out_of_range: SCATTER_OUT_OF_RANGE_DEFAULT,
    fill_value: ptr::null(),
    flags: 0,
};

impl Default for scatter_gather_options {
    /// [`SCATTER_GATHER_OPTIONS_INIT`].
    fn default() -> Self {
        SCATTER_GATHER_OPTIONS_INIT
    }
}

/// `scatter_message_passing_options`: options of one message-passing call. Start from
/// [`SCATTER_MESSAGE_PASSING_OPTIONS_INIT`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scatter_message_passing_options {
    /// `sizeof(scatter_message_passing_options)`.
    pub struct_size: u32,
    /// `SCATTER_REDUCTION_DEFAULT` means ADD here; any reduction data's dtype allows in rows.
    pub reduction: scatter_reduction,
    /// src: `SCATTER_OUT_OF_RANGE_DEFAULT`, `_ERROR`, `_CLAMP` or `_FILL`.
    pub src_out_of_range: scatter_out_of_range,
    /// dst: `SCATTER_OUT_OF_RANGE_DEFAULT`, `_ERROR`, `_SKIP` or `_CLAMP`.
    pub dst_out_of_range: scatter_out_of_range,
    /// src FILL: one element of x's dtype; null means all-zero bytes.
    pub fill_value: *const c_void,
    /// `SCATTER_OPTION_EXCLUDE_SELF` (and `SCATTER_OPTION_ALLOW_NONDETERMINISM`, which changes nothing).
    pub flags: u32,
}

/// `SCATTER_MESSAGE_PASSING_OPTIONS_INIT`.
pub const SCATTER_MESSAGE_PASSING_OPTIONS_INIT: scatter_message_passing_options = scatter_message_passing_options {
    struct_size: size_of::<scatter_message_passing_options>() as u32,
    reduction: SCATTER_REDUCTION_DEFAULT,
    src_out_of_range: SCATTER_OUT_OF_RANGE_DEFAULT,
    dst_out_of_range: SCATTER_OUT_OF_RANGE_DEFAULT,
    fill_value: ptr::null(),
    flags: 0,
};

impl Default for scatter_message_passing_options {
    /// [`SCATTER_MESSAGE_PASSING_OPTIONS_INIT`].
    fn default() -> Self {
        SCATTER_MESSAGE_PASSING_OPTIONS_INIT
    }
}

/// `scatter_profile_pass`: one pass of an operation.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scatter_profile_pass {
    /// NUL-terminated, e.g. "validate_elements", "copy", "winner", "atomic_apply".
    pub name: [c_char; 32],
    /// Shader invocations launched; 0 for fills, copies and the CPU.
    pub invocations: u64,
    /// GPU time between this pass's timestamps (Vulkan), or wall time (CPU), in microseconds.
    pub time_us: f64,
}

/// `scatter_profile`: the profile of one operation (microseconds).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scatter_profile {
    /// Set by the caller to `sizeof(scatter_profile)`.
    pub struct_size: u32,
    /// The backend that ran the operation (CPU or VULKAN).
    pub backend: scatter_backend,
    /// What the call returned.
    pub status: scatter_status,
    /// Entries of `passes` filled.
    pub pass_count: u32,
    /// Checking descriptors, shapes and options on the host.
    pub validate_us: f64,
    /// Vulkan: staging host inputs and recording the command buffer.
    pub record_us: f64,
    /// Vulkan: vkQueueSubmit.
    pub submit_us: f64,
    /// Vulkan: waiting for the GPU to finish.
    pub wait_us: f64,
    /// Vulkan: result checks and copying host outputs back.
    pub read_back_us: f64,
    /// The whole call.
    pub total_us: f64,
    /// Vulkan: first to last timestamp; 0 where the queue has none.
    pub gpu_us: f64,
    /// NUL-terminated: why this backend ran the call (AUTO contexts), else empty.
    pub route: [c_char; 96],
    /// The passes (`pass_count` of them).
    pub passes: [scatter_profile_pass; SCATTER_PROFILE_MAX_PASSES as usize],
}

impl Default for scatter_profile {
    /// All zeros with `struct_size` set.
    fn default() -> Self {
        // SAFETY: every field is an integer, a float or an array of them: zero is valid.
        let mut profile: scatter_profile = unsafe { core::mem::zeroed() };
        profile.struct_size = size_of::<scatter_profile>() as u32;
        profile
    }
}

/// `scatter_vk_void_function`: a Vulkan function pointer without Vulkan types.
pub type scatter_vk_void_function = Option<unsafe extern "C" fn()>;
/// `scatter_vk_get_instance_proc_addr`: the application's `vkGetInstanceProcAddr`.
pub type scatter_vk_get_instance_proc_addr =
    Option<unsafe extern "C" fn(instance: *mut c_void, name: *const c_char) -> scatter_vk_void_function>;

/// `scatter_vulkan_device_desc`: the Vulkan device a context runs on. Start from
/// [`SCATTER_VULKAN_DEVICE_DESC_INIT`].
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct scatter_vulkan_device_desc {
    /// `sizeof(scatter_vulkan_device_desc)`.
    pub struct_size: u32,
    /// VkInstance (Vulkan 1.1+).
    pub instance: *mut c_void,
    /// VkPhysicalDevice of that instance.
    pub physical_device: *mut c_void,
    /// VkDevice created on it, or NULL (the context creates its own).
    pub device: *mut c_void,
    /// VkQueue with compute support, or NULL (then only [`scatter_record_vulkan`] works).
    pub queue: *mut c_void,
    /// The queue's family.
    pub queue_family_index: u32,
    /// The application's vkGetInstanceProcAddr.
    pub get_instance_proc_addr: scatter_vk_get_instance_proc_addr,
    /// What the application enabled on its device, as `SCATTER_FEATURE_*` bits.
    pub enabled_features: u64,
    /// Optional blob from [`scatter_pipeline_cache_data`].
    pub pipeline_cache_data: *const c_void,
    /// Bytes of `pipeline_cache_data`.
    pub pipeline_cache_size: usize,
}

/// `SCATTER_VULKAN_DEVICE_DESC_INIT`.
pub const SCATTER_VULKAN_DEVICE_DESC_INIT: scatter_vulkan_device_desc = scatter_vulkan_device_desc {
    struct_size: size_of::<scatter_vulkan_device_desc>() as u32,
    instance: ptr::null_mut(),
    physical_device: ptr::null_mut(),
    device: ptr::null_mut(),
    queue: ptr::null_mut(),
    queue_family_index: 0,
    get_instance_proc_addr: None,
    enabled_features: 0,
    pipeline_cache_data: ptr::null(),
    pipeline_cache_size: 0,
};

impl Default for scatter_vulkan_device_desc {
    /// [`SCATTER_VULKAN_DEVICE_DESC_INIT`].
    fn default() -> Self {
        SCATTER_VULKAN_DEVICE_DESC_INIT
    }
}

/// The signature shared by [`scatter_elements`], [`scatter_rows`] and [`scatter_nd`].
pub type scatter_operation_fn = unsafe extern "C" fn(
    context: scatter_context,
    data: *const scatter_tensor,
    indices: *const scatter_tensor,
    updates: *const scatter_tensor,
    options: *const scatter_options,
    out: *const scatter_tensor,
) -> scatter_status;

// ---------------------------------------------------------------------------------------------
// Functions
// ---------------------------------------------------------------------------------------------

extern "C" {
    /// Returns the version of the loaded library, packed as [`scatter_make_version`] does.
    pub fn scatter_version() -> u32;
    /// Returns the version of the loaded library as a static string, e.g. "0.1.0".
    pub fn scatter_version_string() -> *const c_char;
    /// Returns the status's enumerator name, or "SCATTER_STATUS_UNKNOWN". Static string.
    pub fn scatter_status_name(status: scatter_status) -> *const c_char;
    /// Returns the message of the last failed call on this thread, or "". Valid until the next
    /// libscatter call on the same thread.
    pub fn scatter_last_error_message() -> *const c_char;
    /// Returns the size in bytes of one element of `dtype` (0 for UNDEFINED, OPAQUE, unknown).
    pub fn scatter_dtype_size(dtype: scatter_dtype) -> usize;
    /// Returns the dtype's lowercase name ("f32", "opaque"), or "unknown".
    pub fn scatter_dtype_name(dtype: scatter_dtype) -> *const c_char;
    /// Returns "auto", "cpu", "vulkan" or "unknown".
    pub fn scatter_backend_name(backend: scatter_backend) -> *const c_char;
    /// Returns the reduction's name ("none" for DEFAULT) or "unknown".
    pub fn scatter_reduction_name(reduction: scatter_reduction) -> *const c_char;

    /// Creates a context; `desc` may be NULL for the defaults.
    pub fn scatter_context_create(desc: *const scatter_context_desc,
                                  out_context: *mut scatter_context) -> scatter_status;
    /// Destroys a context and everything it owns. NULL is ignored.
    pub fn scatter_context_destroy(context: scatter_context);
    /// Writes the backend the context runs on (CPU or VULKAN, never AUTO).
    pub fn scatter_context_backend(context: scatter_context,
                                   out_backend: *mut scatter_backend) -> scatter_status;

    /// Lists the devices: entry 0 is the CPU, then every Vulkan device in driver order.
    pub fn scatter_devices(infos: *mut scatter_device_info, count: *mut u32) -> scatter_status;

    /// Creates a zero-filled buffer of `size` bytes on the context.
    pub fn scatter_buffer_create(context: scatter_context, size: u64,
                                 out_buffer: *mut scatter_buffer) -> scatter_status;
    /// Destroys a buffer. NULL is ignored. No operation may be using it.
    pub fn scatter_buffer_destroy(buffer: scatter_buffer);
    /// Returns the size in bytes of the buffer, or 0 for NULL.
    pub fn scatter_buffer_size(buffer: scatter_buffer) -> u64;
    /// Copies `size` bytes from host memory `src` into the buffer at `offset`.
    pub fn scatter_buffer_write(buffer: scatter_buffer, offset: u64, src: *const c_void,
                                size: u64) -> scatter_status;
    /// Copies `size` bytes of the buffer at `offset` into host memory `dst`.
    pub fn scatter_buffer_read(buffer: scatter_buffer, offset: u64, dst: *mut c_void,
                               size: u64) -> scatter_status;
    /// Copies `size` bytes between two buffers of one context, on the device that holds them.
    pub fn scatter_buffer_copy(src: scatter_buffer, src_offset: u64, dst: scatter_buffer,
                               dst_offset: u64, size: u64) -> scatter_status;

    /// Elements scatter (ONNX ScatterElements).
    pub fn scatter_elements(context: scatter_context, data: *const scatter_tensor,
                            indices: *const scatter_tensor, updates: *const scatter_tensor,
                            options: *const scatter_options,
                            out: *const scatter_tensor) -> scatter_status;
    /// Rows scatter (MindSpore scatter_*, Paddle scatter, PyTorch index_add_).
    pub fn scatter_rows(context: scatter_context, data: *const scatter_tensor,
                        indices: *const scatter_tensor, updates: *const scatter_tensor,
                        options: *const scatter_options,
                        out: *const scatter_tensor) -> scatter_status;
    /// N-d scatter (ONNX ScatterND, TensorFlow tensor_scatter_nd_*); `options.axis` must be 0.
    pub fn scatter_nd(context: scatter_context, data: *const scatter_tensor,
                      indices: *const scatter_tensor, updates: *const scatter_tensor,
                      options: *const scatter_options,
                      out: *const scatter_tensor) -> scatter_status;

    /// Elements gather (ONNX GatherElements, `torch.gather`); `out.shape == indices.shape`.
    pub fn scatter_gather_elements(context: scatter_context, data: *const scatter_tensor,
                                   indices: *const scatter_tensor, options: *const scatter_gather_options,
                                   out: *const scatter_tensor) -> scatter_status;
    /// Rows gather (ONNX Gather, `torch.index_select`, `numpy.take`).
    pub fn scatter_gather_rows(context: scatter_context, data: *const scatter_tensor,
                               indices: *const scatter_tensor, options: *const scatter_gather_options,
                               out: *const scatter_tensor) -> scatter_status;
    /// N-d gather (ONNX GatherND, `tf.gather_nd`) with `batch_dims`.
    pub fn scatter_gather_nd(context: scatter_context, data: *const scatter_tensor,
                             indices: *const scatter_tensor, options: *const scatter_gather_options,
                             out: *const scatter_tensor) -> scatter_status;

    /// Fused message passing: `out[dst[e]] (op)= x[src[e]] * weights[e]` over the edges in order;
    /// `weights` may be null (no multiply).
    pub fn scatter_message_passing(context: scatter_context, data: *const scatter_tensor,
                                   x: *const scatter_tensor, src: *const scatter_tensor,
                                   dst: *const scatter_tensor, weights: *const scatter_tensor,
                                   options: *const scatter_message_passing_options,
                                   out: *const scatter_tensor) -> scatter_status;
    /// Gradients of `scatter_elements` (docs/semantics.md, "Backward"): `grad_data` and/or
    /// `grad_updates` (either may be null, not both) from `grad_out`; `out` is the forward's
    /// result (null allowed for none, add, sub, mean).
    pub fn scatter_elements_backward(context: scatter_context, data: *const scatter_tensor,
                                     indices: *const scatter_tensor, updates: *const scatter_tensor,
                                     out: *const scatter_tensor, grad_out: *const scatter_tensor,
                                     options: *const scatter_options, grad_data: *const scatter_tensor,
                                     grad_updates: *const scatter_tensor) -> scatter_status;
    /// Gradients of `scatter_rows`, as `scatter_elements_backward`.
    pub fn scatter_rows_backward(context: scatter_context, data: *const scatter_tensor,
                                 indices: *const scatter_tensor, updates: *const scatter_tensor,
                                 out: *const scatter_tensor, grad_out: *const scatter_tensor,
                                 options: *const scatter_options, grad_data: *const scatter_tensor,
                                 grad_updates: *const scatter_tensor) -> scatter_status;
    /// Gradients of `scatter_nd`, as `scatter_elements_backward`.
    pub fn scatter_nd_backward(context: scatter_context, data: *const scatter_tensor,
                               indices: *const scatter_tensor, updates: *const scatter_tensor,
                               out: *const scatter_tensor, grad_out: *const scatter_tensor,
                               options: *const scatter_options, grad_data: *const scatter_tensor,
                               grad_updates: *const scatter_tensor) -> scatter_status;
    /// Gradient of `scatter_gather_elements`: `grad_out` scatter-added into a zero `grad_data`.
    pub fn scatter_gather_elements_backward(context: scatter_context, indices: *const scatter_tensor,
                                            grad_out: *const scatter_tensor,
                                            options: *const scatter_gather_options,
                                            grad_data: *const scatter_tensor) -> scatter_status;
    /// Gradient of `scatter_gather_rows`, as `scatter_gather_elements_backward`.
    pub fn scatter_gather_rows_backward(context: scatter_context, indices: *const scatter_tensor,
                                        grad_out: *const scatter_tensor,
                                        options: *const scatter_gather_options,
                                        grad_data: *const scatter_tensor) -> scatter_status;
    /// Gradient of `scatter_gather_nd`, as `scatter_gather_elements_backward`.
    pub fn scatter_gather_nd_backward(context: scatter_context, indices: *const scatter_tensor,
                                      grad_out: *const scatter_tensor,
                                      options: *const scatter_gather_options,
                                      grad_data: *const scatter_tensor) -> scatter_status;

    /// Copies the profile of the last operation this thread ran on `context` into `*out`.
    pub fn scatter_last_profile(context: scatter_context, out: *mut scatter_profile)
                                -> scatter_status;

    /// Creates an empty batch on a Vulkan context.
    pub fn scatter_batch_create(context: scatter_context, out_batch: *mut scatter_batch)
                                -> scatter_status;
    /// Records one operation into the batch (`out` must be a buffer tensor).
    pub fn scatter_batch_record(batch: scatter_batch, op: scatter_op, data: *const scatter_tensor,
                                indices: *const scatter_tensor, updates: *const scatter_tensor,
                                options: *const scatter_options,
                                out: *const scatter_tensor) -> scatter_status;
    /// Submits every recorded operation in one queue submission, without waiting.
    pub fn scatter_batch_submit(batch: scatter_batch) -> scatter_status;
    /// Waits until a submitted batch has finished; the status of its first failed operation.
    pub fn scatter_batch_wait(batch: scatter_batch) -> scatter_status;
    /// Destroys a batch, first waiting for it if it was submitted. NULL is ignored.
    pub fn scatter_batch_destroy(batch: scatter_batch);

    /// Creates a Vulkan context on the application's device (or on its own device, with an
    /// initial pipeline cache).
    pub fn scatter_context_create_vulkan(desc: *const scatter_context_desc,
                                         device: *const scatter_vulkan_device_desc,
                                         out_context: *mut scatter_context) -> scatter_status;
    /// Wraps `size` bytes of an application VkBuffer at `offset` as a buffer (not owned).
    pub fn scatter_buffer_wrap_vulkan(context: scatter_context, vk_buffer: u64, offset: u64,
                                      size: u64, out_buffer: *mut scatter_buffer)
                                      -> scatter_status;
    /// Records one operation into the application's VkCommandBuffer without submitting it.
    pub fn scatter_record_vulkan(context: scatter_context, command_buffer: *mut c_void,
                                 op: scatter_op, data: *const scatter_tensor,
                                 indices: *const scatter_tensor, updates: *const scatter_tensor,
                                 options: *const scatter_options, out: *const scatter_tensor,
                                 out_recording: *mut scatter_recording) -> scatter_status;
    /// The result of a recorded operation, once its command buffer has finished executing.
    pub fn scatter_recording_result(recording: scatter_recording) -> scatter_status;
    /// Releases a recording's transient memory. NULL is ignored.
    pub fn scatter_recording_destroy(recording: scatter_recording);
    /// Copies the context's Vulkan pipeline cache (with `data` NULL: writes its size).
    pub fn scatter_pipeline_cache_data(context: scatter_context, data: *mut c_void,
                                       size: *mut usize) -> scatter_status;
}
