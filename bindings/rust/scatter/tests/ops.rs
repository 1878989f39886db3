//! The three operations, in place and not, the error path with atomicity, threads.
use scatter::{Backend, Context, ContextOptions, Op, Options, OutOfRange, Reduction, Status, TensorView,
              TensorViewMut};

fn add() -> Options {
    Options { reduction: Reduction::Add, ..Options::default() }
}

#[test]
fn elements_adds_duplicates() {
    let ctx = Context::cpu().unwrap();
    assert_eq!(ctx.backend(), Backend::Cpu);
    let data = [1.0f32, 2.0, 3.0, 4.0];
    let out = ctx
        .scatter(Op::Elements, TensorView::new(&data, &[4]).unwrap(),
                 TensorView::new(&[0i64, 3, 0, -1], &[4]).unwrap(),
                 TensorView::new(&[10.0f32, 20.0, 30.0, 40.0], &[4]).unwrap(), &add())
        .unwrap();
    assert_eq!(out, [41.0, 2.0, 3.0, 64.0]);
    assert_eq!(data, [1.0, 2.0, 3.0, 4.0]);
}

#[test]
fn rows_in_place_on_axis_1() {
    let ctx = Context::new(ContextOptions { backend: Backend::Cpu, threads: 2, ..Default::default() }).unwrap();
    let mut data = [0i32; 6]; // 2 x 3
    let updates = [1i32, 2, 3, 4]; // 2 x 2: column 2 and column 0 of each row
    let options = Options { axis: 1, ..Options::default() };
    ctx.scatter_in_place(Op::Rows, TensorViewMut::new(&mut data, &[2, 3]).unwrap(),
                         TensorView::new(&[2i32, 0], &[2]).unwrap(),
                         TensorView::new(&updates, &[2, 2]).unwrap(), &options)
        .unwrap();
    assert_eq!(data, [2, 0, 1, 4, 0, 3]);
}

#[test]
fn nd_max_with_skip() {
    let ctx = Context::cpu().unwrap();
    let data = [5u8; 4]; // 2 x 2
    let indices = [1i64, 1, 0, 0, 9, 0]; // 3 x 2; the last is out of range and skipped
    let options = Options { reduction: Reduction::Max, out_of_range: OutOfRange::Skip, ..Options::default() };
    let out = ctx
        .nd(TensorView::new(&data, &[2, 2]).unwrap(), TensorView::new(&indices, &[3, 2]).unwrap(),
            &[9u8, 1, 7], &options)
        .unwrap();
    assert_eq!(out, [5, 5, 5, 9]);
}

#[test]
fn out_of_range_index_is_an_error_and_changes_nothing() {
    let ctx = Context::cpu().unwrap();
    let mut data = [1.0f64, 2.0, 3.0];
    let err = ctx
        .scatter_in_place(Op::Elements, &mut data, &[0i32, 7], &[5.0f64, 6.0], &add())
        .unwrap_err();
    assert_eq!(err.status, Status::IndexOutOfRange);
    assert_eq!(err.name(), "SCATTER_ERROR_INDEX_OUT_OF_RANGE");
    assert_eq!(err.message, "indices[1] = 7 is outside [-3, 3) on axis 0");
    assert_eq!(err.to_string(), "SCATTER_ERROR_INDEX_OUT_OF_RANGE: indices[1] = 7 is outside [-3, 3) on axis 0");
    let as_std: &dyn std::error::Error = &err;
    assert!(as_std.source().is_none());
    assert_eq!(data, [1.0, 2.0, 3.0]);
}

#[test]
fn scatter_into_a_separate_output_leaves_data_alone() {
    let ctx = Context::cpu().unwrap();
    let data = [1i16, 2, 3];
    let mut out = [0i16; 3];
    ctx.scatter_into(Op::Elements, &data, &[2i64], &[9i16], &Options::reduce(Reduction::Mul), &mut out).unwrap();
    assert_eq!(out, [1, 2, 27]);
    assert_eq!(data, [1, 2, 3]);
    // A failed call leaves `out` byte-for-byte unchanged.
    let mut out = [7i16; 3];
    assert!(ctx.scatter_into(Op::Elements, &data, &[3i64], &[9i16], &Options::default(), &mut out).is_err());
    assert_eq!(out, [7, 7, 7]);
}

#[test]
fn unsupported_pair_and_bad_shapes() {
    let ctx = Context::cpu().unwrap();
    let data = [false; 2];
    let err = ctx.elements(&data, &[0i64], &[true], &Options::reduce(Reduction::Max)).unwrap_err();
    assert_eq!(err.status, Status::Unsupported);
    assert_eq!(TensorView::new(&[1.0f32; 3], &[2, 2]).unwrap_err().status, Status::ShapeMismatch);
    let err = ctx
        .rows(TensorView::new(&[0.0f32; 4], &[2, 2]).unwrap(), &[0i64], &[1.0f32; 3], &Options::default())
        .unwrap_err();
    assert_eq!(err.status, Status::ShapeMismatch);
    // 0-d data is a shape error of the library; a bad axis an invalid argument.
    let err = ctx.elements(TensorView::new(&[1.0f32], &[]).unwrap(), &[0i64], &[1.0f32], &Options::default())
        .unwrap_err();
    assert_eq!(err.status, Status::ShapeMismatch);
    let err = ctx.elements(&[1.0f32; 2], &[0i64], &[1.0f32], &Options { axis: 1, ..Options::default() })
        .unwrap_err();
    assert_eq!(err.status, Status::InvalidArgument);
    // nd needs axis 0.
    let err = ctx.nd(&[1.0f32; 2], TensorView::new(&[0i64], &[1, 1]).unwrap(), &[1.0f32],
                     &Options { axis: 1, ..Options::default() }).unwrap_err();
    assert_eq!(err.status, Status::InvalidArgument);
}

#[test]
fn version_is_reported() {
    assert!(scatter::version().starts_with("0."));
    let (major, minor, patch) = scatter::version_numbers();
    assert_eq!(format!("{major}.{minor}.{patch}"), scatter::version());
    assert_eq!(major, scatter::sys::SCATTER_VERSION_MAJOR);
}

#[test]
fn one_context_from_several_threads() {
    let ctx = Context::cpu().unwrap();
    std::thread::scope(|scope| {
        for t in 0..4i32 {
            let ctx = &ctx;
            scope.spawn(move || {
                for _ in 0..50 {
                    let out = ctx.elements(&[0i32; 3], &[1i64], &[t], &Options::default()).unwrap();
                    assert_eq!(out, [0, t, 0]);
                }
                // The last-error message is per thread.
                let err = ctx.elements(&[0i32; 3], &[3 + t as i64], &[t], &Options::default()).unwrap_err();
                assert!(err.message.starts_with(&format!("indices[0] = {}", 3 + t)), "{err}");
            });
        }
    });
    // A context moves to and is shared with other threads (Send + Sync), and clones share it.
    let clone = ctx.clone();
    let handle = std::thread::spawn(move || clone.elements(&[0u64; 2], &[0i32], &[5u64], &Options::default()));
    assert_eq!(handle.join().unwrap().unwrap(), [5, 0]);
}

#[test]
fn reduction_names_and_pytorch_onnx_aliases_parse() {
    let pairs = [("sum", Reduction::Add), ("prod", Reduction::Mul), ("multiply", Reduction::Mul),
                 ("amax", Reduction::Max), ("amin", Reduction::Min), ("mean", Reduction::Mean)];
    for (name, reduction) in pairs {
        assert_eq!(name.parse::<Reduction>(), Ok(reduction));
    }
    for reduction in Reduction::ALL {
        assert_eq!(reduction.name().parse::<Reduction>(), Ok(reduction));
        assert_eq!(reduction.to_string(), reduction.name());
    }
    let err = "xor".parse::<Reduction>().unwrap_err();
    assert_eq!(err.status, Status::InvalidArgument);
    assert!(err.message.starts_with("reduction \"xor\" is not one of none, add"));
    assert_eq!("clamp".parse::<OutOfRange>(), Ok(OutOfRange::Clamp));
    assert!("wrap".parse::<OutOfRange>().is_err());
    assert_eq!("vulkan".parse::<Backend>(), Ok(Backend::Vulkan));
    assert!("tpu".parse::<Backend>().is_err());
}

#[test]
fn exclude_self_and_nondeterminism_flags_reach_the_library() {
    let ctx = Context::new(ContextOptions { backend: Backend::Cpu, deterministic: false, ..Default::default() })
        .unwrap();
    let options = Options { reduction: Reduction::Add, exclude_self: true, allow_nondeterminism: true,
                            ..Options::default() };
    let out = ctx.elements(&[100i32, 100, 100], &[0i64, 0, 2], &[1, 2, 3], &options).unwrap();
    assert_eq!(out, [3, 100, 3]); // hit targets start from 0, the untouched one keeps 100
}

/// An output too large for host memory is `OutOfMemory`, not an abort of the process (the
/// binding allocates it fallibly); nothing the caller owns changes.
#[test]
fn outputs_too_large_for_memory_are_out_of_memory() {
    let ctx = Context::cpu().unwrap();
    let one = [1.0f32];
    // 2^46 elements broadcast from one: the view is valid, its copy (256 TiB of f32, more than a
    // 48-bit address space holds, so no allocator grants it even when it overcommits) is not.
    let huge = TensorView::with_strides(&one, 0, &[1 << 46], &[0]).unwrap();
    let err = ctx.scatter(Op::Elements, huge, TensorView::new(&[0i64], &[1]).unwrap(),
                          TensorView::new(&[2.0f32], &[1]).unwrap(), &add()).unwrap_err();
    assert_eq!(err.status, Status::OutOfMemory, "{err}");
    assert!(err.message.contains("70368744177664 elements"), "{err}");
    assert_eq!(huge.to_vec().unwrap_err().status, Status::OutOfMemory);
    // More bytes than a Vec can ever hold (a capacity overflow, not a failed allocation).
    let beyond = TensorView::with_strides(&one, 0, &[usize::MAX / 2], &[0]).unwrap();
    assert_eq!(beyond.to_vec().unwrap_err().status, Status::OutOfMemory);
    let buffer = ctx.buffer(16).unwrap();
    assert_eq!(buffer.to_vec::<f32>(0, 1 << 46).unwrap_err().status, Status::OutOfMemory);
    assert_eq!(buffer.to_vec::<u64>(0, usize::MAX / 4).unwrap_err().status, Status::OutOfMemory);
    assert_eq!(one, [1.0]);
}
