//! Element types: [`DType`], the [`Element`] and [`Index`] traits, and the bit types
//! [`F16`], [`BF16`], [`Complex32`], [`Complex64`] and [`Opaque`].
use std::fmt;

use crate::sys;

/// The element types of `scatter_dtype` (same numbering).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(i32)]
pub enum DType {
    /// IEEE binary16 ([`F16`]); reductions compute in f32, rounded after each step.
    F16 = sys::SCATTER_DTYPE_F16,
    /// bfloat16 ([`BF16`]); reductions compute in f32, rounded after each step.
    BF16 = sys::SCATTER_DTYPE_BF16,
    /// `f32`.
    F32 = sys::SCATTER_DTYPE_F32,
    /// `f64`.
    F64 = sys::SCATTER_DTYPE_F64,
    /// `i8`.
    I8 = sys::SCATTER_DTYPE_I8,
    /// `i16`.
    I16 = sys::SCATTER_DTYPE_I16,
    /// `i32`.
    I32 = sys::SCATTER_DTYPE_I32,
    /// `i64`.
    I64 = sys::SCATTER_DTYPE_I64,
    /// `u8`.
    U8 = sys::SCATTER_DTYPE_U8,
    /// `u16`.
    U16 = sys::SCATTER_DTYPE_U16,
    /// `u32`.
    U32 = sys::SCATTER_DTYPE_U32,
    /// `u64`.
    U64 = sys::SCATTER_DTYPE_U64,
    /// `bool` (one byte); add is logical or, mul logical and.
    Bool = sys::SCATTER_DTYPE_BOOL,
    /// [`Complex32`]: two f32, real then imaginary.
    C64 = sys::SCATTER_DTYPE_C64,
    /// [`Complex64`]: two f64, real then imaginary.
    C128 = sys::SCATTER_DTYPE_C128,
    /// Raw bytes of a fixed size ([`Opaque`], or your own plain-old-data type); only
    /// [`Reduction::None`](crate::Reduction::None).
    Opaque = sys::SCATTER_DTYPE_OPAQUE,
}

impl DType {
    /// Every dtype, in the C numbering's order.
    pub const ALL: [DType; 16] = [
        DType::F16, DType::BF16, DType::F32, DType::F64, DType::I8, DType::I16, DType::I32,
        DType::I64, DType::U8, DType::U16, DType::U32, DType::U64, DType::Bool, DType::C64,
        DType::C128, DType::Opaque,
    ];

    /// The C value (`SCATTER_DTYPE_*`).
    pub fn code(self) -> i32 {
        self as i32
    }

    /// The dtype of a C value, if it is one.
    pub fn from_code(code: i32) -> Option<DType> {
        DType::ALL.iter().copied().find(|d| d.code() == code)
    }

    /// Bytes per element (0 for [`DType::Opaque`], whose size is the element type's).
    pub fn size(self) -> usize {
        match self {
            DType::I8 | DType::U8 | DType::Bool => 1,
            DType::F16 | DType::BF16 | DType::I16 | DType::U16 => 2,
            DType::F32 | DType::I32 | DType::U32 => 4,
            DType::F64 | DType::I64 | DType::U64 | DType::C64 => 8,
            DType::C128 => 16,
            DType::Opaque => 0,
        }
    }

    /// The library's lowercase name: "f16", "bf16", "f32", ..., "c64", "c128", "opaque".
    pub fn name(self) -> &'static str {
        match self {
            DType::F16 => "f16",
            DType::BF16 => "bf16",
            DType::F32 => "f32",
            DType::F64 => "f64",
            DType::I8 => "i8",
            DType::I16 => "i16",
            DType::I32 => "i32",
            DType::I64 => "i64",
            DType::U8 => "u8",
            DType::U16 => "u16",
            DType::U32 => "u32",
            DType::U64 => "u64",
            DType::Bool => "bool",
            DType::C64 => "c64",
            DType::C128 => "c128",
            DType::Opaque => "opaque",
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A type whose slices libscatter reads and writes as elements of [`Element::DTYPE`].
///
/// Implemented for `f32`, `f64`, `i8`..`i64`, `u8`..`u64`, `bool`, [`F16`], [`BF16`],
/// [`Complex32`], [`Complex64`] and [`Opaque<N>`](Opaque). Implement it for your own
/// `#[repr(C)]` plain-old-data struct with `DTYPE = DType::Opaque` to scatter whole structs
/// (reduction `None` only); the element size passed to the library is `size_of::<Self>()`.
///
/// # Safety
/// `Self` is plain old data with a nonzero size: every byte pattern, the all-zero one included,
/// is a valid value (the library copies and combines elements as bytes, buffers hold any bytes,
/// and the binding starts fresh outputs from zeros) — except for `DType::Bool`, where `Self` is
/// one byte for which 0 and 1 are the valid values. For every dtype but `Opaque`, `Self` has the
/// dtype's size and meaning (the library rejects a size that differs).
pub unsafe trait Element: Copy + Send + Sync + 'static {
    /// The C dtype of this type.
    const DTYPE: DType;
}

/// An index type: `i32` or `i64` (sealed).
///
/// # Safety
/// Implemented by the binding only (sealed).
pub unsafe trait Index: Element + private::Sealed {}

mod private {
    pub trait Sealed {}
    impl Sealed for i32 {}
    impl Sealed for i64 {}
}

macro_rules! elements {
    ($($t:ty => $dtype:ident),* $(,)?) => {
        $(unsafe impl Element for $t { const DTYPE: DType = DType::$dtype; })*
    };
}
elements!(f32 => F32, f64 => F64, i8 => I8, i16 => I16, i32 => I32, i64 => I64, u8 => U8,
          u16 => U16, u32 => U32, u64 => U64, bool => Bool, F16 => F16, BF16 => BF16,
          Complex32 => C64, Complex64 => C128);
unsafe impl Index for i32 {}
unsafe impl Index for i64 {}

/// An IEEE binary16 value, as its bits (`F16(0x3c00)` is 1.0). Equality compares bits.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct F16(pub u16);

/// A bfloat16 value, as its bits (`BF16(0x3f80)` is 1.0). Equality compares bits.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct BF16(pub u16);

impl F16 {
    /// The value with these bits.
    pub const fn from_bits(bits: u16) -> F16 {
        F16(bits)
    }

    /// The bits.
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// The nearest binary16 value (ties to even; overflow gives infinity; NaN stays NaN).
    pub fn from_f32(value: f32) -> F16 {
        let bits = value.to_bits();
        let sign = ((bits >> 16) & 0x8000) as u16;
        let exponent = ((bits >> 23) & 0xff) as i32;
        let mantissa = bits & 0x7f_ffff;
        if exponent == 0xff {
            return F16(if mantissa == 0 { sign | 0x7c00 } else { sign | 0x7e00 | (mantissa >> 13) as u16 });
        }
        let e = exponent - 127 + 15;
        if e >= 0x1f {
            return F16(sign | 0x7c00);
        }
        if e <= 0 {
            // A binary16 subnormal (or zero): the 24-bit significand shifted into place.
            let shift = (14 - e) as u32;
            if shift > 24 {
                return F16(sign);
            }
            let significand = mantissa | 0x80_0000;
            let mut q = significand >> shift;
            let rest = significand & ((1 << shift) - 1);
            let half = 1 << (shift - 1);
            if rest > half || (rest == half && q & 1 == 1) {
                q += 1;
            }
            return F16(sign | q as u16);
        }
        let mut h = ((e as u32) << 10) | (mantissa >> 13);
        let rest = mantissa & 0x1fff;
        if rest > 0x1000 || (rest == 0x1000 && h & 1 == 1) {
            h += 1; // may carry into the exponent, up to infinity: both correct
        }
        F16(sign | h as u16)
    }

    /// The exact f32 value.
    pub fn to_f32(self) -> f32 {
        let h = self.0 as u32;
        let sign = (h & 0x8000) << 16;
        let exponent = (h >> 10) & 0x1f;
        let mantissa = h & 0x3ff;
        let magnitude = match exponent {
            0 => (mantissa as f32 * (1.0 / 16_777_216.0)).to_bits(), // mantissa x 2^-24, exact
            0x1f => 0x7f80_0000 | (mantissa << 13),
            _ => ((exponent + 112) << 23) | (mantissa << 13),
        };
        f32::from_bits(sign | magnitude)
    }
}

impl BF16 {
    /// The value with these bits.
    pub const fn from_bits(bits: u16) -> BF16 {
        BF16(bits)
    }

    /// The bits.
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// The nearest bfloat16 value (ties to even; NaN stays a quiet NaN).
    pub fn from_f32(value: f32) -> BF16 {
        let bits = value.to_bits();
        if value.is_nan() {
            return BF16(((bits >> 16) | 0x40) as u16);
        }
        let rounded = bits.wrapping_add(0x7fff + ((bits >> 16) & 1));
        BF16((rounded >> 16) as u16)
    }

    /// The exact f32 value.
    pub fn to_f32(self) -> f32 {
        f32::from_bits((self.0 as u32) << 16)
    }
}

impl From<F16> for f32 {
    fn from(value: F16) -> f32 {
        value.to_f32()
    }
}

impl From<BF16> for f32 {
    fn from(value: BF16) -> f32 {
        value.to_f32()
    }
}

impl fmt::Debug for F16 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "F16({:?})", self.to_f32())
    }
}

impl fmt::Debug for BF16 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BF16({:?})", self.to_f32())
    }
}

impl fmt::Display for F16 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_f32(), f)
    }
}

impl fmt::Display for BF16 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_f32(), f)
    }
}

/// A complex number of two f32 (`SCATTER_DTYPE_C64`), laid out as C's `float[2]`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub struct Complex32 {
    /// Real part.
    pub re: f32,
    /// Imaginary part.
    pub im: f32,
}

/// A complex number of two f64 (`SCATTER_DTYPE_C128`), laid out as C's `double[2]`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub struct Complex64 {
    /// Real part.
    pub re: f64,
    /// Imaginary part.
    pub im: f64,
}

impl Complex32 {
    /// `re + im·i`.
    pub const fn new(re: f32, im: f32) -> Complex32 {
        Complex32 { re, im }
    }
}

impl Complex64 {
    /// `re + im·i`.
    pub const fn new(re: f64, im: f64) -> Complex64 {
        Complex64 { re, im }
    }
}

/// An opaque element of `N` raw bytes (`SCATTER_DTYPE_OPAQUE`, e.g. fixed-size strings or
/// records); only [`Reduction::None`](crate::Reduction::None) applies. `N` must be at least 1
/// (checked at compile time when the type is used as an element).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Opaque<const N: usize>(pub [u8; N]);

impl<const N: usize> Default for Opaque<N> {
    fn default() -> Self {
        Opaque([0; N])
    }
}

impl<const N: usize> Opaque<N> {
    const NONZERO: () = assert!(N > 0 && N <= u32::MAX as usize, "Opaque<N> needs 1 <= N <= u32::MAX");
}

unsafe impl<const N: usize> Element for Opaque<N> {
    const DTYPE: DType = {
        #[allow(clippy::let_unit_value)]
        let () = Opaque::<N>::NONZERO;
        DType::Opaque
    };
}
