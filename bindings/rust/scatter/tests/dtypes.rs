//! The safe crate's types against the library: dtype codes, sizes and names, the layout of the
//! element types (`#[repr(C)]` complex numbers, bit types), enum codes and names; the f16/bf16
//! conversions.
use std::ffi::CStr;
use std::mem::{align_of, size_of};

use scatter::sys;
use scatter::{Backend, Complex32, Complex64, DType, DeviceType, Element, Opaque, OutOfRange, Reduction, BF16, F16};

fn c_text(ptr: *const std::ffi::c_char) -> String {
    // SAFETY: the library's name functions return static strings.
    unsafe { CStr::from_ptr(ptr) }.to_str().unwrap().to_string()
}

fn element_matches<T: Element>(dtype: DType) {
    assert_eq!(T::DTYPE, dtype);
    // SAFETY: never fails.
    let c_size = unsafe { sys::scatter_dtype_size(dtype.code()) };
    assert_eq!(size_of::<T>(), c_size, "{dtype}");
    assert_eq!(dtype.size(), c_size, "{dtype}");
}

#[test]
fn element_types_have_the_library_sizes() {
    element_matches::<F16>(DType::F16);
    element_matches::<BF16>(DType::BF16);
    element_matches::<f32>(DType::F32);
    element_matches::<f64>(DType::F64);
    element_matches::<i8>(DType::I8);
    element_matches::<i16>(DType::I16);
    element_matches::<i32>(DType::I32);
    element_matches::<i64>(DType::I64);
    element_matches::<u8>(DType::U8);
    element_matches::<u16>(DType::U16);
    element_matches::<u32>(DType::U32);
    element_matches::<u64>(DType::U64);
    element_matches::<bool>(DType::Bool);
    element_matches::<Complex32>(DType::C64);
    element_matches::<Complex64>(DType::C128);
    assert_eq!((align_of::<Complex32>(), align_of::<Complex64>()), (4, 8));
    assert_eq!(std::mem::offset_of!(Complex64, im), 8);
    assert_eq!(size_of::<Opaque<5>>(), 5);
    assert_eq!(<Opaque<5> as Element>::DTYPE, DType::Opaque);
    assert_eq!(DType::Opaque.size(), 0);
}

#[test]
fn enum_codes_and_names_match_the_library() {
    for dtype in DType::ALL {
        // SAFETY: never fails.
        assert_eq!(dtype.name(), c_text(unsafe { sys::scatter_dtype_name(dtype.code()) }));
        assert_eq!(DType::from_code(dtype.code()), Some(dtype));
    }
    assert_eq!(DType::from_code(sys::SCATTER_DTYPE_UNDEFINED), None);
    assert_eq!(DType::ALL.len() as i32, sys::SCATTER_DTYPE_OPAQUE);
    for reduction in Reduction::ALL {
        // SAFETY: never fails.
        assert_eq!(reduction.name(), c_text(unsafe { sys::scatter_reduction_name(reduction.code()) }));
    }
    for backend in [Backend::Auto, Backend::Cpu, Backend::Vulkan] {
        // SAFETY: never fails.
        assert_eq!(backend.name(), c_text(unsafe { sys::scatter_backend_name(backend.code()) }));
        assert_eq!(Backend::from_code(backend.code()), Some(backend));
    }
    assert_eq!((OutOfRange::Error.code(), OutOfRange::Skip.code(), OutOfRange::Clamp.code()),
               (sys::SCATTER_OUT_OF_RANGE_ERROR, sys::SCATTER_OUT_OF_RANGE_SKIP, sys::SCATTER_OUT_OF_RANGE_CLAMP));
    assert_eq!((scatter::Op::Elements.code(), scatter::Op::Rows.code(), scatter::Op::Nd.code()),
               (sys::SCATTER_OP_ELEMENTS, sys::SCATTER_OP_ROWS, sys::SCATTER_OP_ND));
    for code in 0..5 {
        assert_eq!(DeviceType::from_code(code).code(), code);
    }
    assert_eq!(scatter::MAX_RANK as u32, sys::SCATTER_MAX_RANK);
    assert_eq!(scatter::Features::NAMED.len(), 15);
    assert_eq!(scatter::Features::NAMED[13].1 .0, sys::SCATTER_FEATURE_DENORM_PRESERVE64);
    assert_eq!(scatter::Features::NAMED[14].1 .0, sys::SCATTER_FEATURE_SHARED_INT64_ATOMICS);
}

#[test]
fn f16_conversions() {
    let cases: [(f32, u16); 12] = [
        (1.0, 0x3c00), (-2.0, 0xc000), (0.0, 0x0000), (-0.0, 0x8000), (65504.0, 0x7bff),
        (65520.0, 0x7c00), (f32::INFINITY, 0x7c00), (5.960_464_5e-8, 0x0001), (2.980_232_2e-8, 0x0000),
        (4.470_348_4e-8, 0x0001), (0.1, 0x2e66), (6.103_515_6e-5, 0x0400),
    ];
    for (value, bits) in cases {
        assert_eq!(F16::from_f32(value).to_bits(), bits, "{value}");
    }
    assert!(F16::from_f32(f32::NAN).to_f32().is_nan());
    // Ties go to even: 1 + 2^-11 lies halfway between 1 and the next binary16 value.
    assert_eq!(F16::from_f32(1.0 + 1.0 / 2048.0).to_bits(), 0x3c00);
    assert_eq!(F16::from_f32(1.0 + 3.0 / 2048.0).to_bits(), 0x3c02);
    // Every binary16 value converts to f32 and back unchanged.
    for bits in 0..=u16::MAX {
        let h = F16(bits);
        let back = F16::from_f32(h.to_f32());
        if h.to_f32().is_nan() {
            assert!(back.to_f32().is_nan());
        } else {
            assert_eq!(back, h, "{bits:#06x}");
        }
    }
    assert_eq!(format!("{:?} {}", F16::from_f32(1.5), F16::from_f32(1.5)), "F16(1.5) 1.5");
}

#[test]
fn bf16_conversions() {
    assert_eq!(BF16::from_f32(1.0).to_bits(), 0x3f80);
    assert_eq!(BF16::from_f32(std::f32::consts::PI).to_bits(), 0x4049);
    assert_eq!(BF16::from_f32(-0.0).to_bits(), 0x8000);
    assert_eq!(BF16::from_f32(f32::from_bits(0x3f80_8000)).to_bits(), 0x3f80); // tie to even
    assert_eq!(BF16::from_f32(f32::from_bits(0x3f81_8000)).to_bits(), 0x3f82);
    assert!(BF16::from_f32(f32::NAN).to_f32().is_nan());
    for bits in 0..=u16::MAX {
        let b = BF16::from_bits(bits);
        if !b.to_f32().is_nan() {
            assert_eq!(BF16::from_f32(b.to_f32()), b);
        }
    }
    assert_eq!(f32::from(BF16(0x4000)), 2.0);
}
