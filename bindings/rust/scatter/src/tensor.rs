//! Tensor views: [`TensorView`] (read) and [`TensorViewMut`] (written) over host slices or
//! [`Buffer`](crate::Buffer)s, with a shape and optional element strides.
use std::ffi::c_void;
use std::fmt;
use std::marker::PhantomData;
use std::mem::size_of;
use std::ptr;

use crate::alloc::{vec_with_capacity, zeroed_vec};
use crate::dtype::{DType, Element};
use crate::error::{Error, Result, Status};
use crate::sys;

/// The largest rank any tensor may have (`SCATTER_MAX_RANK`).
pub const MAX_RANK: usize = sys::SCATTER_MAX_RANK as usize;

/// Shape and strides of a view, checked at construction.
#[derive(Clone, Copy)]
pub(crate) struct Layout {
    rank: usize,
    shape: [usize; MAX_RANK],
    strides: [isize; MAX_RANK], // in elements; the row-major ones when not `strided`
    strided: bool,              // explicit strides (passed to C), else NULL: row-major
    count: usize,
}

impl Layout {
    fn contiguous(shape: &[usize]) -> Result<Layout> {
        let mut layout = Layout::empty(shape)?;
        let mut step: usize = 1;
        for d in (0..layout.rank).rev() {
            layout.strides[d] = step as isize;
            step = step.saturating_mul(shape[d].max(1));
        }
        Ok(layout)
    }

    /// One dimension of `len` elements (a slice's length: it fits in i64 for every element type
    /// of nonzero size; the size is checked before any call).
    fn vector(len: usize) -> Layout {
        let mut layout = Layout { rank: 1, shape: [0; MAX_RANK], strides: [0; MAX_RANK], strided: false, count: len };
        layout.shape[0] = len;
        layout.strides[0] = 1;
        layout
    }

    fn strided(shape: &[usize], strides: &[isize]) -> Result<Layout> {
        if strides.len() != shape.len() {
            return Err(Error::new(Status::ShapeMismatch, format!(
                "{} strides given for a shape of rank {}", strides.len(), shape.len())));
        }
        let mut layout = Layout::empty(shape)?;
        layout.strides[..shape.len()].copy_from_slice(strides);
        layout.strided = true;
        Ok(layout)
    }

    fn empty(shape: &[usize]) -> Result<Layout> {
        if shape.len() > MAX_RANK {
            return Err(Error::new(Status::ShapeMismatch, format!(
                "rank {} exceeds the maximum rank {MAX_RANK}", shape.len())));
        }
        let mut count: Option<usize> = Some(1);
        for (d, &n) in shape.iter().enumerate() {
            if i64::try_from(n).is_err() {
                return Err(Error::new(Status::ShapeMismatch, format!(
                    "shape[{d}] = {n} does not fit in a 64-bit signed integer")));
            }
            count = count.and_then(|c| c.checked_mul(n));
        }
        let count = match count {
            Some(c) => c,
            None if shape.contains(&0) => 0,
            None => return Err(Error::new(Status::ShapeMismatch, format!(
                "shape {shape:?} has more elements than memory can hold"))),
        };
        let mut dims = [0usize; MAX_RANK];
        dims[..shape.len()].copy_from_slice(shape);
        Ok(Layout { rank: shape.len(), shape: dims, strides: [0; MAX_RANK], strided: false, count })
    }

    pub(crate) fn shape(&self) -> &[usize] {
        &self.shape[..self.rank]
    }

    /// Lowest and highest element offset from element 0 (both 0 when empty).
    fn extent(&self) -> (i128, i128) {
        if self.count == 0 {
            return (0, 0);
        }
        let (mut low, mut high) = (0i128, 0i128);
        for d in 0..self.rank {
            let reach = (self.shape[d] as i128 - 1) * self.strides[d] as i128;
            if reach < 0 { low += reach } else { high += reach }
        }
        (low, high)
    }

    /// The element offsets from element 0 must stay inside `[0, len)` of a slice whose element
    /// 0 is at `offset`.
    fn check_fits(&self, offset: usize, len: usize) -> Result<()> {
        let (low, high) = self.extent();
        if self.count == 0 {
            if offset > len {
                return Err(Error::new(Status::InvalidArgument, format!(
                    "offset {offset} is past the end of a slice of {len} elements")));
            }
            return Ok(());
        }
        let (first, last) = (offset as i128 + low, offset as i128 + high);
        if first < 0 || last >= len as i128 {
            return Err(Error::new(Status::InvalidArgument, format!(
                "shape {:?} with strides {:?} at offset {offset} reaches elements [{first}, {last}] \
                 of a slice of {len}", self.shape(), &self.strides[..self.rank])));
        }
        Ok(())
    }

    /// Sufficient test that no two elements share memory (the library's own rule for `out`):
    /// sorted by |stride|, each stride must jump past everything the smaller ones reach.
    fn check_no_self_overlap(&self) -> Result<()> {
        if self.count <= 1 || !self.strided {
            return Ok(());
        }
        let mut dims: Vec<usize> = (0..self.rank).filter(|&d| self.shape[d] > 1).collect();
        dims.sort_by_key(|&d| self.strides[d].unsigned_abs());
        let mut reach: u128 = 0;
        for d in dims {
            let stride = self.strides[d].unsigned_abs() as u128;
            if stride <= reach {
                return Err(Error::new(Status::InvalidArgument, format!(
                    "strides[{d}] = {} makes distinct elements of a writable view overlap",
                    self.strides[d])));
            }
            reach += stride * (self.shape[d] as u128 - 1);
        }
        Ok(())
    }

    /// Calls `f` with the element offset of every position, in row-major order.
    fn for_each_offset(&self, mut f: impl FnMut(isize)) {
        if self.count == 0 {
            return;
        }
        let mut position = [0usize; MAX_RANK];
        let mut offset: isize = 0;
        loop {
            f(offset);
            let mut d = self.rank;
            loop {
                if d == 0 {
                    return;
                }
                d -= 1;
                position[d] += 1;
                offset += self.strides[d];
                if position[d] < self.shape[d] {
                    break;
                }
                offset -= self.strides[d] * self.shape[d] as isize;
                position[d] = 0;
            }
        }
    }

    fn offset_of(&self, index: &[usize]) -> Option<isize> {
        if index.len() != self.rank || index.iter().zip(self.shape()).any(|(&i, &n)| i >= n) {
            return None;
        }
        Some(index.iter().zip(&self.strides).map(|(&i, &s)| i as isize * s).sum())
    }
}

/// Where a view's elements are.
#[derive(Clone, Copy)]
pub(crate) enum Memory {
    /// Element 0 in host memory.
    Host(*mut c_void),
    /// Element 0 at `byte_offset` of a buffer.
    Buffer { raw: sys::scatter_buffer, byte_offset: u64 },
}

/// A C descriptor with the shape and strides it points to; `raw` fixes the pointers, so the
/// descriptor must not move between `raw` and the call.
pub(crate) struct Descriptor {
    shape: [i64; MAX_RANK],
    strides: [i64; MAX_RANK],
    strided: bool,
    tensor: sys::scatter_tensor,
}

impl Descriptor {
    fn new<T: Element>(layout: &Layout, memory: Memory) -> Descriptor {
        let mut shape = [0i64; MAX_RANK];
        let mut strides = [0i64; MAX_RANK];
        for d in 0..layout.rank {
            shape[d] = layout.shape[d] as i64; // checked to fit at construction
            strides[d] = layout.strides[d] as i64;
        }
        let (data, buffer, byte_offset) = match memory {
            Memory::Host(data) => (data, ptr::null_mut(), 0),
            Memory::Buffer { raw, byte_offset } => (ptr::null_mut(), raw, byte_offset),
        };
        let tensor = sys::scatter_tensor {
            dtype: T::DTYPE.code(),
            // The library checks the size against the dtype's; opaque elements take it as theirs.
            element_size: size_of::<T>() as u32,
            rank: layout.rank as u32,
            data,
            buffer,
            byte_offset,
            ..sys::SCATTER_TENSOR_INIT
        };
        Descriptor { shape, strides, strided: layout.strided, tensor }
    }

    pub(crate) fn raw(&mut self) -> *const sys::scatter_tensor {
        self.tensor.shape = self.shape.as_ptr();
        self.tensor.strides = if self.strided { self.strides.as_ptr() } else { ptr::null() };
        &self.tensor
    }
}

/// Checks what every view of `T` needs: a nonzero element size that fits the C field.
pub(crate) fn check_element<T: Element>() -> Result<()> {
    let size = size_of::<T>();
    if size == 0 || size > u32::MAX as usize {
        return Err(Error::new(Status::InvalidArgument, format!(
            "element type of {size} bytes: elements need 1 to 2^32-1 bytes")));
    }
    Ok(())
}

macro_rules! common_accessors {
    () => {
        /// Number of dimensions.
        pub fn rank(&self) -> usize {
            self.layout.rank
        }

        /// The shape.
        pub fn shape(&self) -> &[usize] {
            self.layout.shape()
        }

        /// The element strides given at construction, or `None` for a contiguous row-major view.
        pub fn strides(&self) -> Option<&[isize]> {
            self.layout.strided.then(|| &self.layout.strides[..self.layout.rank])
        }

        /// Number of elements (the product of the shape).
        pub fn len(&self) -> usize {
            self.layout.count
        }

        /// Whether the view has no elements.
        pub fn is_empty(&self) -> bool {
            self.layout.count == 0
        }

        /// Whether the elements are in a [`Buffer`](crate::Buffer) rather than host memory.
        pub fn in_buffer(&self) -> bool {
            matches!(self.memory, Memory::Buffer { .. })
        }

        /// The dtype of the elements.
        pub fn dtype(&self) -> DType {
            T::DTYPE
        }

        /// The element at `index` (one entry per dimension) of a host view; `None` when the
        /// index is outside the shape or the view is in a buffer (use [`to_vec`](Self::to_vec)).
        pub fn get(&self, index: &[usize]) -> Option<T> {
            let offset = self.layout.offset_of(index)?;
            match self.memory {
                // SAFETY: construction checked that every position is inside the slice.
                Memory::Host(base) => Some(unsafe { ptr::read((base as *const T).offset(offset)) }),
                Memory::Buffer { .. } => None,
            }
        }

        /// The elements in row-major order of the shape (read from the buffer for a buffer view).
        /// `OutOfMemory` when the host memory for them cannot be allocated.
        pub fn to_vec(&self) -> Result<Vec<T>> {
            gather(&self.layout, self.memory)
        }

        pub(crate) fn descriptor(&self) -> Descriptor {
            Descriptor::new::<T>(&self.layout, self.memory)
        }
    };
}

fn gather<T: Element>(layout: &Layout, memory: Memory) -> Result<Vec<T>> {
    let mut out = vec_with_capacity::<T>(layout.count)?;
    match memory {
        Memory::Host(base) => {
            // SAFETY: construction checked that every position is inside the slice.
            layout.for_each_offset(|o| out.push(unsafe { ptr::read((base as *const T).offset(o)) }));
        }
        Memory::Buffer { raw, byte_offset } => {
            if layout.count == 0 {
                return Ok(out);
            }
            let size = size_of::<T>() as i128;
            let (low, high) = layout.extent();
            let first = byte_offset as i128 + low * size;
            let bytes = ((high - low + 1) * size) as usize;
            let mut span = zeroed_vec::<u8>(bytes)?;
            // SAFETY: the range was checked against the buffer's size at construction.
            crate::error::check(unsafe {
                sys::scatter_buffer_read(raw, first as u64, span.as_mut_ptr().cast(), bytes as u64)
            })?;
            let zero = (-low * size) as isize;
            layout.for_each_offset(|o| {
                let at = (zero + o * size as isize) as usize;
                out.push(crate::buffer::element_from_bytes::<T>(&span[at..at + size as usize]));
            });
        }
    }
    Ok(out)
}

/// A read-only tensor: a shape (and optional element strides) over a host slice or a range
/// of a [`Buffer`](crate::Buffer). Cheap to copy; it borrows the memory for `'a`.
///
/// ```
/// use scatter::TensorView;
/// let data = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
/// let matrix = TensorView::new(&data, &[2, 3])?;
/// assert_eq!(matrix.get(&[1, 0]), Some(4.0));
/// // The transpose: 3 x 2 with strides (1, 3), no copy.
/// let transposed = TensorView::with_strides(&data, 0, &[3, 2], &[1, 3])?;
/// assert_eq!(transposed.to_vec()?, [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
/// // Reversed with a negative stride: element 0 is the slice's last.
/// let reversed = TensorView::with_strides(&data, 5, &[6], &[-1])?;
/// assert_eq!(reversed.get(&[0]), Some(6.0));
/// # Ok::<(), scatter::Error>(())
/// ```
pub struct TensorView<'a, T> {
    layout: Layout,
    memory: Memory,
    marker: PhantomData<&'a [T]>,
}

/// A writable tensor: a shape (and optional element strides whose elements never overlap)
/// over a mutable host slice or a range of a mutably borrowed [`Buffer`](crate::Buffer).
///
/// ```
/// use scatter::{Context, Op, Options, TensorView, TensorViewMut};
/// let ctx = Context::cpu()?;
/// let mut data = [0i32; 6];
/// // Column 1 of a 3 x 2 matrix: shape [3], stride 2, starting at element 1.
/// let mut column = TensorViewMut::with_strides(&mut data, 1, &[3], &[2])?;
/// ctx.scatter_in_place(Op::Elements, &mut column, &[2i64, 0], &[7, 9], &Options::default())?;
/// assert_eq!(data, [0, 9, 0, 0, 0, 7]);
/// # Ok::<(), scatter::Error>(())
/// ```
pub struct TensorViewMut<'a, T> {
    layout: Layout,
    memory: Memory,
    marker: PhantomData<&'a mut [T]>,
}

// SAFETY: a view is a shared (TensorView) or exclusive (TensorViewMut) borrow of `T`s, with
// the thread-safety of `&[T]` and `&mut [T]`; buffers are thread-safe handles.
unsafe impl<T: Sync> Send for TensorView<'_, T> {}
unsafe impl<T: Sync> Sync for TensorView<'_, T> {}
unsafe impl<T: Send> Send for TensorViewMut<'_, T> {}
unsafe impl<T: Sync> Sync for TensorViewMut<'_, T> {}

impl<T> Clone for TensorView<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for TensorView<'_, T> {}

impl<'a, T: Element> TensorView<'a, T> {
    /// A contiguous row-major view of `data` with `shape`. Fails with `ShapeMismatch` when the
    /// shape's element count is not `data.len()` or the rank exceeds [`MAX_RANK`].
    pub fn new(data: &'a [T], shape: &[usize]) -> Result<Self> {
        check_element::<T>()?;
        let layout = Layout::contiguous(shape)?;
        check_count(layout.count, data.len(), shape)?;
        Ok(TensorView { layout, memory: Memory::Host(data.as_ptr() as *mut c_void), marker: PhantomData })
    }

    /// A one-dimensional view of the whole slice.
    pub fn from_slice(data: &'a [T]) -> Self {
        TensorView { layout: Layout::vector(data.len()), memory: Memory::Host(data.as_ptr() as *mut c_void),
                     marker: PhantomData }
    }

    /// A strided view: position `(i0, ..., ik)` is `data[offset + i0*strides[0] + ... +
    /// ik*strides[k]]`. Strides are in elements and may be negative (then `offset` is not 0)
    /// or zero (broadcasting a value). Fails with `InvalidArgument` when a position falls
    /// outside `data`.
    pub fn with_strides(data: &'a [T], offset: usize, shape: &[usize], strides: &[isize]) -> Result<Self> {
        check_element::<T>()?;
        let layout = Layout::strided(shape, strides)?;
        layout.check_fits(offset, data.len())?;
        // SAFETY: offset <= data.len() (check_fits).
        let base = unsafe { data.as_ptr().add(offset) };
        Ok(TensorView { layout, memory: Memory::Host(base as *mut c_void), marker: PhantomData })
    }

    pub(crate) fn in_buffer_range(layout_shape: &[usize], strides: Option<&[isize]>,
                                  raw: sys::scatter_buffer, buffer_size: u64, byte_offset: u64)
                                  -> Result<Self> {
        let layout = buffer_layout::<T>(layout_shape, strides, buffer_size, byte_offset)?;
        Ok(TensorView { layout, memory: Memory::Buffer { raw, byte_offset }, marker: PhantomData })
    }

    common_accessors!();
}

impl<'a, T: Element> TensorViewMut<'a, T> {
    /// A contiguous row-major view of `data` with `shape` (see [`TensorView::new`]).
    pub fn new(data: &'a mut [T], shape: &[usize]) -> Result<Self> {
        check_element::<T>()?;
        let layout = Layout::contiguous(shape)?;
        check_count(layout.count, data.len(), shape)?;
        Ok(TensorViewMut { layout, memory: Memory::Host(data.as_mut_ptr().cast()), marker: PhantomData })
    }

    /// A one-dimensional view of the whole slice.
    pub fn from_slice(data: &'a mut [T]) -> Self {
        TensorViewMut { layout: Layout::vector(data.len()), memory: Memory::Host(data.as_mut_ptr().cast()),
                        marker: PhantomData }
    }

    /// A strided view (see [`TensorView::with_strides`]); negative strides are allowed, but no
    /// two positions may share an element (`InvalidArgument`; the test is the library's: sorted
    /// by magnitude, each stride must step past everything the smaller ones reach).
    pub fn with_strides(data: &'a mut [T], offset: usize, shape: &[usize], strides: &[isize]) -> Result<Self> {
        check_element::<T>()?;
        let layout = Layout::strided(shape, strides)?;
        layout.check_fits(offset, data.len())?;
        layout.check_no_self_overlap()?;
        // SAFETY: offset <= data.len() (check_fits).
        let base = unsafe { data.as_mut_ptr().add(offset) };
        Ok(TensorViewMut { layout, memory: Memory::Host(base.cast()), marker: PhantomData })
    }

    pub(crate) fn in_buffer_range(layout_shape: &[usize], strides: Option<&[isize]>,
                                  raw: sys::scatter_buffer, buffer_size: u64, byte_offset: u64)
                                  -> Result<Self> {
        let layout = buffer_layout::<T>(layout_shape, strides, buffer_size, byte_offset)?;
        layout.check_no_self_overlap()?;
        Ok(TensorViewMut { layout, memory: Memory::Buffer { raw, byte_offset }, marker: PhantomData })
    }

    /// A read-only view of the same elements, borrowing this one.
    pub fn as_view(&self) -> TensorView<'_, T> {
        TensorView { layout: self.layout, memory: self.memory, marker: PhantomData }
    }

    /// The same view for a shorter borrow, to pass it to a call and keep it.
    pub fn reborrow(&mut self) -> TensorViewMut<'_, T> {
        TensorViewMut { layout: self.layout, memory: self.memory, marker: PhantomData }
    }

    /// Sets the element at `index` of a host view; `InvalidArgument` when the index is outside
    /// the shape or the view is in a buffer.
    pub fn set(&mut self, index: &[usize], value: T) -> Result<()> {
        let offset = self.layout.offset_of(index).ok_or_else(|| Error::new(
            Status::InvalidArgument, format!("index {index:?} is outside shape {:?}", self.shape())))?;
        match self.memory {
            Memory::Host(base) => {
                // SAFETY: construction checked that every position is inside the slice, which
                // this view borrows exclusively.
                unsafe { ptr::write((base as *mut T).offset(offset), value) };
                Ok(())
            }
            Memory::Buffer { .. } => Err(Error::new(Status::InvalidArgument,
                "set() writes host views only; write a buffer with Buffer::write")),
        }
    }

    pub(crate) fn is_host(&self) -> bool {
        matches!(self.memory, Memory::Host(_))
    }

    common_accessors!();
}

fn check_count(count: usize, len: usize, shape: &[usize]) -> Result<()> {
    if count != len {
        return Err(Error::new(Status::ShapeMismatch, format!(
            "shape {shape:?} holds {count} elements but the slice has {len}")));
    }
    Ok(())
}

fn buffer_layout<T: Element>(shape: &[usize], strides: Option<&[isize]>, buffer_size: u64,
                             byte_offset: u64) -> Result<Layout> {
    check_element::<T>()?;
    let layout = match strides {
        Some(strides) => Layout::strided(shape, strides)?,
        None => Layout::contiguous(shape)?,
    };
    if layout.count > 0 {
        let size = size_of::<T>() as i128;
        let (low, high) = layout.extent();
        let (first, end) = (byte_offset as i128 + low * size, byte_offset as i128 + (high + 1) * size);
        if first < 0 || end > buffer_size as i128 {
            return Err(Error::new(Status::InvalidArgument, format!(
                "the view reaches bytes [{first}, {end}) of its buffer, outside its size {buffer_size}")));
        }
    }
    Ok(layout)
}

impl<T> fmt::Debug for TensorView<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_view(f, "TensorView", &self.layout, self.memory)
    }
}

impl<T> fmt::Debug for TensorViewMut<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_view(f, "TensorViewMut", &self.layout, self.memory)
    }
}

fn debug_view(f: &mut fmt::Formatter<'_>, name: &str, layout: &Layout, memory: Memory) -> fmt::Result {
    let mut s = f.debug_struct(name);
    s.field("shape", &layout.shape());
    if layout.strided {
        s.field("strides", &&layout.strides[..layout.rank]);
    }
    match memory {
        Memory::Host(p) => s.field("host", &p),
        Memory::Buffer { byte_offset, .. } => s.field("buffer_byte_offset", &byte_offset),
    };
    s.finish()
}

impl<'a, T: Element> From<&'a [T]> for TensorView<'a, T> {
    fn from(data: &'a [T]) -> Self {
        TensorView::from_slice(data)
    }
}

impl<'a, T: Element, const N: usize> From<&'a [T; N]> for TensorView<'a, T> {
    fn from(data: &'a [T; N]) -> Self {
        TensorView::from_slice(data)
    }
}

impl<'a, T: Element> From<&'a Vec<T>> for TensorView<'a, T> {
    fn from(data: &'a Vec<T>) -> Self {
        TensorView::from_slice(data)
    }
}

impl<'a, 'b, T: Element> From<&'b TensorView<'a, T>> for TensorView<'b, T> {
    fn from(view: &'b TensorView<'a, T>) -> Self {
        *view
    }
}

impl<'a, T: Element> From<TensorViewMut<'a, T>> for TensorView<'a, T> {
    fn from(view: TensorViewMut<'a, T>) -> Self {
        TensorView { layout: view.layout, memory: view.memory, marker: PhantomData }
    }
}

impl<'a, 'b, T: Element> From<&'b TensorViewMut<'a, T>> for TensorView<'b, T> {
    fn from(view: &'b TensorViewMut<'a, T>) -> Self {
        view.as_view()
    }
}

impl<'a, T: Element> From<&'a mut [T]> for TensorViewMut<'a, T> {
    fn from(data: &'a mut [T]) -> Self {
        TensorViewMut::from_slice(data)
    }
}

impl<'a, T: Element, const N: usize> From<&'a mut [T; N]> for TensorViewMut<'a, T> {
    fn from(data: &'a mut [T; N]) -> Self {
        TensorViewMut::from_slice(data)
    }
}

impl<'a, T: Element> From<&'a mut Vec<T>> for TensorViewMut<'a, T> {
    fn from(data: &'a mut Vec<T>) -> Self {
        TensorViewMut::from_slice(data)
    }
}

impl<'a, 'b, T: Element> From<&'b mut TensorViewMut<'a, T>> for TensorViewMut<'b, T> {
    fn from(view: &'b mut TensorViewMut<'a, T>) -> Self {
        view.reborrow()
    }
}
