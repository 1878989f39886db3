//! [`Buffer`]: memory owned by a context (device memory on Vulkan, host memory on the CPU).
use std::fmt;
use std::mem::size_of;
use std::ptr;

use crate::alloc::zeroed_vec;
use crate::context::Context;
use crate::dtype::{DType, Element};
use crate::error::{check, Result};
use crate::sys;
use crate::tensor::{TensorView, TensorViewMut};

/// A byte buffer owned by a [`Context`]: device memory on Vulkan (operations on it run there,
/// with no host round trip), host memory on the CPU. It starts as zeros and keeps its context
/// alive. Reading takes `&self`; writing, and views that operations write, take `&mut self`,
/// so Rust's borrow rules keep concurrent calls from writing memory another call uses.
///
/// ```
/// use scatter::{Buffer, Context, Op, Options, Reduction};
/// let ctx = Context::cpu()?;
/// let mut data = Buffer::from_slice(&ctx, &[1.0f32, 2.0, 3.0])?;
/// let mut view = data.view_mut::<f32>(0, &[3])?;
/// let add = Options { reduction: Reduction::Add, ..Options::default() };
/// ctx.scatter_in_place(Op::Elements, &mut view, &[2i32], &[10.0f32], &add)?;
/// assert_eq!(data.to_vec::<f32>(0, 3)?, [1.0, 2.0, 13.0]);
/// # Ok::<(), scatter::Error>(())
/// ```
pub struct Buffer {
    raw: sys::scatter_buffer,
    context: Context,
}

// SAFETY: every buffer function is thread-safe; writes need `&mut Buffer`.
unsafe impl Send for Buffer {}
unsafe impl Sync for Buffer {}

impl Buffer {
    /// A zero-filled buffer of `size` bytes on `context`.
    pub fn new(context: &Context, size: u64) -> Result<Buffer> {
        let mut raw = ptr::null_mut();
        // SAFETY: the context handle is alive (held by `context`).
        check(unsafe { sys::scatter_buffer_create(context.as_raw(), size, &mut raw) })?;
        Ok(Buffer { raw, context: context.clone() })
    }

    /// A buffer holding a copy of `data`.
    pub fn from_slice<T: Element>(context: &Context, data: &[T]) -> Result<Buffer> {
        let mut buffer = Buffer::new(context, std::mem::size_of_val(data) as u64)?;
        buffer.write(0, data)?;
        Ok(buffer)
    }

    /// Wraps `size` bytes of an application `VkBuffer` at `offset` (not owned: dropping the
    /// wrapper leaves the VkBuffer alone).
    ///
    /// # Safety
    /// `vk_buffer` is a VkBuffer of the context's Vulkan device with storage-buffer usage (and
    /// transfer source/destination usage for [`read`](Self::read)/[`write`](Self::write)) and
    /// bound memory, it outlives the returned `Buffer`, and nothing else writes the range while
    /// the wrapper is in use.
    pub unsafe fn wrap_vulkan(context: &Context, vk_buffer: u64, offset: u64, size: u64) -> Result<Buffer> {
        let mut raw = ptr::null_mut();
        check(sys::scatter_buffer_wrap_vulkan(context.as_raw(), vk_buffer, offset, size, &mut raw))?;
        Ok(Buffer { raw, context: context.clone() })
    }

    /// Size in bytes.
    pub fn size(&self) -> u64 {
        // SAFETY: the handle is alive.
        unsafe { sys::scatter_buffer_size(self.raw) }
    }

    /// The context the buffer belongs to.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// The C handle, for calls through [`scatter::sys`](crate::sys); valid while `self` is.
    pub fn as_raw(&self) -> sys::scatter_buffer {
        self.raw
    }

    /// Copies `src` into the buffer at `byte_offset`. On failure (`InvalidArgument`: a range
    /// outside the buffer) the buffer is unchanged.
    pub fn write<T: Element>(&mut self, byte_offset: u64, src: &[T]) -> Result<()> {
        // SAFETY: src is valid for its byte length; the library checks the range.
        check(unsafe {
            sys::scatter_buffer_write(self.raw, byte_offset, src.as_ptr().cast(),
                                      std::mem::size_of_val(src) as u64)
        })
    }

    /// Fills `dst` with the buffer's bytes at `byte_offset`. For `bool`, any nonzero byte reads
    /// as `true` (the library's rule). On failure `dst` is unchanged.
    pub fn read<T: Element>(&self, byte_offset: u64, dst: &mut [T]) -> Result<()> {
        let bytes = std::mem::size_of_val(dst);
        if T::DTYPE == DType::Bool {
            let mut raw = zeroed_vec::<u8>(bytes)?;
            // SAFETY: raw holds `bytes` bytes; the library checks the range.
            check(unsafe { sys::scatter_buffer_read(self.raw, byte_offset, raw.as_mut_ptr().cast(), bytes as u64) })?;
            for (d, chunk) in dst.iter_mut().zip(raw.chunks_exact(size_of::<T>())) {
                *d = element_from_bytes::<T>(chunk);
            }
            return Ok(());
        }
        // SAFETY: every byte pattern is a valid T for every Element but bool (the trait's
        // contract), handled above; the library checks the range.
        check(unsafe { sys::scatter_buffer_read(self.raw, byte_offset, dst.as_mut_ptr().cast(), bytes as u64) })
    }

    /// `len` elements of type `T` read from `byte_offset`. `OutOfMemory` when the host memory
    /// for them cannot be allocated.
    pub fn to_vec<T: Element>(&self, byte_offset: u64, len: usize) -> Result<Vec<T>> {
        let mut out = zeroed_vec::<T>(len)?;
        self.read(byte_offset, &mut out)?;
        Ok(out)
    }

    /// Copies `size` bytes from `src` at `src_offset` into this buffer at `dst_offset`, on the
    /// device (no host round trip). Both buffers must belong to the same context.
    pub fn copy_from(&mut self, dst_offset: u64, src: &Buffer, src_offset: u64, size: u64) -> Result<()> {
        // SAFETY: both handles are alive; the library checks contexts and ranges.
        check(unsafe { sys::scatter_buffer_copy(src.raw, src_offset, self.raw, dst_offset, size) })
    }

    /// Copies `size` bytes from `src_offset` to `dst_offset` within this buffer (the ranges
    /// must not overlap).
    pub fn copy_within(&mut self, src_offset: u64, dst_offset: u64, size: u64) -> Result<()> {
        // SAFETY: the handle is alive; the library checks the ranges.
        check(unsafe { sys::scatter_buffer_copy(self.raw, src_offset, self.raw, dst_offset, size) })
    }

    /// A contiguous row-major view of `T`s at `byte_offset`, to pass as an input.
    /// `InvalidArgument` when it does not fit in the buffer.
    pub fn view<T: Element>(&self, byte_offset: u64, shape: &[usize]) -> Result<TensorView<'_, T>> {
        TensorView::in_buffer_range(shape, None, self.raw, self.size(), byte_offset)
    }

    /// A strided view (element strides, negative allowed) with element 0 at `byte_offset`.
    pub fn view_strided<T: Element>(&self, byte_offset: u64, shape: &[usize], strides: &[isize])
                                    -> Result<TensorView<'_, T>> {
        TensorView::in_buffer_range(shape, Some(strides), self.raw, self.size(), byte_offset)
    }

    /// A writable contiguous view, to pass as `out` (or as data of an in-place operation).
    pub fn view_mut<T: Element>(&mut self, byte_offset: u64, shape: &[usize]) -> Result<TensorViewMut<'_, T>> {
        TensorViewMut::in_buffer_range(shape, None, self.raw, self.size(), byte_offset)
    }

    /// A writable strided view (no two positions may share an element).
    pub fn view_mut_strided<T: Element>(&mut self, byte_offset: u64, shape: &[usize], strides: &[isize])
                                        -> Result<TensorViewMut<'_, T>> {
        TensorViewMut::in_buffer_range(shape, Some(strides), self.raw, self.size(), byte_offset)
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        // SAFETY: no view borrows the buffer any more, so no operation uses it; the context
        // outlives it (this buffer holds a reference).
        unsafe { sys::scatter_buffer_destroy(self.raw) }
    }
}

impl fmt::Debug for Buffer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Buffer").field("size", &self.size()).finish()
    }
}

/// One element from its bytes (`bytes.len() == size_of::<T>()`); a nonzero bool byte is true.
pub(crate) fn element_from_bytes<T: Element>(bytes: &[u8]) -> T {
    debug_assert_eq!(bytes.len(), size_of::<T>());
    if T::DTYPE == DType::Bool {
        let value = bytes[0] != 0;
        // SAFETY: T is bool-like (one byte; 0 and 1 valid) by Element's contract for Bool.
        return unsafe { ptr::read((&(value as u8) as *const u8).cast::<T>()) };
    }
    // SAFETY: every byte pattern is a valid T for every other dtype (Element's contract).
    unsafe { ptr::read_unaligned(bytes.as_ptr().cast::<T>()) }
}
