//! [`Context`] and its [`ContextOptions`]: backend, device, threads, determinism, validation,
//! profiling, logging.
use std::ffi::{c_char, c_void, CStr};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;
use std::sync::Arc;

use crate::alloc::zeroed_vec;
use crate::buffer::Buffer;
use crate::error::{array_text, check, text, Error, Result, Status};
use crate::sys;

/// Where operations run (`scatter_backend`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum Backend {
    /// A usable Vulkan GPU when there is one (discrete, integrated or virtual; CPU-type Vulkan
    /// devices such as lavapipe never count): operations on buffers run there, operations on
    /// host memory where a measured cost model predicts them to finish first. Else the CPU.
    #[default]
    Auto = sys::SCATTER_BACKEND_AUTO,
    /// The CPU backend.
    Cpu = sys::SCATTER_BACKEND_CPU,
    /// The Vulkan backend (any Vulkan device, lavapipe included).
    Vulkan = sys::SCATTER_BACKEND_VULKAN,
}

impl Backend {
    /// The C value.
    pub fn code(self) -> i32 {
        self as i32
    }

    /// The backend of a C value, if it is one.
    pub fn from_code(code: i32) -> Option<Backend> {
        [Backend::Auto, Backend::Cpu, Backend::Vulkan].into_iter().find(|b| b.code() == code)
    }

    /// "auto", "cpu" or "vulkan".
    pub fn name(self) -> &'static str {
        match self {
            Backend::Auto => "auto",
            Backend::Cpu => "cpu",
            Backend::Vulkan => "vulkan",
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `"cpu".parse::<Backend>()`: "auto", "cpu" or "vulkan".
impl std::str::FromStr for Backend {
    type Err = Error;
    fn from_str(name: &str) -> Result<Backend> {
        [Backend::Auto, Backend::Cpu, Backend::Vulkan].into_iter().find(|b| b.name() == name)
            .ok_or_else(|| Error::new(Status::InvalidArgument,
                                      format!("backend {name:?} is not one of auto, cpu, vulkan")))
    }
}

/// The level of a log line (`scatter_log_level`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogLevel {
    /// AUTO's measured cost model and each call's route.
    Debug,
    /// What a context uses and why; the Vulkan device and its features.
    Info,
    /// A GPU present but unusable, a missing validation layer, fewer threads than asked for.
    Warning,
    /// Validation-layer errors.
    Error,
}

impl LogLevel {
    fn from_code(code: i32) -> LogLevel {
        match code {
            sys::SCATTER_LOG_DEBUG => LogLevel::Debug,
            sys::SCATTER_LOG_INFO => LogLevel::Info,
            sys::SCATTER_LOG_WARNING => LogLevel::Warning,
            _ => LogLevel::Error,
        }
    }
}

/// Receives the library's log lines. Called from any thread that uses the context, possibly
/// concurrently; a panic in it is caught and reported on stderr, never unwound into C.
pub type LogHandler = Arc<dyn Fn(LogLevel, &str) + Send + Sync>;

/// How to create a [`Context`]. `ContextOptions::default()` is the AUTO backend, the device
/// chosen automatically, one thread per hardware thread, deterministic results, no validation
/// layer, no profiling, no log handler.
#[derive(Clone)]
pub struct ContextOptions {
    /// Where operations run.
    pub backend: Backend,
    /// The Vulkan device: an index from [`devices`](crate::devices) ([`Device::index`](crate::Device::index)), or
    /// `None` to choose (discrete > integrated > virtual > CPU type).
    pub device: Option<u32>,
    /// CPU threads in all, the calling thread's included; 0 means one per hardware thread.
    pub threads: u32,
    /// `false` allows faster paths whose float results may depend on the order in which
    /// duplicate indices are applied (`SCATTER_CONTEXT_FLAG_ALLOW_NONDETERMINISM`).
    pub deterministic: bool,
    /// Vulkan: enable the validation layer when installed; its messages go to `log`.
    pub validation: bool,
    /// Time every operation; read the times with [`Context::last_profile`].
    pub profile: bool,
    /// Where the library's log lines go; `None` drops them.
    pub log: Option<LogHandler>,
    /// Vulkan: a pipeline cache from [`Context::pipeline_cache_data`] of an earlier run, so
    /// shaders need not be compiled again (one from another device or driver is ignored).
    pub pipeline_cache: Option<Vec<u8>>,
}

impl Default for ContextOptions {
    fn default() -> Self {
        ContextOptions {
            backend: Backend::Auto,
            device: None,
            threads: 0,
            deterministic: true,
            validation: false,
            profile: false,
            log: None,
            pipeline_cache: None,
        }
    }
}

impl fmt::Debug for ContextOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ContextOptions")
            .field("backend", &self.backend)
            .field("device", &self.device)
            .field("threads", &self.threads)
            .field("deterministic", &self.deterministic)
            .field("validation", &self.validation)
            .field("profile", &self.profile)
            .field("log", &self.log.as_ref().map(|_| "<handler>"))
            .field("pipeline_cache", &self.pipeline_cache.as_ref().map(|c| c.len()))
            .finish()
    }
}

struct Inner {
    raw: sys::scatter_context,
    _log: Option<Box<LogHandler>>, // log_user points here until the context is destroyed
}

// SAFETY: every libscatter function is thread-safe, and one context may be used from several
// threads at once; the log handler is Send + Sync.
unsafe impl Send for Inner {}
unsafe impl Sync for Inner {}

impl Drop for Inner {
    fn drop(&mut self) {
        // SAFETY: the last handle is gone: no call uses the context and no buffer or batch of it
        // is left (each holds a handle).
        unsafe { sys::scatter_context_destroy(self.raw) }
    }
}

/// A libscatter context: a backend, its device, threads and caches. Cloning is cheap and gives
/// another handle to the same context; it is destroyed with its last handle (buffers and
/// batches hold one). A context may be used from several threads at once.
///
/// ```
/// use scatter::{Backend, Context, ContextOptions};
/// let ctx = Context::new(ContextOptions { backend: Backend::Cpu, threads: 2, ..Default::default() })?;
/// assert_eq!(ctx.backend(), Backend::Cpu);
/// # Ok::<(), scatter::Error>(())
/// ```
#[derive(Clone)]
pub struct Context {
    inner: Arc<Inner>,
}

unsafe extern "C" fn log_trampoline(user: *mut c_void, level: sys::scatter_log_level, message: *const c_char) {
    if user.is_null() {
        return;
    }
    // SAFETY: user is the Box<LogHandler> the context holds until it is destroyed; the message
    // is a NUL-terminated line valid during this call.
    let handler = unsafe { &*(user as *const LogHandler) };
    let line = if message.is_null() { Default::default() } else { unsafe { CStr::from_ptr(message) }.to_string_lossy() };
    if catch_unwind(AssertUnwindSafe(|| handler(LogLevel::from_code(level), &line))).is_err() {
        eprintln!("scatter: the log handler panicked on: {line}");
    }
}

impl Context {
    /// Creates a context. Fails with `BackendUnavailable` when the backend or device asked for
    /// is not there, `InvalidArgument` for a device index beyond `i32::MAX`, `Unsupported` when
    /// the loaded library's major version differs from this binding's.
    pub fn new(options: ContextOptions) -> Result<Context> {
        check_library_version()?;
        let device_index = match options.device {
            None => -1,
            Some(index) => i32::try_from(index).map_err(|_| Error::new(Status::InvalidArgument,
                format!("device index {index} is beyond any device")))?,
        };
        let mut flags = 0;
        if !options.deterministic {
            flags |= sys::SCATTER_CONTEXT_FLAG_ALLOW_NONDETERMINISM;
        }
        if options.validation {
            flags |= sys::SCATTER_CONTEXT_FLAG_VALIDATION;
        }
        if options.profile {
            flags |= sys::SCATTER_CONTEXT_FLAG_PROFILE;
        }
        let log = options.log.map(Box::new);
        let desc = sys::scatter_context_desc {
            backend: options.backend.code(),
            device_index,
            thread_count: options.threads,
            flags,
            log: log.as_ref().map(|_| log_trampoline as unsafe extern "C" fn(_, _, _)),
            log_user: log.as_ref().map_or(ptr::null_mut(), |b| &**b as *const LogHandler as *mut c_void),
            ..sys::SCATTER_CONTEXT_DESC_INIT
        };
        let mut raw = ptr::null_mut();
        match &options.pipeline_cache {
            None => {
                // SAFETY: desc is valid; log_user stays valid for the context's life (moved
                // into Inner below, a heap box that does not move).
                check(unsafe { sys::scatter_context_create(&desc, &mut raw) })?
            }
            Some(cache) => {
                let device = sys::scatter_vulkan_device_desc {
                    pipeline_cache_data: cache.as_ptr().cast(),
                    pipeline_cache_size: cache.len(),
                    ..sys::SCATTER_VULKAN_DEVICE_DESC_INIT
                };
                // SAFETY: as above; with no application device the library creates its own.
                check(unsafe { sys::scatter_context_create_vulkan(&desc, &device, &mut raw) })?
            }
        }
        Ok(Context { inner: Arc::new(Inner { raw, _log: log }) })
    }

    /// A CPU context with one thread per hardware thread.
    pub fn cpu() -> Result<Context> {
        Context::new(ContextOptions { backend: Backend::Cpu, ..ContextOptions::default() })
    }

    /// The backend the context runs on: `Cpu` or `Vulkan`, never `Auto` (an AUTO context that
    /// routes calls between the CPU and a GPU reports `Vulkan`, the home of its buffers).
    pub fn backend(&self) -> Backend {
        let mut code = sys::SCATTER_BACKEND_CPU;
        // SAFETY: the handle is alive and `code` is a valid output.
        let status = unsafe { sys::scatter_context_backend(self.inner.raw, &mut code) };
        if status != sys::SCATTER_OK {
            return Backend::Cpu;
        }
        Backend::from_code(code).unwrap_or(Backend::Cpu)
    }

    /// The C handle, for calls through [`scatter::sys`](crate::sys) (engine interop); valid as
    /// long as this context (or a clone) is alive.
    pub fn as_raw(&self) -> sys::scatter_context {
        self.inner.raw
    }

    /// A zero-filled buffer of `size` bytes on this context.
    pub fn buffer(&self, size: u64) -> Result<Buffer> {
        Buffer::new(self, size)
    }

    /// The Vulkan pipeline cache (compiled shaders of every pipeline created so far), for
    /// [`ContextOptions::pipeline_cache`] on a later run. `Unsupported` on a CPU context.
    pub fn pipeline_cache_data(&self) -> Result<Vec<u8>> {
        let mut size = 0usize;
        // SAFETY: NULL data asks for the size.
        check(unsafe { sys::scatter_pipeline_cache_data(self.inner.raw, ptr::null_mut(), &mut size) })?;
        let mut data = zeroed_vec::<u8>(size)?;
        // SAFETY: data has `size` bytes of capacity.
        check(unsafe { sys::scatter_pipeline_cache_data(self.inner.raw, data.as_mut_ptr().cast(), &mut size) })?;
        data.truncate(size);
        Ok(data)
    }

    /// The profile of the last operation this thread ran on this context. Needs
    /// [`ContextOptions::profile`]; `InvalidArgument` without it, or when this thread has run
    /// no operation on the context since.
    pub fn last_profile(&self) -> Result<Profile> {
        let mut raw = sys::scatter_profile::default();
        // SAFETY: raw is a valid output with struct_size set.
        check(unsafe { sys::scatter_last_profile(self.inner.raw, &mut raw) })?;
        let passes = raw.passes[..(raw.pass_count as usize).min(raw.passes.len())]
            .iter()
            .map(|p| ProfilePass { name: array_text(&p.name), invocations: p.invocations, time_us: p.time_us })
            .collect();
        Ok(Profile {
            backend: Backend::from_code(raw.backend).unwrap_or(Backend::Cpu),
            status: Status::from_code(raw.status),
            validate_us: raw.validate_us,
            record_us: raw.record_us,
            submit_us: raw.submit_us,
            wait_us: raw.wait_us,
            read_back_us: raw.read_back_us,
            total_us: raw.total_us,
            gpu_us: raw.gpu_us,
            route: array_text(&raw.route),
            passes,
        })
    }
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context").field("backend", &self.backend()).finish()
    }
}

/// One pass of a profiled operation: a GPU dispatch, fill or copy, or the CPU kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct ProfilePass {
    /// E.g. "validate_elements", "copy", "winner", "atomic_apply".
    pub name: String,
    /// Shader invocations launched; 0 for fills, copies and the CPU.
    pub invocations: u64,
    /// GPU time between the pass's timestamps (Vulkan) or wall time (CPU), in microseconds.
    pub time_us: f64,
}

/// The profile of one operation ([`Context::last_profile`]); times in microseconds, 0 for a
/// stage the backend does not have.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// The backend that ran the operation (`Cpu` or `Vulkan`).
    pub backend: Backend,
    /// What the call returned: `None` for success.
    pub status: Option<Status>,
    /// Checking descriptors, shapes and options on the host.
    pub validate_us: f64,
    /// Vulkan: staging host inputs and recording the command buffer.
    pub record_us: f64,
    /// Vulkan: vkQueueSubmit.
    pub submit_us: f64,
    /// Vulkan: waiting for the GPU.
    pub wait_us: f64,
    /// Vulkan: result checks and copying host outputs back.
    pub read_back_us: f64,
    /// The whole call.
    pub total_us: f64,
    /// Vulkan: first to last timestamp.
    pub gpu_us: f64,
    /// Why this backend ran the call (AUTO contexts), else empty.
    pub route: String,
    /// The passes, in order.
    pub passes: Vec<ProfilePass>,
}

/// The loaded library's version string, e.g. "0.1.0".
pub fn version() -> String {
    // SAFETY: a static NUL-terminated string.
    unsafe { text(sys::scatter_version_string()) }
}

/// The loaded library's version as (major, minor, patch).
pub fn version_numbers() -> (u32, u32, u32) {
    // SAFETY: never fails.
    let packed = unsafe { sys::scatter_version() };
    (packed >> 22, (packed >> 12) & 0x3ff, packed & 0xfff)
}

fn check_library_version() -> Result<()> {
    let (major, _, _) = version_numbers();
    if major != sys::SCATTER_VERSION_MAJOR {
        return Err(Error::new(Status::Unsupported, format!(
            "the loaded libscatter is version {}, this binding needs major version {}",
            version(), sys::SCATTER_VERSION_MAJOR)));
    }
    Ok(())
}
