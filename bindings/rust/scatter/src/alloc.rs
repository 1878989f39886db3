//! Fallible host allocation for every length that comes from the caller (a view's element
//! count, a `to_vec` length): `Vec::with_capacity` and `vec!` abort the process when the memory
//! is not there, and a 2^40-element output must fail like any other call, with `OutOfMemory`.
use std::mem::size_of;
use std::ptr;

use crate::dtype::Element;
use crate::error::{Error, Result, Status};

/// An empty `Vec` with room for exactly `len` elements, or `OutOfMemory`.
pub(crate) fn vec_with_capacity<T>(len: usize) -> Result<Vec<T>> {
    let mut out = Vec::new();
    out.try_reserve_exact(len).map_err(|_| {
        // u128: the byte count of a length near usize::MAX overflows usize.
        let bytes = len as u128 * size_of::<T>() as u128;
        Error::new(Status::OutOfMemory, format!(
            "{len} elements of {} bytes ({bytes} bytes) could not be allocated in host memory",
            size_of::<T>()))
    })?;
    Ok(out)
}

/// A `Vec` of `len` all-zero elements (valid for every [`Element`] by its contract), or
/// `OutOfMemory`.
pub(crate) fn zeroed_vec<T: Element>(len: usize) -> Result<Vec<T>> {
    let mut out = vec_with_capacity::<T>(len)?;
    // SAFETY: the capacity is at least `len`, and all-zero bytes are a valid T (Element's
    // contract).
    unsafe {
        ptr::write_bytes(out.as_mut_ptr(), 0, len);
        out.set_len(len);
    }
    Ok(out)
}
