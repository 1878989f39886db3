//! Every op x reduction x dtype (f16, bf16 and complex included) x exclude_self x index type
//! against the naive reference of tests/common; the unsupported pairs fail as the contract says.
mod common;

use common::{assert_close, case, reference, RefElem, Rng};
use scatter::{Complex32, Complex64, Context, Index, Op, Options, OutOfRange, Reduction, Status,
              TensorView, TensorViewMut, BF16, F16};

const OPS: [Op; 3] = [Op::Elements, Op::Rows, Op::Nd];

fn indices_as<I: Index + TryFrom<i64>>(indices: &[i64]) -> Vec<I> {
    indices.iter().map(|&i| I::try_from(i).unwrap_or_else(|_| panic!("index {i}"))).collect()
}

fn check_one<T: RefElem, I: Index + TryFrom<i64>>(ctx: &Context, op: Op, reduction: Reduction,
                                                   exclude_self: bool, seed: u64) {
    let mut rng = Rng(seed);
    let c = case::<T>(op, &mut rng);
    let options = Options { axis: c.axis, reduction, exclude_self, ..Options::default() };
    let indices: Vec<I> = indices_as(&c.indices);
    let what = format!("{op:?} {reduction} {} exclude_self={exclude_self} indices {}",
                       T::DTYPE, I::DTYPE);
    let before = c.data.clone();
    let got = ctx.scatter(op, TensorView::new(&c.data, &c.shape).unwrap(),
                          TensorView::new(&indices, &c.index_shape).unwrap(),
                          TensorView::new(&c.updates, &c.update_shape).unwrap(), &options);
    if !T::supports(reduction) {
        let err = got.expect_err(&what);
        assert_eq!(err.status, Status::Unsupported, "{what}: {err}");
        return;
    }
    let got = got.unwrap_or_else(|e| panic!("{what}: {e}"));
    let want = reference(op, &c.data, &c.shape, &c.indices, &c.index_shape, &c.updates,
                         &c.update_shape, &options).expect("indices in range");
    assert_close(&got, &want, &what);
    assert!(c.data == before, "{what}: data changed");

    // The same in place, through a mutable view.
    let mut data = c.data.clone();
    ctx.scatter_in_place(op, TensorViewMut::new(&mut data, &c.shape).unwrap(),
                         TensorView::new(&indices, &c.index_shape).unwrap(),
                         TensorView::new(&c.updates, &c.update_shape).unwrap(), &options)
        .unwrap_or_else(|e| panic!("{what} in place: {e}"));
    assert_close(&data, &got, &format!("{what} in place"));
}

fn check_dtype<T: RefElem>(ctx: &Context, seed: u64) {
    for (n, op) in OPS.into_iter().enumerate() {
        for (m, reduction) in Reduction::ALL.into_iter().enumerate() {
            let seed = seed * 1000 + n as u64 * 10 + m as u64 + 1;
            check_one::<T, i64>(ctx, op, reduction, false, seed);
            check_one::<T, i32>(ctx, op, reduction, true, seed);
        }
    }
}

#[test]
fn every_op_reduction_and_dtype_matches_the_reference() {
    let ctx = Context::cpu().unwrap();
    check_dtype::<f32>(&ctx, 1);
    check_dtype::<f64>(&ctx, 2);
    check_dtype::<i8>(&ctx, 3);
    check_dtype::<i16>(&ctx, 4);
    check_dtype::<i32>(&ctx, 5);
    check_dtype::<i64>(&ctx, 6);
    check_dtype::<u8>(&ctx, 7);
    check_dtype::<u16>(&ctx, 8);
    check_dtype::<u32>(&ctx, 9);
    check_dtype::<u64>(&ctx, 10);
    check_dtype::<bool>(&ctx, 11);
    check_dtype::<F16>(&ctx, 12);
    check_dtype::<BF16>(&ctx, 13);
    check_dtype::<Complex32>(&ctx, 14);
    check_dtype::<Complex64>(&ctx, 15);
}

#[test]
fn out_of_range_policies_match_the_reference() {
    let ctx = Context::cpu().unwrap();
    let data = [1i32, 2, 3, 4, 5];
    let indices = [7i64, -9, 2, 4, -1];
    let updates = [10, 20, 30, 40, 50];
    for policy in [OutOfRange::Skip, OutOfRange::Clamp] {
        let options = Options { reduction: Reduction::Add, out_of_range: policy, ..Options::default() };
        let got = ctx.elements(&data, &indices, &updates, &options).unwrap();
        let want = reference(Op::Elements, &data, &[5], &indices, &[5], &updates, &[5], &options).unwrap();
        assert_eq!(got, want, "{policy:?}");
    }
    let options = Options { out_of_range: OutOfRange::Error, ..Options::default() };
    assert!(reference(Op::Elements, &data, &[5], &indices, &[5], &updates, &[5], &options).is_err());
    let err = ctx.elements(&data, &indices, &updates, &options).unwrap_err();
    assert_eq!(err.status, Status::IndexOutOfRange);

    // nd skips the whole slice when one coordinate is out of range.
    let data = [0u16; 6]; // 2 x 3
    let options = Options { out_of_range: OutOfRange::Skip, ..Options::default() };
    let nd_indices = [1i32, 5, 0, 0];
    let got = ctx.nd(TensorView::new(&data, &[2, 3]).unwrap(), TensorView::new(&nd_indices, &[2, 2]).unwrap(),
                     &[8u16, 9], &options).unwrap();
    let want = reference(Op::Nd, &data, &[2, 3], &[1, 5, 0, 0], &[2, 2], &[8, 9], &[2], &options).unwrap();
    assert_eq!(got, want);
    assert_eq!(got, [9, 0, 0, 0, 0, 0]);
}

#[test]
fn negative_axis_counts_from_the_back() {
    let ctx = Context::cpu().unwrap();
    let data = [0.0f64; 6]; // 2 x 3
    let updates = [1.0, 2.0, 3.0, 4.0];
    let options = Options { axis: -1, reduction: Reduction::Max, ..Options::default() };
    let got = ctx.rows(TensorView::new(&data, &[2, 3]).unwrap(), &[2i64, 2],
                       TensorView::new(&updates, &[2, 2]).unwrap(), &options).unwrap();
    let want = reference(Op::Rows, &data, &[2, 3], &[2, 2], &[2], &updates, &[2, 2], &options).unwrap();
    assert_eq!(got, want);
    assert_eq!(got, [0.0, 0.0, 2.0, 0.0, 0.0, 4.0]);
}

#[test]
fn rank_zero_indices_for_rows() {
    // indices of rank 0: one slice.
    let ctx = Context::cpu().unwrap();
    let data = [0i64; 6]; // 3 x 2
    let got = ctx.rows(TensorView::new(&data, &[3, 2]).unwrap(), TensorView::new(&[1i64], &[]).unwrap(),
                       &[5i64, 6], &Options::default()).unwrap();
    assert_eq!(got, [0, 0, 5, 6, 0, 0]);
}

#[test]
fn integer_division_by_zero_is_an_error_and_changes_nothing() {
    let ctx = Context::cpu().unwrap();
    let mut data = [10i32, 20, 30];
    let err = ctx.scatter_in_place(Op::Elements, &mut data, &[0i32, 1], &[2, 0], &Options::reduce(Reduction::Div))
        .unwrap_err();
    assert_eq!(err.status, Status::InvalidArgument, "{err}");
    assert_eq!(data, [10, 20, 30]);
}
