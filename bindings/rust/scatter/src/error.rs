//! [`Error`]: a libscatter status with the library's one-sentence message.
use std::ffi::{c_char, CStr};
use std::fmt;

use crate::sys;

/// The failure statuses of `scatter_status`; the values are pinned by the C ABI.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Null pointer, bad enum, bad axis, bad option, overlapping out, a range outside a buffer
    /// or integer division by zero.
    InvalidArgument,
    /// Dtypes of the tensors do not fit together.
    TypeMismatch,
    /// Shapes or ranks of the tensors do not fit together.
    ShapeMismatch,
    /// An index is outside its dimension.
    IndexOutOfRange,
    /// The combination is valid but not supported (dtype/reduction pair, device feature).
    Unsupported,
    /// Host or device memory could not be allocated.
    OutOfMemory,
    /// The requested backend or device is not present.
    BackendUnavailable,
    /// The device was lost.
    DeviceLost,
    /// An internal error of the library.
    Internal,
    /// A status this binding does not know (from a newer library).
    Unknown(i32),
}

impl Status {
    /// The status of a C status code; `None` for `SCATTER_OK`.
    pub fn from_code(code: i32) -> Option<Status> {
        Some(match code {
            sys::SCATTER_OK => return None,
            sys::SCATTER_ERROR_INVALID_ARGUMENT => Status::InvalidArgument,
            sys::SCATTER_ERROR_TYPE_MISMATCH => Status::TypeMismatch,
            sys::SCATTER_ERROR_SHAPE_MISMATCH => Status::ShapeMismatch,
            sys::SCATTER_ERROR_INDEX_OUT_OF_RANGE => Status::IndexOutOfRange,
            sys::SCATTER_ERROR_UNSUPPORTED => Status::Unsupported,
            sys::SCATTER_ERROR_OUT_OF_MEMORY => Status::OutOfMemory,
            sys::SCATTER_ERROR_BACKEND_UNAVAILABLE => Status::BackendUnavailable,
            sys::SCATTER_ERROR_DEVICE_LOST => Status::DeviceLost,
            sys::SCATTER_ERROR_INTERNAL => Status::Internal,
            other => Status::Unknown(other),
        })
    }

    /// The C status code.
    pub fn code(self) -> i32 {
        match self {
            Status::InvalidArgument => sys::SCATTER_ERROR_INVALID_ARGUMENT,
            Status::TypeMismatch => sys::SCATTER_ERROR_TYPE_MISMATCH,
            Status::ShapeMismatch => sys::SCATTER_ERROR_SHAPE_MISMATCH,
            Status::IndexOutOfRange => sys::SCATTER_ERROR_INDEX_OUT_OF_RANGE,
            Status::Unsupported => sys::SCATTER_ERROR_UNSUPPORTED,
            Status::OutOfMemory => sys::SCATTER_ERROR_OUT_OF_MEMORY,
            Status::BackendUnavailable => sys::SCATTER_ERROR_BACKEND_UNAVAILABLE,
            Status::DeviceLost => sys::SCATTER_ERROR_DEVICE_LOST,
            Status::Internal => sys::SCATTER_ERROR_INTERNAL,
            Status::Unknown(code) => code,
        }
    }

    /// The C enumerator's name, e.g. `"SCATTER_ERROR_INDEX_OUT_OF_RANGE"`
    /// (`"SCATTER_STATUS_UNKNOWN"` for [`Status::Unknown`]), as `scatter_status_name` says.
    pub fn name(self) -> &'static str {
        self.entry().map_or("SCATTER_STATUS_UNKNOWN", |e| e.0)
    }

    /// The header's one-line description of the status ("an index is outside its dimension").
    pub fn description(self) -> &'static str {
        self.entry().map_or("a status this binding does not know", |e| e.2)
    }

    fn entry(self) -> Option<&'static (&'static str, i32, &'static str)> {
        let code = self.code();
        sys::SCATTER_STATUS_LIST.iter().find(|e| e.1 == code && code != sys::SCATTER_OK)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A failed call: its status and the library's message naming the offending value
/// (`"indices[1] = 7 is outside [-3, 3) on axis 0"`). Displays as `"NAME: message"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// What failed.
    pub status: Status,
    /// One sentence naming the offending value.
    pub message: String,
}

/// `Result<T, scatter::Error>`.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// An error with this status and message (the binding's own checks use it too).
    pub fn new(status: Status, message: impl Into<String>) -> Error {
        Error { status, message: message.into() }
    }

    /// The status's C name, e.g. `"SCATTER_ERROR_SHAPE_MISMATCH"`.
    pub fn name(&self) -> &'static str {
        self.status.name()
    }

    /// The error of a failed C call, with this thread's last-error message.
    pub(crate) fn from_last_call(code: sys::scatter_status) -> Error {
        // SAFETY: the message is NUL-terminated and valid until the next call on this thread.
        let message = unsafe { text(sys::scatter_last_error_message()) };
        Error { status: Status::from_code(code).unwrap_or(Status::Internal), message }
    }
}

/// Copies a C string (NULL gives "").
///
/// # Safety
/// `ptr` is NULL or a valid NUL-terminated string.
pub(crate) unsafe fn text(ptr: *const c_char) -> String {
    if ptr.is_null() {
        return String::new();
    }
    CStr::from_ptr(ptr).to_string_lossy().into_owned()
}

/// A NUL-terminated string in a fixed array (the device and profile names).
pub(crate) fn array_text(chars: &[c_char]) -> String {
    let bytes: Vec<u8> = chars.iter().take_while(|&&c| c != 0).map(|&c| c as u8).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// `Ok(())` for SCATTER_OK, else the error of the last call.
pub(crate) fn check(code: sys::scatter_status) -> Result<()> {
    if code == sys::SCATTER_OK {
        Ok(())
    } else {
        Err(Error::from_last_call(code))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.status.name(), self.message)
    }
}

impl std::error::Error for Error {}
