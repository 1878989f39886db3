//! The Vulkan backend through the binding (any Vulkan device, lavapipe included): every op x
//! reduction bitwise equal to the CPU, buffers on the device, batches, profiles, the pipeline
//! cache, device choice. Skipped, with a printed reason, where no Vulkan device is present,
//! unless SCATTER_TEST_REQUIRE_VULKAN=1 (as `make test` sets), which makes that a failure.
mod common;

use std::sync::{Arc, Mutex};

use common::{case, RefElem, Rng};
use scatter::{devices, Backend, Buffer, Context, ContextOptions, Op, Options, Reduction, Status, TensorView, F16};

fn gpu() -> Option<Context> {
    match Context::new(ContextOptions { backend: Backend::Vulkan, ..Default::default() }) {
        Ok(ctx) => Some(ctx),
        Err(e) if std::env::var("SCATTER_TEST_REQUIRE_VULKAN").as_deref() == Ok("1") => {
            panic!("SCATTER_TEST_REQUIRE_VULKAN=1 but no Vulkan context: {e}")
        }
        Err(e) => {
            println!("SKIPPED: no Vulkan device here ({e})");
            None
        }
    }
}

fn bits<T>(values: &[T]) -> Vec<u8> {
    // SAFETY: reading the initialised bytes of plain-old-data elements.
    unsafe { std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), std::mem::size_of_val(values)).to_vec() }
}

fn equal_to_cpu<T: RefElem>(gpu: &Context, cpu: &Context, seed: u64) -> usize {
    let mut compared = 0;
    for op in [Op::Elements, Op::Rows, Op::Nd] {
        for reduction in Reduction::ALL {
            if !T::supports(reduction) {
                continue;
            }
            let c = case::<T>(op, &mut Rng(seed));
            let options = Options { axis: c.axis, reduction, exclude_self: reduction == Reduction::Mean,
                                    ..Options::default() };
            let run = |ctx: &Context| ctx.scatter(op, TensorView::new(&c.data, &c.shape).unwrap(),
                                                  TensorView::new(&c.indices, &c.index_shape).unwrap(),
                                                  TensorView::new(&c.updates, &c.update_shape).unwrap(), &options);
            let got = match run(gpu) {
                Ok(got) => got,
                Err(e) if e.status == Status::Unsupported => {
                    println!("device lacks a feature for {op:?} {reduction} {}: {e}", T::DTYPE);
                    continue;
                }
                Err(e) => panic!("{op:?} {reduction} {}: {e}", T::DTYPE),
            };
            let want = run(cpu).unwrap();
            assert_eq!(bits(&got), bits(&want), "{op:?} {reduction} {}", T::DTYPE);
            compared += 1;
        }
    }
    compared
}

#[test]
fn vulkan_equals_cpu() {
    let Some(gpu) = gpu() else { return };
    assert_eq!(gpu.backend(), Backend::Vulkan);
    let cpu = Context::cpu().unwrap();
    let compared = equal_to_cpu::<f32>(&gpu, &cpu, 1) + equal_to_cpu::<i32>(&gpu, &cpu, 2)
        + equal_to_cpu::<F16>(&gpu, &cpu, 3) + equal_to_cpu::<u8>(&gpu, &cpu, 4);
    assert!(compared > 40, "only {compared} cases ran on the device");
}

#[test]
fn vulkan_buffers_and_errors() {
    let Some(gpu) = gpu() else { return };
    let mut data = Buffer::from_slice(&gpu, &[0.0f32, 1.0, 2.0, 3.0]).unwrap();
    let indices = Buffer::from_slice(&gpu, &[1i64, 1, 3]).unwrap();
    let updates = Buffer::from_slice(&gpu, &[1.0f32, 1.0, 1.0]).unwrap();
    gpu.scatter_in_place(Op::Elements, data.view_mut::<f32>(0, &[4]).unwrap(), indices.view::<i64>(0, &[3]).unwrap(),
                         updates.view::<f32>(0, &[3]).unwrap(), &Options::reduce(Reduction::Add)).unwrap();
    assert_eq!(data.to_vec::<f32>(0, 4).unwrap(), [0.0, 3.0, 2.0, 4.0]);
    // An out-of-range index is found on the device and changes nothing.
    let err = gpu.scatter_in_place(Op::Elements, data.view_mut::<f32>(0, &[4]).unwrap(), &[8i64], &[5.0f32],
                                   &Options::default()).unwrap_err();
    assert_eq!(err.status, Status::IndexOutOfRange);
    assert_eq!(data.to_vec::<f32>(0, 4).unwrap(), [0.0, 3.0, 2.0, 4.0]);
    // Host tensors on a Vulkan context.
    let mut host = [0.0f32, 1.0, 2.0, 3.0];
    assert!(gpu.scatter_in_place(Op::Elements, &mut host, &[1i64, 8], &[1.0f32, 2.0], &Options::default()).is_err());
    assert_eq!(host, [0.0, 1.0, 2.0, 3.0]);
    // Device copies.
    let mut copy = gpu.buffer(16).unwrap();
    copy.copy_from(0, &data, 0, 16).unwrap();
    assert_eq!(copy.to_vec::<f32>(0, 4).unwrap(), [0.0, 3.0, 2.0, 4.0]);
}

#[test]
fn batches_run_in_order_and_report_the_first_failure() {
    let Some(gpu) = gpu() else { return };
    let mut buffer = gpu.buffer(16).unwrap();
    let mut other = gpu.buffer(16).unwrap();
    {
        let mut data = buffer.view_mut::<f32>(0, &[4]).unwrap();
        let mut out = other.view_mut::<f32>(0, &[4]).unwrap();
        let mut batch = gpu.batch().unwrap();
        let add = Options::reduce(Reduction::Add);
        batch.record_in_place(Op::Elements, &mut data, &[1i64, 1], &[1.0f32, 2.0], &add).unwrap();
        batch.record_in_place(Op::Elements, &mut data, &[3i64], &[5.0f32], &add).unwrap();
        batch.record(Op::Elements, &[1.0f32; 4], &[0i64], &[9.0f32], &Options::default(), &mut out).unwrap();
        // A host out is refused at once; a shape error is reported when recorded.
        let mut host = [0.0f32; 4];
        let mut host_view = scatter::TensorViewMut::from_slice(&mut host);
        assert_eq!(batch.record(Op::Elements, &[1.0f32; 4], &[0i64], &[1.0f32], &add, &mut host_view)
                       .unwrap_err().status, Status::InvalidArgument);
        assert_eq!(batch.record_in_place(Op::Elements, &mut data, &[0i64, 1], &[1.0f32], &add).unwrap_err().status,
                   Status::ShapeMismatch);
        assert_eq!(batch.context().backend(), Backend::Vulkan);
        batch.run().unwrap();
    }
    assert_eq!(buffer.to_vec::<f32>(0, 4).unwrap(), [0.0, 3.0, 0.0, 5.0]);
    assert_eq!(other.to_vec::<f32>(0, 4).unwrap(), [9.0, 1.0, 1.0, 1.0]);

    // An index out of range is found on the device, at run.
    let before = buffer.to_vec::<f32>(0, 4).unwrap();
    let err = {
        let mut data = buffer.view_mut::<f32>(0, &[4]).unwrap();
        let mut batch = gpu.batch().unwrap();
        batch.record_in_place(Op::Elements, &mut data, &[0i64], &[1.0f32], &Options::reduce(Reduction::Add)).unwrap();
        batch.record_in_place(Op::Elements, &mut data, &[7i64], &[1.0f32], &Options::default()).unwrap();
        batch.run().unwrap_err()
    };
    assert_eq!(err.status, Status::IndexOutOfRange);
    assert!(err.message.starts_with("batch operation 1"), "{err}");
    assert_eq!(buffer.to_vec::<f32>(0, 4).unwrap(), [before[0] + 1.0, before[1], before[2], before[3]]);
}

#[test]
fn profiles_pipeline_cache_devices_and_logs() {
    let Some(plain) = gpu() else { return };
    let cache = plain.pipeline_cache_data().unwrap();
    let lines: Arc<Mutex<Vec<String>>> = Arc::default();
    let sink = lines.clone();
    let vulkan_index = devices().unwrap().iter().find(|d| d.backend == Backend::Vulkan).map(|d| d.index);
    let ctx = Context::new(ContextOptions {
        backend: Backend::Vulkan,
        device: vulkan_index,
        profile: true,
        validation: true, // the layer may be missing: then a WARNING says so
        log: Some(Arc::new(move |_, line: &str| sink.lock().unwrap().push(line.to_string()))),
        pipeline_cache: Some(cache),
        ..Default::default()
    }).unwrap();
    assert_eq!(ctx.backend(), Backend::Vulkan);
    let out = ctx.elements(&[0i32; 4], &[2i64], &[3i32], &Options::default()).unwrap();
    assert_eq!(out, [0, 0, 3, 0]);
    let profile = ctx.last_profile().unwrap();
    assert_eq!(profile.backend, Backend::Vulkan);
    assert!(!profile.passes.is_empty(), "{profile:?}");
    assert!(!lines.lock().unwrap().is_empty());
    assert!(!ctx.pipeline_cache_data().unwrap().is_empty());
}
