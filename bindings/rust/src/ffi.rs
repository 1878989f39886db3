//! Raw declarations of the C ABI (include/scatter/scatter.h) that this crate uses.
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_void};

pub type scatter_status = i32;
pub type scatter_context = *mut c_void;

pub const SCATTER_OK: scatter_status = 0;
/// SCATTER_VERSION_MAJOR of the header this crate was written against.
pub const SCATTER_VERSION_MAJOR: u32 = 0;
pub const SCATTER_DTYPE_I32: i32 = 7;
pub const SCATTER_DTYPE_I64: i32 = 8;
pub const SCATTER_OPTION_EXCLUDE_SELF: u32 = 0x1;

#[repr(C)]
pub struct scatter_tensor {
    pub struct_size: u32,
    pub dtype: i32,
    pub element_size: u32,
    pub rank: u32,
    pub shape: *const i64,
    pub strides: *const i64,
    pub data: *mut c_void,
    pub buffer: *mut c_void,
    pub byte_offset: u64,
}

#[repr(C)]
pub struct scatter_options {
    pub struct_size: u32,
    pub axis: i32,
    pub reduction: i32,
    pub out_of_range: i32,
    pub flags: u32,
}

#[repr(C)]
pub struct scatter_context_desc {
    pub struct_size: u32,
    pub backend: i32,
    pub device_index: i32,
    pub thread_count: u32,
    pub flags: u32,
    pub parallel_for: *mut c_void,
    pub parallel_for_user: *mut c_void,
    pub allocator: *const c_void,
    pub log: *mut c_void,
    pub log_user: *mut c_void,
}

pub type scatter_op_fn = unsafe extern "C" fn(
    scatter_context,
    *const scatter_tensor,
    *const scatter_tensor,
    *const scatter_tensor,
    *const scatter_options,
    *const scatter_tensor,
) -> scatter_status;

extern "C" {
    pub fn scatter_version() -> u32;
    pub fn scatter_version_string() -> *const c_char;
    pub fn scatter_status_name(status: scatter_status) -> *const c_char;
    pub fn scatter_last_error_message() -> *const c_char;
    pub fn scatter_context_create(
        desc: *const scatter_context_desc,
        out_context: *mut scatter_context,
    ) -> scatter_status;
    pub fn scatter_context_destroy(context: scatter_context);
    pub fn scatter_context_backend(context: scatter_context, out_backend: *mut i32) -> scatter_status;
    pub fn scatter_elements(
        context: scatter_context,
        data: *const scatter_tensor,
        indices: *const scatter_tensor,
        updates: *const scatter_tensor,
        options: *const scatter_options,
        out: *const scatter_tensor,
    ) -> scatter_status;
    pub fn scatter_rows(
        context: scatter_context,
        data: *const scatter_tensor,
        indices: *const scatter_tensor,
        updates: *const scatter_tensor,
        options: *const scatter_options,
        out: *const scatter_tensor,
    ) -> scatter_status;
    pub fn scatter_nd(
        context: scatter_context,
        data: *const scatter_tensor,
        indices: *const scatter_tensor,
        updates: *const scatter_tensor,
        options: *const scatter_options,
        out: *const scatter_tensor,
    ) -> scatter_status;
}
