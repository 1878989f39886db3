//! [`Batch`]: several operations recorded, submitted once and waited for together (Vulkan).
use std::fmt;
use std::marker::PhantomData;
use std::ptr;

use crate::context::Context;
use crate::dtype::{Element, Index};
use crate::error::{check, Error, Result, Status};
use crate::ops::{with_raw_call, Op, Options};
use crate::sys;
use crate::tensor::{TensorView, TensorViewMut};

/// Operations recorded on a Vulkan context and run in one queue submission by
/// [`run`](Batch::run), each seeing the results of the ones before it. Outputs are buffer views;
/// host inputs are copied when recorded. Every view passed in stays borrowed until the batch is
/// run or dropped (`'env`), so no buffer it uses can be read, written or dropped meanwhile.
///
/// Index and integer-divisor checks happen on the device and are reported by `run`: the first
/// failed operation's status, with a message naming its position ("batch operation 2: ...");
/// a failed operation leaves its output unchanged and the others still run.
///
/// ```
/// use scatter::{Backend, Context, ContextOptions, Op, Options, Reduction};
/// let Ok(gpu) = Context::new(ContextOptions { backend: Backend::Vulkan, ..Default::default() })
/// else { return Ok(()) }; // no Vulkan device here
/// let mut buffer = gpu.buffer(4 * 4)?;
/// let mut data = buffer.view_mut::<f32>(0, &[4])?;
/// let mut batch = gpu.batch()?;
/// let add = Options::reduce(Reduction::Add);
/// batch.record_in_place(Op::Elements, &mut data, &[1i64, 1], &[1.0f32, 2.0], &add)?;
/// batch.record_in_place(Op::Elements, &mut data, &[3i64], &[5.0f32], &add)?;
/// batch.run()?;
/// assert_eq!(buffer.to_vec::<f32>(0, 4)?, [0.0, 3.0, 0.0, 5.0]);
/// # Ok::<(), scatter::Error>(())
/// ```
pub struct Batch<'env> {
    raw: sys::scatter_batch,
    context: Context,
    marker: PhantomData<&'env mut &'env ()>, // invariant: the borrows live exactly as long
}

// SAFETY: a batch is used by one thread at a time (it is not Sync); the context is thread-safe.
unsafe impl Send for Batch<'_> {}

impl Context {
    /// An empty batch. `Unsupported` on a CPU context.
    pub fn batch<'env>(&self) -> Result<Batch<'env>> {
        let mut raw = ptr::null_mut();
        // SAFETY: the context handle is alive.
        check(unsafe { sys::scatter_batch_create(self.as_raw(), &mut raw) })?;
        Ok(Batch { raw, context: self.clone(), marker: PhantomData })
    }
}

impl<'env> Batch<'env> {
    /// Records `out = data with updates scattered in`; `out` must be a buffer view. Shape,
    /// dtype and option errors are returned now.
    pub fn record<T: Element, I: Index>(&mut self, op: Op, data: impl Into<TensorView<'env, T>>,
                                        indices: impl Into<TensorView<'env, I>>,
                                        updates: impl Into<TensorView<'env, T>>, options: &Options,
                                        out: &mut TensorViewMut<'env, T>) -> Result<()> {
        let (data, indices, updates) = (data.into(), indices.into(), updates.into());
        self.record_raw(op, &data, &indices, &updates, options, Some(out))
    }

    /// Records an in-place operation on `data`, a buffer view.
    pub fn record_in_place<T: Element, I: Index>(&mut self, op: Op, data: &mut TensorViewMut<'env, T>,
                                                 indices: impl Into<TensorView<'env, I>>,
                                                 updates: impl Into<TensorView<'env, T>>,
                                                 options: &Options) -> Result<()> {
        let (indices, updates) = (indices.into(), updates.into());
        let view = data.as_view();
        if data.is_host() {
            return Err(host_out());
        }
        self.record_raw(op, &view, &indices, &updates, options, None)
    }

    fn record_raw<T: Element, I: Index>(&mut self, op: Op, data: &TensorView<'_, T>,
                                        indices: &TensorView<'_, I>, updates: &TensorView<'_, T>,
                                        options: &Options, out: Option<&TensorViewMut<'_, T>>)
                                        -> Result<()> {
        if out.is_some_and(|o| o.is_host()) {
            return Err(host_out());
        }
        with_raw_call(data, indices, updates, options, out, |d, i, u, o, w| {
            // SAFETY: host inputs are copied now; buffer views stay borrowed for 'env, which
            // lasts until run() has waited or the batch is dropped (destroy waits).
            unsafe { sys::scatter_batch_record(self.raw, op.code(), d, i, u, o, w) }
        })
    }

    /// Submits every recorded operation and waits for all of them.
    pub fn run(self) -> Result<()> {
        // SAFETY: the batch is alive; destroy (in drop) waits again if needed.
        check(unsafe { sys::scatter_batch_submit(self.raw) })?;
        check(unsafe { sys::scatter_batch_wait(self.raw) })
    }

    /// The context the batch belongs to.
    pub fn context(&self) -> &Context {
        &self.context
    }
}

fn host_out() -> Error {
    Error::new(Status::InvalidArgument, "a batch writes buffers only: out must be a buffer view")
}

impl Drop for Batch<'_> {
    fn drop(&mut self) {
        // SAFETY: destroys the batch, first waiting for it if it was submitted.
        unsafe { sys::scatter_batch_destroy(self.raw) }
    }
}

impl fmt::Debug for Batch<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Batch").finish_non_exhaustive()
    }
}
