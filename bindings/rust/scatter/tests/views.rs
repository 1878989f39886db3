//! Tensor views: shapes, element strides (transposed, negative, zero), strided outputs, the
//! checks that keep views inside their slices, empty tensors and opaque elements.
mod common;

use common::{positions, reference, Rng};
use scatter::{Context, DType, Element, Op, Opaque, Options, Reduction, Status, TensorView, TensorViewMut,
              MAX_RANK};

#[test]
fn accessors() {
    let data = [1u32, 2, 3, 4, 5, 6];
    let v = TensorView::new(&data, &[2, 3]).unwrap();
    assert_eq!((v.rank(), v.shape(), v.strides(), v.len(), v.is_empty(), v.in_buffer()),
               (2, &[2usize, 3][..], None, 6, false, false));
    assert_eq!(v.dtype(), DType::U32);
    assert_eq!(v.get(&[1, 2]), Some(6));
    assert_eq!(v.get(&[2, 0]), None);
    assert_eq!(v.get(&[0]), None);
    assert_eq!(v.to_vec().unwrap(), data);
    let t = TensorView::with_strides(&data, 0, &[3, 2], &[1, 3]).unwrap();
    assert_eq!(t.strides(), Some(&[1isize, 3][..]));
    assert_eq!(t.to_vec().unwrap(), [1, 4, 2, 5, 3, 6]);
    assert!(format!("{t:?}").contains("strides"));
    let one_d: TensorView<'_, u32> = (&data).into();
    assert_eq!(one_d.shape(), &[6]);
    let scalar = TensorView::new(&data[..1], &[]).unwrap();
    assert_eq!((scalar.rank(), scalar.len(), scalar.get(&[])), (0, 1, Some(1)));
}

#[test]
fn views_must_stay_inside_their_slice() {
    let data = [0.0f32; 6];
    let err = TensorView::with_strides(&data, 0, &[3], &[-1]).unwrap_err(); // would reach data[-2]
    assert_eq!(err.status, Status::InvalidArgument);
    assert!(TensorView::with_strides(&data, 2, &[3], &[-1]).is_ok());
    assert!(TensorView::with_strides(&data, 0, &[2, 3], &[3, 1]).is_ok());
    assert_eq!(TensorView::with_strides(&data, 1, &[2, 3], &[3, 1]).unwrap_err().status, Status::InvalidArgument);
    assert_eq!(TensorView::with_strides(&data, 0, &[2, 3], &[1]).unwrap_err().status, Status::ShapeMismatch);
    assert_eq!(TensorView::with_strides(&data, 0, &[4], &[isize::MAX]).unwrap_err().status,
               Status::InvalidArgument);
    assert_eq!(TensorView::with_strides(&data, 7, &[0], &[1]).unwrap_err().status, Status::InvalidArgument);
    assert!(TensorView::with_strides(&data, 6, &[0, 5], &[1, 100]).is_ok()); // empty: reaches nothing
    // Zero strides broadcast a read-only view ...
    let b = TensorView::with_strides(&data[..1], 0, &[4, 3], &[0, 0]).unwrap();
    assert_eq!(b.len(), 12);
    // ... but a writable view's elements must not overlap.
    let mut out = [0.0f32; 6];
    let err = TensorViewMut::with_strides(&mut out, 0, &[2, 3], &[0, 1]).unwrap_err();
    assert_eq!(err.status, Status::InvalidArgument);
    assert_eq!(TensorViewMut::with_strides(&mut out, 0, &[2, 3], &[2, 1]).unwrap_err().status,
               Status::InvalidArgument);
    assert!(TensorViewMut::with_strides(&mut out, 5, &[2, 3], &[-1, -2]).is_ok());
    assert!(TensorViewMut::with_strides(&mut out, 0, &[1, 3], &[0, 2]).is_ok()); // size-1 dim
}

#[test]
fn ranks_and_shape_limits() {
    let data = [7i8];
    let shape = [1usize; MAX_RANK];
    assert_eq!(TensorView::new(&data, &shape).unwrap().rank(), 16);
    let err = TensorView::new(&data, &[1; MAX_RANK + 1]).unwrap_err();
    assert_eq!(err.status, Status::ShapeMismatch);
    assert_eq!(err.message, "rank 17 exceeds the maximum rank 16");
    let err = TensorView::new(&data, &[i64::MAX as usize, 4]).unwrap_err();
    assert_eq!(err.status, Status::ShapeMismatch);
    let err = TensorView::new(&data, &[usize::MAX]).unwrap_err();
    assert_eq!(err.status, Status::ShapeMismatch);
    let empty: [i8; 0] = [];
    assert!(TensorView::new(&empty, &[i64::MAX as usize, 0]).unwrap().is_empty());
}

#[test]
fn strided_inputs_match_their_contiguous_copies() {
    let ctx = Context::cpu().unwrap();
    let mut rng = Rng(99);
    let storage: Vec<f64> = rng.values(12); // seen as 3 x 4 transposed to 4 x 3
    let data = TensorView::with_strides(&storage, 0, &[4, 3], &[1, 4]).unwrap();
    let indices_storage = [2i64, 0, 1, 3, 3, 0]; // reversed: read from the back
    let indices = TensorView::with_strides(&indices_storage, 5, &[2, 3], &[-3, -1]).unwrap();
    let updates_value = [0.5f64];
    let updates = TensorView::with_strides(&updates_value, 0, &[2, 3], &[0, 0]).unwrap(); // broadcast
    for reduction in [Reduction::None, Reduction::Add, Reduction::Mul, Reduction::Max, Reduction::Mean] {
        let options = Options { reduction, ..Options::default() };
        let got = ctx.elements(data, indices, updates, &options).unwrap();
        let (d, i, u) = (data.to_vec().unwrap(), indices.to_vec().unwrap(), updates.to_vec().unwrap());
        let want = reference(Op::Elements, &d, &[4, 3], &i, &[2, 3], &u, &[2, 3], &options).unwrap();
        assert_eq!(got, want, "{reduction}");
    }
}

#[test]
fn strided_and_reversed_outputs() {
    let ctx = Context::cpu().unwrap();
    // Column 1 of a 3 x 3 matrix, written through a strided out; the rest is untouched.
    let mut matrix = [-1i64; 9];
    let data = [1i64, 2, 3];
    {
        let out = TensorViewMut::with_strides(&mut matrix, 1, &[3], &[3]).unwrap();
        ctx.scatter_into(Op::Elements, &data, &[0i32, 2], &[10i64, 30], &Options::reduce(Reduction::Add), out)
            .unwrap();
    }
    assert_eq!(matrix, [-1, 11, -1, -1, 2, -1, -1, 33, -1]);

    // In place through a reversed view: position 0 is the slice's last element.
    let mut data = [0u32, 1, 2, 3, 4];
    let mut reversed = TensorViewMut::with_strides(&mut data, 4, &[5], &[-1]).unwrap();
    reversed.set(&[1], 100).unwrap();
    assert!(reversed.set(&[5], 0).is_err());
    ctx.scatter_in_place(Op::Elements, &mut reversed, &[0i64, -1], &[7u32, 9], &Options::default()).unwrap();
    assert_eq!(reversed.to_vec().unwrap(), [7, 100, 2, 1, 9]);
    assert_eq!(data, [9, 1, 2, 100, 7]);

    // A transposed out of a rows scatter equals the contiguous result transposed.
    let src: Vec<f32> = (0..6).map(|v| v as f32).collect(); // 2 x 3
    let mut out_storage = [0.0f32; 6];
    let out = TensorViewMut::with_strides(&mut out_storage, 0, &[2, 3], &[1, 2]).unwrap();
    let view = TensorView::new(&src, &[2, 3]).unwrap();
    let updates = [9.0f32, 8.0, 7.0];
    ctx.scatter_into(Op::Rows, view, &[1i64], TensorView::new(&updates, &[1, 3]).unwrap(), &Options::default(), out)
        .unwrap();
    let contiguous = ctx.rows(view, &[1i64], TensorView::new(&updates, &[1, 3]).unwrap(), &Options::default())
        .unwrap();
    for p in positions(&[2, 3]) {
        assert_eq!(out_storage[p[0] + 2 * p[1]], contiguous[p[0] * 3 + p[1]]);
    }
}

#[test]
fn empty_tensors() {
    let ctx = Context::cpu().unwrap();
    let data = [1.0f32, 2.0];
    let none: [i64; 0] = [];
    let nothing: [f32; 0] = [];
    let out = ctx.elements(&data, TensorView::new(&none, &[0]).unwrap(), TensorView::new(&nothing, &[0]).unwrap(),
                           &Options::reduce(Reduction::Add)).unwrap();
    assert_eq!(out, data);
    let out = ctx.elements(TensorView::new(&nothing, &[0, 3]).unwrap(), TensorView::new(&none, &[0, 3]).unwrap(),
                           TensorView::new(&nothing, &[0, 3]).unwrap(), &Options::default()).unwrap();
    assert!(out.is_empty());
}

/// A record scattered as opaque bytes.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[repr(C)]
struct Record {
    id: u32,
    weight: f32,
    tag: [u8; 4],
}

// SAFETY: plain old data: every byte pattern is a valid Record (u32, f32 and bytes).
unsafe impl Element for Record {
    const DTYPE: DType = DType::Opaque;
}

#[test]
fn opaque_elements_are_copied_whole() {
    let ctx = Context::cpu().unwrap();
    let names = [Opaque(*b"ab"), Opaque(*b"cd"), Opaque(*b"ef")];
    let out = ctx.elements(&names, &[2i64, 0], &[Opaque(*b"XY"), Opaque(*b"ZW")], &Options::default()).unwrap();
    assert_eq!(out, [Opaque(*b"ZW"), Opaque(*b"cd"), Opaque(*b"XY")]);
    // Only `none` applies to opaque elements.
    let err = ctx.elements(&names, &[0i64], &[Opaque(*b"zz")], &Options::reduce(Reduction::Add)).unwrap_err();
    assert_eq!(err.status, Status::Unsupported);

    let mut records = [Record::default(); 3];
    let updates = [Record { id: 7, weight: 0.5, tag: *b"seve" }, Record { id: 9, weight: 1.5, tag: *b"nine" }];
    ctx.scatter_in_place(Op::Rows, &mut records, &[1i32, 2], &updates, &Options::default()).unwrap();
    assert_eq!(records, [Record::default(), updates[0], updates[1]]);
}
