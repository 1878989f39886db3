//! The three operations ([`Op`]) and their [`Options`], as methods of [`Context`].
use std::fmt;

use crate::alloc::zeroed_vec;
use crate::context::Context;
use crate::dtype::{DType, Element, Index};
use crate::error::{check, Error, Result, Status};
use crate::sys;
use crate::tensor::{check_element, TensorView, TensorViewMut};

/// The operations. Each writes or reduces `updates` into a copy of `data` (or into `data`
/// itself, in place) at the positions `indices` name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// ONNX ScatterElements, PyTorch `scatter_`/`scatter_reduce_`: data, indices and updates
    /// have one rank; the update at position p goes to p with `p[axis] = indices[p]`.
    Elements,
    /// MindSpore `scatter_*`, Paddle `scatter`, PyTorch `index_add_`/`index_copy_`: the slice
    /// of updates at index position p goes to the slice of data at `indices[p]` on `axis`;
    /// `updates.shape == data.shape[..axis] + indices.shape + data.shape[axis+1..]`.
    Rows,
    /// ONNX ScatterND, TensorFlow `tensor_scatter_nd_*`: `indices.shape = [..., k]`,
    /// `updates.shape == indices.shape[..-1] + data.shape[k..]`; axis must be 0.
    Nd,
}

impl Op {
    /// The C value (`SCATTER_OP_*`).
    pub fn code(self) -> i32 {
        match self {
            Op::Elements => sys::SCATTER_OP_ELEMENTS,
            Op::Rows => sys::SCATTER_OP_ROWS,
            Op::Nd => sys::SCATTER_OP_ND,
        }
    }

    fn function(self) -> sys::scatter_operation_fn {
        match self {
            Op::Elements => sys::scatter_elements,
            Op::Rows => sys::scatter_rows,
            Op::Nd => sys::scatter_nd,
        }
    }
}

/// How updates combine with their target (`scatter_reduction`). Float and integer dtypes take
/// all; complex none/add/sub/mul/div/mean; bool none/add (or)/mul (and); opaque none. Any other
/// pair fails with `Unsupported`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum Reduction {
    /// Assign: the last update in row-major order wins.
    #[default]
    None = sys::SCATTER_REDUCTION_NONE,
    /// `t + u`; integers wrap.
    Add = sys::SCATTER_REDUCTION_ADD,
    /// `t - u`; integers wrap.
    Sub = sys::SCATTER_REDUCTION_SUB,
    /// `t * u`; integers wrap.
    Mul = sys::SCATTER_REDUCTION_MUL,
    /// `t / u`; integers truncate, a zero divisor is an error (`InvalidArgument`).
    Div = sys::SCATTER_REDUCTION_DIV,
    /// Maximum; NaN propagates.
    Max = sys::SCATTER_REDUCTION_MAX,
    /// Minimum; NaN propagates.
    Min = sys::SCATTER_REDUCTION_MIN,
    /// `(self + sum) / (1 + count)`; integers use floor division.
    Mean = sys::SCATTER_REDUCTION_MEAN,
}

impl Reduction {
    /// Every reduction.
    pub const ALL: [Reduction; 8] = [Reduction::None, Reduction::Add, Reduction::Sub, Reduction::Mul,
                                     Reduction::Div, Reduction::Max, Reduction::Min, Reduction::Mean];

    /// The C value.
    pub fn code(self) -> i32 {
        self as i32
    }

    /// "none", "add", "sub", "mul", "div", "max", "min" or "mean".
    pub fn name(self) -> &'static str {
        match self {
            Reduction::None => "none",
            Reduction::Add => "add",
            Reduction::Sub => "sub",
            Reduction::Mul => "mul",
            Reduction::Div => "div",
            Reduction::Max => "max",
            Reduction::Min => "min",
            Reduction::Mean => "mean",
        }
    }
}

impl fmt::Display for Reduction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `"add".parse::<Reduction>()`; PyTorch's names (sum, prod, amax, amin) and ONNX's
/// (multiply) are aliases of add, mul, max, min. Anything else is `InvalidArgument`.
impl std::str::FromStr for Reduction {
    type Err = Error;
    fn from_str(name: &str) -> Result<Self> {
        Ok(match name {
            "none" => Reduction::None,
            "add" | "sum" => Reduction::Add,
            "sub" => Reduction::Sub,
            "mul" | "prod" | "multiply" => Reduction::Mul,
            "div" => Reduction::Div,
            "max" | "amax" => Reduction::Max,
            "min" | "amin" => Reduction::Min,
            "mean" => Reduction::Mean,
            _ => return Err(Error::new(Status::InvalidArgument, format!(
                "reduction {name:?} is not one of none, add, sub, mul, div, max, min, mean \
                 (or sum, prod, multiply, amax, amin)"))),
        })
    }
}

/// What happens to an index outside `[-s, s)` of its dimension (negative indices count from
/// the back in every policy).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum OutOfRange {
    /// The call fails with `IndexOutOfRange` and changes nothing.
    #[default]
    Error = sys::SCATTER_OUT_OF_RANGE_ERROR,
    /// The update (for rows/nd: the whole slice) is ignored.
    Skip = sys::SCATTER_OUT_OF_RANGE_SKIP,
    /// The index is clamped into `[0, s-1]`.
    Clamp = sys::SCATTER_OUT_OF_RANGE_CLAMP,
}

impl OutOfRange {
    /// The C value.
    pub fn code(self) -> i32 {
        self as i32
    }
}

/// `"skip".parse::<OutOfRange>()`: "error", "skip" or "clamp".
impl std::str::FromStr for OutOfRange {
    type Err = Error;
    fn from_str(name: &str) -> Result<Self> {
        match name {
            "error" => Ok(OutOfRange::Error),
            "skip" => Ok(OutOfRange::Skip),
            "clamp" => Ok(OutOfRange::Clamp),
            _ => Err(Error::new(Status::InvalidArgument,
                                format!("out_of_range {name:?} is not one of error, skip, clamp"))),
        }
    }
}

/// Options of one operation; `Options::default()` is axis 0, assign, out-of-range error.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    /// Elements and rows: the axis in `[-r, r)` (negative counts from the back); nd: 0.
    pub axis: i32,
    /// How updates combine with their target.
    pub reduction: Reduction,
    /// What an index outside its dimension does.
    pub out_of_range: OutOfRange,
    /// PyTorch `include_self=False`: a hit target starts from the reduction's identity.
    pub exclude_self: bool,
    /// This call may use faster paths whose float results depend on the order in which
    /// duplicates are applied (`SCATTER_OPTION_ALLOW_NONDETERMINISM`).
    pub allow_nondeterminism: bool,
}

impl Options {
    /// The options with this reduction, the rest default.
    pub fn reduce(reduction: Reduction) -> Options {
        Options { reduction, ..Options::default() }
    }

    pub(crate) fn raw(&self) -> sys::scatter_options {
        let mut flags = 0;
        if self.exclude_self {
            flags |= sys::SCATTER_OPTION_EXCLUDE_SELF;
        }
        if self.allow_nondeterminism {
            flags |= sys::SCATTER_OPTION_ALLOW_NONDETERMINISM;
        }
        sys::scatter_options {
            axis: self.axis,
            reduction: self.reduction.code(),
            out_of_range: self.out_of_range.code(),
            flags,
            ..sys::SCATTER_OPTIONS_INIT
        }
    }
}

/// A host `bool` output must not receive bytes from a buffer, which may hold any byte (only 0
/// and 1 are valid Rust bools); scatter into a buffer and read it with `Buffer::read`.
pub(crate) fn check_bool_sources<T: Element>(out_is_host: bool, sources_in_buffer: bool) -> Result<()> {
    if T::DTYPE == DType::Bool && out_is_host && sources_in_buffer {
        return Err(Error::new(Status::InvalidArgument,
            "a host bool output cannot take data or updates from a buffer (a buffer byte may be \
             any value); scatter into a buffer and read it with Buffer::read"));
    }
    Ok(())
}

/// The operations. Every call checks everything (shapes, dtypes, options, every index under
/// the out-of-range policy, integer divisors) before writing anything: on failure the output is
/// byte-for-byte unchanged.
impl Context {
    /// Returns a new contiguous `Vec` of `data`'s shape: `data` with `updates` scattered in.
    /// `OutOfMemory` when the host memory for it cannot be allocated.
    ///
    /// ```
    /// use scatter::{Context, Op, Options, Reduction, TensorView};
    /// let ctx = Context::cpu()?;
    /// let data = [0.0f32; 6];
    /// let out = ctx.scatter(Op::Rows, TensorView::new(&data, &[3, 2])?, &[2i32, 0],
    ///                       TensorView::new(&[1.0f32, 2.0, 3.0, 4.0], &[2, 2])?,
    ///                       &Options::reduce(Reduction::Add))?;
    /// assert_eq!(out, [3.0, 4.0, 0.0, 0.0, 1.0, 2.0]);
    /// # Ok::<(), scatter::Error>(())
    /// ```
    pub fn scatter<'d, T: Element, I: Index>(&self, op: Op, data: impl Into<TensorView<'d, T>>,
                                             indices: impl Into<TensorView<'d, I>>,
                                             updates: impl Into<TensorView<'d, T>>,
                                             options: &Options) -> Result<Vec<T>> {
        let (data, indices, updates) = (data.into(), indices.into(), updates.into());
        check_bool_sources::<T>(true, data.in_buffer() || updates.in_buffer())?;
        let mut out = zeroed_vec::<T>(data.len())?;
        let out_view = TensorViewMut::new(&mut out, data.shape())?;
        self.run(op, &data, &indices, &updates, options, Some(&out_view))?;
        Ok(out)
    }

    /// Scatters into `out` (host or buffer, any strides; the shape of `data`): `out` becomes
    /// `data` with `updates` scattered in. `out` must not overlap the inputs.
    pub fn scatter_into<'d, T: Element, I: Index>(&self, op: Op, data: impl Into<TensorView<'d, T>>,
                                                  indices: impl Into<TensorView<'d, I>>,
                                                  updates: impl Into<TensorView<'d, T>>,
                                                  options: &Options,
                                                  out: impl Into<TensorViewMut<'d, T>>) -> Result<()> {
        let (data, indices, updates, out) = (data.into(), indices.into(), updates.into(), out.into());
        check_bool_sources::<T>(out.is_host(), data.in_buffer() || updates.in_buffer())?;
        self.run(op, &data, &indices, &updates, options, Some(&out))
    }

    /// Scatters into `data` itself (host or buffer).
    ///
    /// ```
    /// use scatter::{Context, Op, Options, TensorViewMut};
    /// let ctx = Context::cpu()?;
    /// let mut data = [0u8; 4];
    /// ctx.scatter_in_place(Op::Elements, &mut data, &[3i64, -4], &[7u8, 9], &Options::default())?;
    /// assert_eq!(data, [9, 0, 0, 7]);
    /// # Ok::<(), scatter::Error>(())
    /// ```
    pub fn scatter_in_place<'d, T: Element, I: Index>(&self, op: Op, data: impl Into<TensorViewMut<'d, T>>,
                                                      indices: impl Into<TensorView<'d, I>>,
                                                      updates: impl Into<TensorView<'d, T>>,
                                                      options: &Options) -> Result<()> {
        let (data, indices, updates) = (data.into(), indices.into(), updates.into());
        check_bool_sources::<T>(data.is_host(), updates.in_buffer())?;
        self.run(op, &data.as_view(), &indices, &updates, options, None)
    }

    /// [`scatter`](Self::scatter) with [`Op::Elements`].
    pub fn elements<'d, T: Element, I: Index>(&self, data: impl Into<TensorView<'d, T>>,
                                              indices: impl Into<TensorView<'d, I>>,
                                              updates: impl Into<TensorView<'d, T>>,
                                              options: &Options) -> Result<Vec<T>> {
        self.scatter(Op::Elements, data, indices, updates, options)
    }

    /// [`scatter`](Self::scatter) with [`Op::Rows`].
    pub fn rows<'d, T: Element, I: Index>(&self, data: impl Into<TensorView<'d, T>>,
                                          indices: impl Into<TensorView<'d, I>>,
                                          updates: impl Into<TensorView<'d, T>>,
                                          options: &Options) -> Result<Vec<T>> {
        self.scatter(Op::Rows, data, indices, updates, options)
    }

    /// [`scatter`](Self::scatter) with [`Op::Nd`].
    pub fn nd<'d, T: Element, I: Index>(&self, data: impl Into<TensorView<'d, T>>,
                                        indices: impl Into<TensorView<'d, I>>,
                                        updates: impl Into<TensorView<'d, T>>,
                                        options: &Options) -> Result<Vec<T>> {
        self.scatter(Op::Nd, data, indices, updates, options)
    }

    /// One call; `out` None means in place (out = data, the same descriptor).
    fn run<T: Element, I: Index>(&self, op: Op, data: &TensorView<'_, T>, indices: &TensorView<'_, I>,
                                 updates: &TensorView<'_, T>, options: &Options,
                                 out: Option<&TensorViewMut<'_, T>>) -> Result<()> {
        with_raw_call(data, indices, updates, options, out, |d, i, u, o, w| {
            // SAFETY: every view points to memory it borrows for the call (host slices checked to
            // hold every position; buffers alive); `out` is borrowed exclusively, so it overlaps
            // no input (the library checks again, and that out's elements do not overlap).
            unsafe { (op.function())(self.as_raw(), d, i, u, o, w) }
        })
    }
}

/// The C descriptors of one call (data, indices, updates, options, out), alive while `call`
/// runs; `out` None means in place (out = data, the same descriptor). The element type is
/// checked first. Used by direct calls and by batch recording.
pub(crate) fn with_raw_call<T: Element, I: Index>(
    data: &TensorView<'_, T>, indices: &TensorView<'_, I>, updates: &TensorView<'_, T>,
    options: &Options, out: Option<&TensorViewMut<'_, T>>,
    call: impl FnOnce(*const sys::scatter_tensor, *const sys::scatter_tensor, *const sys::scatter_tensor,
                      &sys::scatter_options, *const sys::scatter_tensor) -> sys::scatter_status,
) -> Result<()> {
    check_element::<T>()?;
    let (mut d, mut i, mut u) = (data.descriptor(), indices.descriptor(), updates.descriptor());
    let mut o = out.map(|o| o.descriptor());
    let (dp, ip, up) = (d.raw(), i.raw(), u.raw());
    let op_out = match o.as_mut() {
        Some(o) => o.raw(),
        None => dp,
    };
    let raw_options = options.raw();
    check(call(dp, ip, up, &raw_options, op_out))
}
