//! The declarations against the C compiler's view of scatter.h.
//!
//! `bindings/native_layout.c` (shared by every binding; `SCATTER_NATIVE_LAYOUT` names the built
//! program, else it is compiled here with `cc`) prints the layout of the structs every binding
//! declares and every enumerator; `tests/layout_extra.c` (compiled here with `cc`) prints the
//! rest that only this crate declares. Every struct's size and field offsets and sizes, every
//! constant, and the list of functions are compared; what the C side prints and this crate does
//! not declare must be listed in NOT_BOUND (nothing is). Without the program and without `cc`
//! the comparisons are skipped with a printed reason.
use std::collections::{BTreeMap, BTreeSet};
use std::env;
use std::mem::{offset_of, size_of};
use std::path::{Path, PathBuf};
use std::process::Command;

use scatter_sys::*;

/// What the C programs print that this crate does not declare (the `*_FORCE32_` enumerators
/// are not printed). Empty: everything is bound.
const NOT_BOUND: &[&str] = &[];

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("..").join("..")
}

fn include_dir() -> PathBuf {
    env::var_os("SCATTER_INCLUDE_DIR").map(PathBuf::from).unwrap_or_else(|| repository().join("include"))
}

fn compile(source: &Path, name: &str) -> Result<PathBuf, String> {
    if !source.is_file() {
        return Err(format!("{} is missing", source.display()));
    }
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let cc = env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let status = Command::new(&cc).arg("-I").arg(include_dir()).arg(source).arg("-o").arg(&out).status()
        .map_err(|e| format!("cannot run {cc}: {e}"))?;
    if !status.success() {
        return Err(format!("{cc} failed on {}", source.display()));
    }
    Ok(out)
}

/// Lines of the program's output, split into words; Err(reason) when it cannot be had.
fn run(program: Result<PathBuf, String>) -> Result<Vec<Vec<String>>, String> {
    let program = program?;
    let output = Command::new(&program).output().map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    assert!(output.status.success(), "{} failed", program.display());
    Ok(String::from_utf8(output.stdout).expect("utf-8").lines()
        .map(|l| l.split_whitespace().map(str::to_string).collect()).collect())
}

fn native_layout() -> Result<Vec<Vec<String>>, String> {
    match env::var_os("SCATTER_NATIVE_LAYOUT") {
        Some(path) => run(Ok(PathBuf::from(path))),
        None => run(compile(&repository().join("bindings").join("native_layout.c"), "native_layout")),
    }
}

fn extra_layout() -> Result<Vec<Vec<String>>, String> {
    run(compile(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("layout_extra.c"), "layout_extra"))
}

fn field_size<S, F>(_: fn(&S) -> &F) -> usize {
    size_of::<F>()
}

/// name -> (size, C field name -> (offset, size))
type Layouts = BTreeMap<&'static str, (usize, BTreeMap<&'static str, (usize, usize)>)>;

macro_rules! layout {
    ($map:ident, $ty:ident { $($field:ident $(as $cname:literal)?),* $(,)? }) => {{
        let mut fields = BTreeMap::new();
        $(
            let cname = layout!(@name $field $($cname)?);
            fields.insert(cname, (offset_of!($ty, $field), field_size(|s: &$ty| &s.$field)));
        )*
        $map.insert(stringify!($ty), (size_of::<$ty>(), fields));
    }};
    (@name $field:ident $cname:literal) => { $cname };
    (@name $field:ident) => { stringify!($field) };
}

fn rust_layouts() -> Layouts {
    let mut map = Layouts::new();
    layout!(map, scatter_tensor { struct_size, dtype, element_size, rank, shape, strides, data,
                                  buffer, byte_offset });
    layout!(map, scatter_options { struct_size, axis, reduction, out_of_range, flags });
    layout!(map, scatter_context_desc { struct_size, backend, device_index, thread_count, flags,
                                        parallel_for, parallel_for_user, allocator, log, log_user });
    layout!(map, scatter_device_info { struct_size, backend, index, type_ as "type", name, vendor_id,
                                       device_id, api_version, thread_count, features,
                                       max_buffer_range });
    layout!(map, scatter_gather_options { struct_size, axis, batch_dims, out_of_range, fill_value, flags });
    layout!(map, scatter_message_passing_options { struct_size, reduction, src_out_of_range, dst_out_of_range,
                                                   fill_value, flags });
    layout!(map, scatter_allocator { user, alloc, free });
    layout!(map, scatter_profile_pass { name, invocations, time_us });
    layout!(map, scatter_profile { struct_size, backend, status, pass_count, validate_us, record_us,
                                   submit_us, wait_us, read_back_us, total_us, gpu_us, route, passes });
    layout!(map, scatter_vulkan_device_desc { struct_size, instance, physical_device, device, queue,
                                              queue_family_index, get_instance_proc_addr,
                                              enabled_features, pipeline_cache_data,
                                              pipeline_cache_size });
    map
}

macro_rules! constants {
    ($($name:ident),* $(,)?) => {{
        let mut map: BTreeMap<String, i128> = BTreeMap::new();
        $(map.insert(stringify!($name).to_string(), $name as i128);)*
        map
    }};
}

fn rust_constants() -> BTreeMap<String, i128> {
    let mut map = constants!(
        SCATTER_OK, SCATTER_ERROR_INVALID_ARGUMENT, SCATTER_ERROR_TYPE_MISMATCH,
        SCATTER_ERROR_SHAPE_MISMATCH, SCATTER_ERROR_INDEX_OUT_OF_RANGE, SCATTER_ERROR_UNSUPPORTED,
        SCATTER_ERROR_OUT_OF_MEMORY, SCATTER_ERROR_BACKEND_UNAVAILABLE, SCATTER_ERROR_DEVICE_LOST,
        SCATTER_ERROR_INTERNAL,
        SCATTER_DTYPE_UNDEFINED, SCATTER_DTYPE_F16, SCATTER_DTYPE_BF16, SCATTER_DTYPE_F32,
        SCATTER_DTYPE_F64, SCATTER_DTYPE_I8, SCATTER_DTYPE_I16, SCATTER_DTYPE_I32, SCATTER_DTYPE_I64,
        SCATTER_DTYPE_U8, SCATTER_DTYPE_U16, SCATTER_DTYPE_U32, SCATTER_DTYPE_U64, SCATTER_DTYPE_BOOL,
        SCATTER_DTYPE_C64, SCATTER_DTYPE_C128, SCATTER_DTYPE_OPAQUE,
        SCATTER_REDUCTION_DEFAULT, SCATTER_REDUCTION_NONE, SCATTER_REDUCTION_ADD,
        SCATTER_REDUCTION_SUB, SCATTER_REDUCTION_MUL, SCATTER_REDUCTION_DIV, SCATTER_REDUCTION_MAX,
        SCATTER_REDUCTION_MIN, SCATTER_REDUCTION_MEAN,
        SCATTER_OUT_OF_RANGE_DEFAULT, SCATTER_OUT_OF_RANGE_ERROR, SCATTER_OUT_OF_RANGE_SKIP,
        SCATTER_OUT_OF_RANGE_CLAMP, SCATTER_OUT_OF_RANGE_FILL,
        SCATTER_BACKEND_AUTO, SCATTER_BACKEND_CPU, SCATTER_BACKEND_VULKAN,
        SCATTER_OPTION_EXCLUDE_SELF, SCATTER_OPTION_ALLOW_NONDETERMINISM,
        SCATTER_CONTEXT_FLAG_ALLOW_NONDETERMINISM, SCATTER_CONTEXT_FLAG_VALIDATION,
        SCATTER_CONTEXT_FLAG_PROFILE,
        SCATTER_LOG_DEBUG, SCATTER_LOG_INFO, SCATTER_LOG_WARNING, SCATTER_LOG_ERROR,
        SCATTER_DEVICE_TYPE_OTHER, SCATTER_DEVICE_TYPE_INTEGRATED_GPU,
        SCATTER_DEVICE_TYPE_DISCRETE_GPU, SCATTER_DEVICE_TYPE_VIRTUAL_GPU, SCATTER_DEVICE_TYPE_CPU,
        SCATTER_FEATURE_INT8, SCATTER_FEATURE_INT16, SCATTER_FEATURE_INT64, SCATTER_FEATURE_FLOAT16,
        SCATTER_FEATURE_FLOAT64, SCATTER_FEATURE_STORAGE8, SCATTER_FEATURE_STORAGE16,
        SCATTER_FEATURE_INT64_ATOMICS, SCATTER_FEATURE_FLOAT32_ATOMIC_ADD,
        SCATTER_FEATURE_FLOAT32_ATOMIC_MINMAX, SCATTER_FEATURE_SUBGROUPS,
        SCATTER_FEATURE_BUFFER_DEVICE_ADDRESS, SCATTER_FEATURE_DENORM_PRESERVE32,
        SCATTER_FEATURE_DENORM_PRESERVE64, SCATTER_FEATURE_SHARED_INT64_ATOMICS,
        SCATTER_MAX_RANK, SCATTER_VERSION_MAJOR,
        // printed by layout_extra.c
        SCATTER_OP_UNDEFINED, SCATTER_OP_ELEMENTS, SCATTER_OP_ROWS, SCATTER_OP_ND,
        SCATTER_PROFILE_MAX_PASSES, SCATTER_MAX_THREAD_COUNT, SCATTER_VERSION_MINOR,
        SCATTER_VERSION_PATCH, SCATTER_VERSION,
    );
    map.insert("SCATTER_MAKE_VERSION(3,2,1)".into(), scatter_make_version(3, 2, 1) as i128);
    for (name, size) in [("scatter_status", size_of::<scatter_status>()),
                         ("scatter_dtype", size_of::<scatter_dtype>()),
                         ("scatter_reduction", size_of::<scatter_reduction>()),
                         ("scatter_out_of_range", size_of::<scatter_out_of_range>()),
                         ("scatter_backend", size_of::<scatter_backend>()),
                         ("scatter_log_level", size_of::<scatter_log_level>()),
                         ("scatter_device_type", size_of::<scatter_device_type>()),
                         ("scatter_op", size_of::<scatter_op>())] {
        map.insert(format!("sizeof({name})"), size as i128);
    }
    map
}

/// Compares one program's output; returns the struct and constant names it checked.
fn compare(lines: &[Vec<String>], layouts: &Layouts, constants: &BTreeMap<String, i128>,
           seen_structs: &mut BTreeSet<String>, seen_constants: &mut BTreeSet<String>) {
    let mut fields_seen: BTreeMap<String, usize> = BTreeMap::new();
    for words in lines {
        let num = |i: usize| words[i].parse::<i128>().unwrap_or_else(|_| panic!("bad line {words:?}"));
        match words[0].as_str() {
            "struct" => {
                let (size, _) = layouts.get(words[1].as_str())
                    .unwrap_or_else(|| panic!("C struct {} is not declared in scatter-sys", words[1]));
                assert_eq!(*size as i128, num(2), "sizeof({}): Rust {size}, C {}", words[1], words[2]);
                seen_structs.insert(words[1].clone());
            }
            "field" => {
                let (_, fields) = &layouts[words[1].as_str()];
                let (offset, size) = fields.get(words[2].as_str())
                    .unwrap_or_else(|| panic!("C field {}.{} is not declared", words[1], words[2]));
                assert_eq!((*offset as i128, *size as i128), (num(3), num(4)),
                           "{}.{}: Rust (offset, size) = ({offset}, {size}), C ({}, {})",
                           words[1], words[2], words[3], words[4]);
                *fields_seen.entry(words[1].clone()).or_default() += 1;
            }
            "enum" => {
                if NOT_BOUND.contains(&words[1].as_str()) {
                    continue;
                }
                let value = constants.get(&words[1])
                    .unwrap_or_else(|| panic!("C constant {} is not declared in scatter-sys", words[1]));
                assert_eq!(*value, num(2), "{}: Rust {value}, C {}", words[1], words[2]);
                seen_constants.insert(words[1].clone());
            }
            other => panic!("unknown line kind {other}"),
        }
    }
    for (name, count) in fields_seen {
        let declared = layouts[name.as_str()].1.len();
        assert_eq!(count, declared, "{name}: C prints {count} fields, scatter-sys declares {declared}");
    }
}

#[test]
fn structs_and_constants_match_the_header() {
    let layouts = rust_layouts();
    let constants = rust_constants();
    let (mut structs, mut values) = (BTreeSet::new(), BTreeSet::new());
    match native_layout() {
        Ok(lines) => compare(&lines, &layouts, &constants, &mut structs, &mut values),
        Err(reason) => {
            println!("SKIPPED the native_layout comparison: {reason} (set SCATTER_NATIVE_LAYOUT)");
            return;
        }
    }
    assert!(structs.len() >= 4 && values.len() > 60, "native_layout printed too little: {structs:?}");
    match extra_layout() {
        Ok(lines) => compare(&lines, &layouts, &constants, &mut structs, &mut values),
        Err(reason) => {
            println!("SKIPPED tests/layout_extra.c: {reason}; {} structs and {} constants compared",
                     structs.len(), values.len());
            return;
        }
    }
    // Everything declared was compared with the C side.
    let unchecked: Vec<_> = layouts.keys().filter(|s| !structs.contains(**s)).collect();
    assert!(unchecked.is_empty(), "structs never compared with C: {unchecked:?}");
    let unchecked: Vec<_> = constants.keys().filter(|c| !values.contains(*c)).collect();
    assert!(unchecked.is_empty(), "constants never compared with C: {unchecked:?}");
    println!("compared {} structs and {} constants with the C compiler's", structs.len(), values.len());
}

macro_rules! functions {
    ($($name:ident),* $(,)?) => {
        [$((stringify!($name), $name as *const ())),*]
    };
}

#[test]
fn every_function_of_the_header_is_declared_and_links() {
    let declared = functions!(
        scatter_version, scatter_version_string, scatter_status_name, scatter_last_error_message,
        scatter_dtype_size, scatter_dtype_name, scatter_backend_name, scatter_reduction_name,
        scatter_context_create, scatter_context_destroy, scatter_context_backend, scatter_devices,
        scatter_buffer_create, scatter_buffer_destroy, scatter_buffer_size, scatter_buffer_write,
        scatter_buffer_read, scatter_buffer_copy, scatter_elements, scatter_rows, scatter_nd,
        scatter_gather_elements, scatter_gather_rows, scatter_gather_nd, scatter_message_passing,
        scatter_elements_backward, scatter_rows_backward, scatter_nd_backward,
        scatter_gather_elements_backward, scatter_gather_rows_backward, scatter_gather_nd_backward,
        scatter_last_profile, scatter_batch_create, scatter_batch_record, scatter_batch_submit,
        scatter_batch_wait, scatter_batch_destroy, scatter_context_create_vulkan,
        scatter_buffer_wrap_vulkan, scatter_record_vulkan, scatter_recording_result,
        scatter_recording_destroy, scatter_pipeline_cache_data,
    );
    assert!(declared.iter().all(|(_, address)| !address.is_null()));
    let header_path = include_dir().join("scatter").join("scatter.h");
    let Ok(header) = std::fs::read_to_string(&header_path) else {
        println!("SKIPPED: {} not found", header_path.display());
        return;
    };
    let mut in_header = BTreeSet::new();
    for part in header.split("SCATTER_API ").skip(1) {
        let signature = part.split('(').next().unwrap_or("");
        let name = signature.rsplit([' ', '*']).next().unwrap_or("");
        if name.starts_with("scatter_") && !signature.contains('\n') {
            in_header.insert(name.to_string()); // not the macro's own definitions
        }
    }
    let ours: BTreeSet<String> = declared.iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(in_header, ours, "functions of scatter.h vs scatter-sys");
}

#[test]
fn status_list_matches_the_header_and_the_library() {
    for (name, value, _) in SCATTER_STATUS_LIST {
        // SAFETY: scatter_status_name never fails and returns a static string.
        let c_name = unsafe { std::ffi::CStr::from_ptr(scatter_status_name(value)) };
        assert_eq!(c_name.to_str().unwrap(), name);
    }
    let header_path = include_dir().join("scatter").join("scatter.h");
    let Ok(header) = std::fs::read_to_string(&header_path) else {
        println!("SKIPPED the descriptions: {} not found", header_path.display());
        return;
    };
    let start = header.find("#define SCATTER_STATUS_LIST(X)").expect("SCATTER_STATUS_LIST");
    let end = start + header[start..].find("\n\n").expect("end of the list");
    let list = header[start..end].replace("\\\n", " ");
    let entries: Vec<(String, i32, String)> = list.split("X(").skip(1)
        .map(|entry| {
            let mut parts = entry.splitn(3, ',');
            let name = parts.next().unwrap().trim().to_string();
            let value = parts.next().unwrap().trim().parse().unwrap();
            let rest = parts.next().unwrap();
            let description = rest.split('"').nth(1).unwrap().to_string();
            (name, value, description)
        })
        .collect();
    let ours: Vec<(String, i32, String)> = SCATTER_STATUS_LIST.iter()
        .map(|(n, v, d)| (n.to_string(), *v, d.to_string())).collect();
    assert_eq!(entries, ours);
}

#[test]
fn init_constants_match_the_header_macros() {
    assert_eq!(SCATTER_TENSOR_INIT.struct_size as usize, size_of::<scatter_tensor>());
    assert!(SCATTER_TENSOR_INIT.data.is_null() && SCATTER_TENSOR_INIT.shape.is_null());
    assert_eq!(SCATTER_OPTIONS_INIT.struct_size as usize, size_of::<scatter_options>());
    assert_eq!(SCATTER_CONTEXT_DESC_INIT.device_index, -1);
    assert_eq!(SCATTER_CONTEXT_DESC_INIT.struct_size as usize, size_of::<scatter_context_desc>());
    assert_eq!(SCATTER_VULKAN_DEVICE_DESC_INIT.struct_size as usize, size_of::<scatter_vulkan_device_desc>());
    assert_eq!(scatter_device_info::default().struct_size as usize, size_of::<scatter_device_info>());
    assert_eq!(scatter_profile::default().struct_size as usize, size_of::<scatter_profile>());
    assert_eq!(SCATTER_MESSAGE_PASSING_OPTIONS_INIT.struct_size as usize,
               size_of::<scatter_message_passing_options>());
    // SAFETY: never fails.
    assert_eq!(unsafe { scatter_version() } >> 22, SCATTER_VERSION_MAJOR);
}

#[test]
fn a_raw_call_works() {
    let mut data = [0.0f32; 4];
    let (indices, updates) = ([1i64, 1, 3], [1.0f32; 3]);
    let (four, three) = ([4i64], [3i64]);
    let d = scatter_tensor { dtype: SCATTER_DTYPE_F32, rank: 1, shape: four.as_ptr(),
                             data: data.as_mut_ptr().cast(), ..SCATTER_TENSOR_INIT };
    let i = scatter_tensor { dtype: SCATTER_DTYPE_I64, rank: 1, shape: three.as_ptr(),
                             data: indices.as_ptr() as *mut _, ..SCATTER_TENSOR_INIT };
    let u = scatter_tensor { dtype: SCATTER_DTYPE_F32, rank: 1, shape: three.as_ptr(),
                             data: updates.as_ptr() as *mut _, ..SCATTER_TENSOR_INIT };
    let options = scatter_options { reduction: SCATTER_REDUCTION_ADD, ..SCATTER_OPTIONS_INIT };
    let desc = scatter_context_desc { backend: SCATTER_BACKEND_CPU, ..Default::default() };
    let mut context = std::ptr::null_mut();
    // SAFETY: the descriptors point to live arrays of the sizes their shapes say.
    unsafe {
        assert_eq!(scatter_context_create(&desc, &mut context), SCATTER_OK);
        assert_eq!(scatter_elements(context, &d, &i, &u, &options, &d), SCATTER_OK);
        scatter_context_destroy(context);
    }
    assert_eq!(data, [0.0, 2.0, 0.0, 1.0]);
}
