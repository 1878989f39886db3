//! ScatterError: a libscatter status with the library's one-sentence message.
use std::ffi::CStr;
use std::fmt;

use crate::ffi;

/// The failure statuses of scatter.h; values are pinned by the C ABI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    InvalidArgument,
    TypeMismatch,
    ShapeMismatch,
    IndexOutOfRange,
    Unsupported,
    OutOfMemory,
    BackendUnavailable,
    DeviceLost,
    Internal,
    Unknown(i32),
}

impl Status {
    fn from_raw(raw: ffi::scatter_status) -> Status {
        match raw {
            1 => Status::InvalidArgument,
            2 => Status::TypeMismatch,
            3 => Status::ShapeMismatch,
            4 => Status::IndexOutOfRange,
            5 => Status::Unsupported,
            6 => Status::OutOfMemory,
            7 => Status::BackendUnavailable,
            8 => Status::DeviceLost,
            9 => Status::Internal,
            other => Status::Unknown(other),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScatterError {
    pub status: Status,
    /// The status name, e.g. "SCATTER_ERROR_INDEX_OUT_OF_RANGE".
    pub name: String,
    pub message: String,
}

impl ScatterError {
    /// The error of a failed call, with this thread's last-error message.
    pub(crate) fn from_last_call(raw: ffi::scatter_status) -> ScatterError {
        // SAFETY: both functions return static or thread-local NUL-terminated strings.
        let (name, message) = unsafe {
            (text(ffi::scatter_status_name(raw)), text(ffi::scatter_last_error_message()))
        };
        ScatterError { status: Status::from_raw(raw), name, message }
    }

    /// An error found by the wrapper before calling the library.
    pub(crate) fn local(status: Status, name: &str, message: String) -> ScatterError {
        ScatterError { status, name: name.to_string(), message }
    }
}

pub(crate) unsafe fn text(ptr: *const std::os::raw::c_char) -> String {
    if ptr.is_null() {
        return String::new();
    }
    CStr::from_ptr(ptr).to_string_lossy().into_owned()
}

pub(crate) fn check(raw: ffi::scatter_status) -> Result<(), ScatterError> {
    if raw == ffi::SCATTER_OK {
        Ok(())
    } else {
        Err(ScatterError::from_last_call(raw))
    }
}

impl fmt::Display for ScatterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.message)
    }
}

impl std::error::Error for ScatterError {}
