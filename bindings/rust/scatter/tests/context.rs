//! Contexts and their options, devices, logging, profiling, thread-safety markers.
use std::sync::{Arc, Mutex};

use scatter::{devices, Backend, Buffer, Context, ContextOptions, DeviceType, Features, LogLevel, Op, Options,
              Reduction, Status, TensorView, TensorViewMut};

#[test]
fn devices_start_with_the_cpu() {
    let list = devices().unwrap();
    let cpu = &list[0];
    assert_eq!((cpu.backend, cpu.device_type, cpu.index), (Backend::Cpu, DeviceType::Cpu, 0));
    assert!(cpu.thread_count >= 1);
    assert_eq!(cpu.max_buffer_range, u64::MAX);
    assert_eq!(cpu.api_version_string(), "");
    assert!(!cpu.name.is_empty());
    assert!(cpu.features.contains(Features::INT64));
    for vulkan in &list[1..] {
        assert_eq!(vulkan.backend, Backend::Vulkan);
        assert!(vulkan.api_version_string().starts_with("1."), "{vulkan:?}");
    }
    let f = Features::INT8 | Features::SUBGROUPS;
    assert_eq!(f.names(), ["int8", "subgroups"]);
    assert!(format!("{f:?}").contains("subgroups"));
}

#[test]
fn options_reach_the_context() {
    let options = ContextOptions::default();
    assert_eq!((options.backend, options.device, options.threads, options.deterministic, options.validation,
                options.profile), (Backend::Auto, None, 0, true, false, false));
    assert!(format!("{options:?}").contains("Auto"));
    for threads in [1, 3, 5000] {
        let ctx = Context::new(ContextOptions { backend: Backend::Cpu, threads, ..Default::default() }).unwrap();
        assert_eq!(ctx.elements(&[0u8; 3], &[1i32], &[4u8], &Options::default()).unwrap(), [0, 4, 0]);
    }
    let auto = Context::new(ContextOptions::default()).unwrap();
    assert!(matches!(auto.backend(), Backend::Cpu | Backend::Vulkan));
    assert!(format!("{auto:?}").contains("Context"));
    let err = Context::new(ContextOptions { device: Some(u32::MAX), ..Default::default() }).unwrap_err();
    assert_eq!(err.status, Status::InvalidArgument);
    let err = Context::new(ContextOptions { backend: Backend::Vulkan, device: Some(999), ..Default::default() })
        .unwrap_err();
    assert_eq!(err.status, Status::BackendUnavailable, "{err}");
}

#[test]
fn log_lines_reach_the_handler_and_a_panicking_handler_is_contained() {
    let lines: Arc<Mutex<Vec<(LogLevel, String)>>> = Arc::default();
    let sink = lines.clone();
    let options = ContextOptions {
        log: Some(Arc::new(move |level, line: &str| sink.lock().unwrap().push((level, line.to_string())))),
        ..Default::default()
    };
    let ctx = Context::new(options).unwrap(); // AUTO logs what it uses and why (INFO)
    drop(ctx);
    let lines = lines.lock().unwrap();
    assert!(!lines.is_empty(), "no log line from an AUTO context");
    assert!(lines.iter().any(|(level, _)| *level >= LogLevel::Info), "{lines:?}");

    let options = ContextOptions { log: Some(Arc::new(|_, _: &str| panic!("a handler bug"))), ..Default::default() };
    let ctx = Context::new(options).unwrap();
    assert_eq!(ctx.elements(&[1i64, 2], &[0i64], &[5i64], &Options::default()).unwrap(), [5, 2]);
}

#[test]
fn profiles_need_the_option() {
    let ctx = Context::new(ContextOptions { backend: Backend::Cpu, profile: true, ..Default::default() }).unwrap();
    ctx.elements(&[0.0f32; 64], &[1i64; 8], &[1.0f32; 8], &Options::reduce(Reduction::Add)).unwrap();
    let profile = ctx.last_profile().unwrap();
    assert_eq!(profile.backend, Backend::Cpu);
    assert_eq!(profile.status, None);
    assert!(profile.total_us >= 0.0 && profile.total_us >= profile.validate_us);
    assert!(!profile.passes.is_empty());
    assert!(profile.passes.iter().all(|p| !p.name.is_empty()));
    // A failed call is profiled with its status.
    assert!(ctx.elements(&[0.0f32; 4], &[9i64], &[1.0f32], &Options::default()).is_err());
    assert_eq!(ctx.last_profile().unwrap().status, Some(Status::IndexOutOfRange));

    let plain = Context::cpu().unwrap();
    plain.elements(&[0.0f32; 4], &[1i64], &[1.0f32], &Options::default()).unwrap();
    assert_eq!(plain.last_profile().unwrap_err().status, Status::InvalidArgument);
}

#[test]
fn vulkan_only_features_are_unsupported_on_the_cpu() {
    let ctx = Context::cpu().unwrap();
    assert_eq!(ctx.batch().unwrap_err().status, Status::Unsupported);
    assert_eq!(ctx.pipeline_cache_data().unwrap_err().status, Status::Unsupported);
    assert!(!ctx.as_raw().is_null());
}

#[test]
fn status_codes_names_and_descriptions() {
    for code in 1..=9 {
        let status = Status::from_code(code).unwrap();
        assert_eq!(status.code(), code);
        // SAFETY: a static string.
        let c_name = unsafe { std::ffi::CStr::from_ptr(scatter::sys::scatter_status_name(code)) };
        assert_eq!(status.name(), c_name.to_str().unwrap());
        assert_eq!(status.to_string(), status.name());
        assert!(!status.description().is_empty());
    }
    assert_eq!(Status::from_code(0), None);
    assert_eq!(Status::from_code(42), Some(Status::Unknown(42)));
    assert_eq!(Status::Unknown(42).name(), "SCATTER_STATUS_UNKNOWN");
    assert_eq!(Status::IndexOutOfRange.description(), "an index is outside its dimension");
    let err = scatter::Error::new(Status::DeviceLost, "gone");
    assert_eq!(err.to_string(), "SCATTER_ERROR_DEVICE_LOST: gone");
}

fn send_sync<T: Send + Sync>() {}
fn send<T: Send>() {}

#[test]
fn thread_safety_markers() {
    send_sync::<Context>();
    send_sync::<Buffer>();
    send_sync::<TensorView<'static, f32>>();
    send_sync::<TensorViewMut<'static, f32>>();
    send_sync::<scatter::Error>();
    send::<scatter::Batch<'static>>();
    // A buffer moves to another thread and is read there.
    let ctx = Context::cpu().unwrap();
    let buffer = Buffer::from_slice(&ctx, &[3u16, 4]).unwrap();
    let read = std::thread::spawn(move || buffer.to_vec::<u16>(0, 2)).join().unwrap().unwrap();
    assert_eq!(read, [3, 4]);
    // Views of one slice in several threads, each writing its own half.
    let mut data = [0i32; 8];
    let (left, right) = data.split_at_mut(4);
    std::thread::scope(|scope| {
        for (half, value) in [(left, 1), (right, 2)] {
            let ctx = &ctx;
            scope.spawn(move || {
                ctx.scatter_in_place(Op::Elements, half, &[0i64, 3], &[value, value], &Options::default()).unwrap()
            });
        }
    });
    assert_eq!(data, [1, 0, 0, 1, 2, 0, 0, 2]);
}
