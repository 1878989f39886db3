//! The three operations, in place and not, and the error path with atomicity.
use scatter::{Backend, Context, Op, Options, OutOfRange, Reduction, Status, View};

fn add() -> Options {
    Options { reduction: Reduction::Add, ..Options::default() }
}

#[test]
fn elements_adds_duplicates() {
    let ctx = Context::cpu().unwrap();
    assert_eq!(ctx.backend(), Backend::Cpu);
    let data = [1.0f32, 2.0, 3.0, 4.0];
    let out = ctx
        .scatter(Op::Elements, View::new(&data, &[4]).unwrap(),
                 View::new(&[0i64, 3, 0, -1], &[4]).unwrap(),
                 View::new(&[10.0f32, 20.0, 30.0, 40.0], &[4]).unwrap(), &add())
        .unwrap();
    assert_eq!(out, [41.0, 2.0, 3.0, 64.0]);
    assert_eq!(data, [1.0, 2.0, 3.0, 4.0]);
}

#[test]
fn rows_in_place_on_axis_1() {
    let ctx = Context::new(Backend::Cpu, 2).unwrap();
    let mut data = [0i32; 6]; // 2 x 3
    let updates = [1i32, 2, 3, 4]; // 2 x 2: column 2 and column 0 of each row
    let options = Options { axis: 1, ..Options::default() };
    ctx.scatter_in_place(Op::Rows, &mut data, &[2, 3], View::new(&[2i32, 0], &[2]).unwrap(),
                         View::new(&updates, &[2, 2]).unwrap(), &options)
        .unwrap();
    assert_eq!(data, [2, 0, 1, 4, 0, 3]);
}

#[test]
fn nd_max_with_skip() {
    let ctx = Context::cpu().unwrap();
    let data = [5u8; 4]; // 2 x 2
    let indices = [1i64, 1, 0, 0, 9, 0]; // 3 x 2; the last is out of range and skipped
    let options = Options { reduction: Reduction::Max, out_of_range: OutOfRange::Skip,
                            ..Options::default() };
    let out = ctx
        .scatter(Op::Nd, View::new(&data, &[2, 2]).unwrap(), View::new(&indices, &[3, 2]).unwrap(),
                 View::new(&[9u8, 1, 7], &[3]).unwrap(), &options)
        .unwrap();
    assert_eq!(out, [5, 5, 5, 9]);
}

#[test]
fn out_of_range_index_is_an_error_and_changes_nothing() {
    let ctx = Context::cpu().unwrap();
    let mut data = [1.0f64, 2.0, 3.0];
    let err = ctx
        .scatter_in_place(Op::Elements, &mut data, &[3], View::new(&[0i32, 7], &[2]).unwrap(),
                          View::new(&[5.0f64, 6.0], &[2]).unwrap(), &add())
        .unwrap_err();
    assert_eq!(err.status, Status::IndexOutOfRange);
    assert_eq!(err.name, "SCATTER_ERROR_INDEX_OUT_OF_RANGE");
    assert!(err.message.contains('7'), "message: {}", err.message);
    assert!(err.to_string().starts_with("SCATTER_ERROR_INDEX_OUT_OF_RANGE: "));
    assert_eq!(data, [1.0, 2.0, 3.0]);
}

#[test]
fn unsupported_pair_and_bad_shapes() {
    let ctx = Context::cpu().unwrap();
    let data = [false; 2];
    let err = ctx
        .scatter(Op::Elements, View::new(&data, &[2]).unwrap(), View::new(&[0i64], &[1]).unwrap(),
                 View::new(&[true], &[1]).unwrap(),
                 &Options { reduction: Reduction::Max, ..Options::default() })
        .unwrap_err();
    assert_eq!(err.status, Status::Unsupported);
    assert_eq!(View::new(&[1.0f32; 3], &[2, 2]).unwrap_err().status, Status::ShapeMismatch);
    let err = ctx
        .scatter(Op::Rows, View::new(&[0.0f32; 4], &[2, 2]).unwrap(),
                 View::new(&[0i64], &[1]).unwrap(), View::new(&[1.0f32; 3], &[3]).unwrap(),
                 &Options::default())
        .unwrap_err();
    assert_eq!(err.status, Status::ShapeMismatch);
}

#[test]
fn version_is_reported() {
    assert!(scatter::version().starts_with("0."));
}

#[test]
fn one_context_from_several_threads() {
    let ctx = Context::cpu().unwrap();
    std::thread::scope(|scope| {
        for t in 0..4i32 {
            let ctx = &ctx;
            scope.spawn(move || {
                let out = ctx
                    .scatter(Op::Elements, View::new(&[0i32; 3], &[3]).unwrap(),
                             View::new(&[1i64], &[1]).unwrap(), View::new(&[t], &[1]).unwrap(),
                             &Options::default())
                    .unwrap();
                assert_eq!(out, [0, t, 0]);
            });
        }
    });
}

#[test]
fn reduction_names_and_pytorch_onnx_aliases_parse() {
    let pairs = [("sum", Reduction::Add), ("prod", Reduction::Mul), ("multiply", Reduction::Mul),
                 ("amax", Reduction::Max), ("amin", Reduction::Min), ("mean", Reduction::Mean)];
    for (name, reduction) in pairs {
        assert_eq!(name.parse::<Reduction>(), Ok(reduction));
    }
    let err = "xor".parse::<Reduction>().unwrap_err();
    assert!(err.to_string().starts_with("reduction \"xor\" is not one of none, add"));
}
