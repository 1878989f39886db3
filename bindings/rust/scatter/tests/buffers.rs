//! Buffers: create, write, read, size, copy, views as operation inputs and outputs, and the
//! checks around them (ranges, contexts, bool bytes).
mod common;

use common::{reference, Rng};
use scatter::{Buffer, Complex64, Context, Op, Options, Reduction, Status, TensorView, F16};

#[test]
fn create_write_read_size_copy() {
    let ctx = Context::cpu().unwrap();
    let mut buffer = ctx.buffer(16).unwrap();
    assert_eq!(buffer.size(), 16);
    assert_eq!(buffer.to_vec::<u32>(0, 4).unwrap(), [0, 0, 0, 0]); // starts as zeros
    buffer.write(4, &[7u32, 8]).unwrap();
    assert_eq!(buffer.to_vec::<u32>(0, 4).unwrap(), [0, 7, 8, 0]);
    let mut two = [0u16; 2];
    buffer.read(4, &mut two).unwrap();
    assert_eq!(two, [7, 0]);
    // Out of range: an error, nothing changed.
    let err = buffer.write(12, &[1u32, 2]).unwrap_err();
    assert_eq!(err.status, Status::InvalidArgument);
    assert_eq!(buffer.to_vec::<u32>(0, 4).unwrap(), [0, 7, 8, 0]);
    let mut dst = [9u64; 3];
    assert!(buffer.read(0, &mut dst).is_err());
    assert_eq!(dst, [9, 9, 9]);
    // Copies on the device, between buffers and within one.
    buffer.copy_within(4, 12, 4).unwrap();
    assert_eq!(buffer.to_vec::<u32>(0, 4).unwrap(), [0, 7, 8, 7]);
    assert!(buffer.copy_within(0, 2, 4).is_err()); // overlapping ranges
    let mut other = Buffer::from_slice(&ctx, &[1u8, 2, 3, 4]).unwrap();
    other.copy_from(1, &buffer, 4, 2).unwrap();
    assert_eq!(other.to_vec::<u8>(0, 4).unwrap(), [1, 7, 0, 4]);
    assert!(Buffer::new(&ctx, 0).unwrap().size() == 0);
    assert!(format!("{buffer:?}").contains("16"));
}

#[test]
fn buffers_of_other_contexts_are_refused() {
    let (a, b) = (Context::cpu().unwrap(), Context::cpu().unwrap());
    let mut in_a = Buffer::from_slice(&a, &[1.0f32; 4]).unwrap();
    let in_b = Buffer::from_slice(&b, &[1.0f32; 4]).unwrap();
    assert_eq!(in_a.copy_from(0, &in_b, 0, 4).unwrap_err().status, Status::InvalidArgument);
    let err = b.scatter_in_place(Op::Elements, in_a.view_mut::<f32>(0, &[4]).unwrap(), &[0i64], &[2.0f32],
                                 &Options::default()).unwrap_err();
    assert_eq!(err.status, Status::InvalidArgument);
    assert!(err.message.contains("another context"), "{err}");
    // A buffer keeps its context alive: dropping the last other handle is fine.
    drop(a);
    assert_eq!(in_a.to_vec::<f32>(0, 4).unwrap(), [1.0; 4]);
    assert_eq!(in_a.context().backend(), scatter::Backend::Cpu);
}

#[test]
fn views_must_fit_their_buffer() {
    let ctx = Context::cpu().unwrap();
    let mut buffer = ctx.buffer(24).unwrap();
    assert!(buffer.view::<f64>(0, &[3]).is_ok());
    assert_eq!(buffer.view::<f64>(8, &[3]).unwrap_err().status, Status::InvalidArgument);
    assert_eq!(buffer.view_strided::<f64>(0, &[3], &[-1]).unwrap_err().status, Status::InvalidArgument);
    assert!(buffer.view_strided::<f64>(16, &[3], &[-1]).is_ok());
    assert_eq!(buffer.view_mut_strided::<f64>(0, &[3], &[0]).unwrap_err().status, Status::InvalidArgument);
    let v = buffer.view_mut::<u8>(4, &[2, 10]).unwrap();
    assert!(v.in_buffer() && v.get(&[0, 0]).is_none());
}

#[test]
fn operations_on_buffers_match_the_reference() {
    let ctx = Context::cpu().unwrap();
    let mut rng = Rng(5);
    let data: Vec<f32> = rng.values(12); // 3 x 4
    let updates: Vec<f32> = rng.values(8); // 2 x 4
    let rows = [2i64, 0];
    let mut data_buffer = Buffer::from_slice(&ctx, &data).unwrap();
    let updates_buffer = Buffer::from_slice(&ctx, &updates).unwrap();
    let index_buffer = Buffer::from_slice(&ctx, &rows).unwrap();
    let options = Options::reduce(Reduction::Sub);
    let want = reference(Op::Rows, &data, &[3, 4], &rows, &[2], &updates, &[2, 4], &options).unwrap();

    // Buffer inputs, a new host Vec out.
    let got = ctx.rows(data_buffer.view::<f32>(0, &[3, 4]).unwrap(), index_buffer.view::<i64>(0, &[2]).unwrap(),
                       updates_buffer.view::<f32>(0, &[2, 4]).unwrap(), &options).unwrap();
    assert_eq!(got, want);
    // Buffer to buffer.
    let mut out = ctx.buffer(48).unwrap();
    ctx.scatter_into(Op::Rows, data_buffer.view::<f32>(0, &[3, 4]).unwrap(), index_buffer.view::<i64>(0, &[2]).unwrap(),
                     updates_buffer.view::<f32>(0, &[2, 4]).unwrap(), &options,
                     out.view_mut::<f32>(0, &[3, 4]).unwrap()).unwrap();
    assert_eq!(out.to_vec::<f32>(0, 12).unwrap(), want);
    // In place in a buffer, with host indices and updates; then read a view back.
    ctx.scatter_in_place(Op::Rows, data_buffer.view_mut::<f32>(0, &[3, 4]).unwrap(), &rows,
                         TensorView::new(&updates, &[2, 4]).unwrap(), &options).unwrap();
    assert_eq!(data_buffer.to_vec::<f32>(0, 12).unwrap(), want);
    let column = data_buffer.view_strided::<f32>(4, &[3], &[4]).unwrap();
    assert_eq!(column.to_vec().unwrap(), [want[1], want[5], want[9]]);
    // A failed call leaves the buffer unchanged.
    let err = ctx.scatter_in_place(Op::Rows, data_buffer.view_mut::<f32>(0, &[3, 4]).unwrap(), &[3i64],
                                   TensorView::new(&updates[..4], &[1, 4]).unwrap(), &options).unwrap_err();
    assert_eq!(err.status, Status::IndexOutOfRange);
    assert_eq!(data_buffer.to_vec::<f32>(0, 12).unwrap(), want);
}

#[test]
fn buffer_views_at_offsets_with_f16_and_complex() {
    let ctx = Context::cpu().unwrap();
    let halves: Vec<F16> = [1.0f32, 2.0, 3.0].iter().map(|&v| F16::from_f32(v)).collect();
    let mut buffer = ctx.buffer(64).unwrap();
    buffer.write(10, &halves).unwrap();
    ctx.scatter_in_place(Op::Elements, buffer.view_mut::<F16>(10, &[3]).unwrap(), &[1i32],
                         &[F16::from_f32(0.5)], &Options::reduce(Reduction::Add)).unwrap();
    let back: Vec<f32> = buffer.to_vec::<F16>(10, 3).unwrap().into_iter().map(f32::from).collect();
    assert_eq!(back, [1.0, 2.5, 3.0]);

    let z = [Complex64::new(1.0, 1.0), Complex64::new(0.0, 2.0)];
    buffer.write(32, &z).unwrap();
    ctx.scatter_in_place(Op::Elements, buffer.view_mut::<Complex64>(32, &[2]).unwrap(), &[0i64, 1],
                         &[Complex64::new(0.0, 1.0), Complex64::new(2.0, 0.0)], &Options::reduce(Reduction::Mul))
        .unwrap();
    assert_eq!(buffer.to_vec::<Complex64>(32, 2).unwrap(), [Complex64::new(-1.0, 1.0), Complex64::new(0.0, 4.0)]);
}

#[test]
fn bool_bytes_from_buffers_are_normalised_or_refused() {
    let ctx = Context::cpu().unwrap();
    let mut buffer = Buffer::from_slice(&ctx, &[0u8, 2, 255, 1]).unwrap();
    // Reading maps every nonzero byte to true.
    assert_eq!(buffer.to_vec::<bool>(0, 4).unwrap(), [false, true, true, true]);
    let view = buffer.view::<bool>(0, &[4]).unwrap();
    assert_eq!(view.to_vec().unwrap(), [false, true, true, true]);
    // A host bool output must not receive raw bytes from a buffer.
    let err = ctx.elements(view, &[0i64], &[true], &Options::default()).unwrap_err();
    assert_eq!(err.status, Status::InvalidArgument);
    let err = ctx.elements(&[false; 4], &[0i64], view, &Options::default());
    assert!(err.is_err()); // updates from the buffer (shape mismatch or the bool rule)
    // Into a buffer it is fine, and the library treats nonzero as true.
    ctx.scatter_in_place(Op::Elements, buffer.view_mut::<bool>(0, &[4]).unwrap(), &[0i64, 1], &[true, true],
                         &Options::reduce(Reduction::Mul)).unwrap();
    assert_eq!(buffer.to_vec::<bool>(0, 4).unwrap(), [false, true, true, true]);
}

/// The context's C handle is destroyed after every buffer created on it, whatever order the
/// handles are dropped in: each buffer holds the context.
#[test]
fn a_context_outlives_its_buffers_whatever_the_drop_order() {
    let ctx = Context::cpu().unwrap();
    let mut first = Buffer::from_slice(&ctx, &[1.0f32, 2.0, 3.0]).unwrap();
    let second = Buffer::from_slice(&ctx, &[4.0f32]).unwrap();
    drop(ctx); // the last Context handle the caller holds
    let ctx = first.context().clone();
    let mut view = first.view_mut::<f32>(0, &[3]).unwrap();
    ctx.scatter_in_place(Op::Elements, &mut view, &[1i64], second.view::<f32>(0, &[1]).unwrap(),
                         &Options::reduce(Reduction::Add)).unwrap();
    drop(ctx);
    drop(first); // a buffer dropped while another still holds the context
    assert_eq!(second.to_vec::<f32>(0, 1).unwrap(), [4.0]);
    let third = second.context().buffer(4).unwrap();
    drop(second);
    assert_eq!(third.to_vec::<u32>(0, 1).unwrap(), [0]);
    drop(third); // the context goes with its last buffer
}
