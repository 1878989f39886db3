//! [`devices`]: the CPU and every Vulkan device, as the library sees them.
use std::fmt;
use std::mem::size_of;
use std::ptr;

use crate::context::Backend;
use crate::error::{array_text, check, Result};
use crate::sys;

/// The kind of a device (`scatter_device_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeviceType {
    /// Another kind of device.
    Other,
    /// An integrated GPU.
    IntegratedGpu,
    /// A discrete GPU.
    DiscreteGpu,
    /// A virtual GPU.
    VirtualGpu,
    /// The CPU backend, or a CPU-type Vulkan device (lavapipe, SwiftShader).
    Cpu,
}

impl DeviceType {
    /// The type of a C value (unknown values are `Other`).
    pub fn from_code(code: i32) -> DeviceType {
        match code {
            sys::SCATTER_DEVICE_TYPE_INTEGRATED_GPU => DeviceType::IntegratedGpu,
            sys::SCATTER_DEVICE_TYPE_DISCRETE_GPU => DeviceType::DiscreteGpu,
            sys::SCATTER_DEVICE_TYPE_VIRTUAL_GPU => DeviceType::VirtualGpu,
            sys::SCATTER_DEVICE_TYPE_CPU => DeviceType::Cpu,
            _ => DeviceType::Other,
        }
    }

    /// The C value.
    pub fn code(self) -> i32 {
        match self {
            DeviceType::Other => sys::SCATTER_DEVICE_TYPE_OTHER,
            DeviceType::IntegratedGpu => sys::SCATTER_DEVICE_TYPE_INTEGRATED_GPU,
            DeviceType::DiscreteGpu => sys::SCATTER_DEVICE_TYPE_DISCRETE_GPU,
            DeviceType::VirtualGpu => sys::SCATTER_DEVICE_TYPE_VIRTUAL_GPU,
            DeviceType::Cpu => sys::SCATTER_DEVICE_TYPE_CPU,
        }
    }
}

/// The device features that matter to scatter (`SCATTER_FEATURE_*` bits).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Features(pub u64);

impl Features {
    /// 8-bit integer arithmetic.
    pub const INT8: Features = Features(sys::SCATTER_FEATURE_INT8);
    /// 16-bit integer arithmetic.
    pub const INT16: Features = Features(sys::SCATTER_FEATURE_INT16);
    /// 64-bit integers.
    pub const INT64: Features = Features(sys::SCATTER_FEATURE_INT64);
    /// 16-bit floats.
    pub const FLOAT16: Features = Features(sys::SCATTER_FEATURE_FLOAT16);
    /// 64-bit floats.
    pub const FLOAT64: Features = Features(sys::SCATTER_FEATURE_FLOAT64);
    /// 8-bit storage.
    pub const STORAGE8: Features = Features(sys::SCATTER_FEATURE_STORAGE8);
    /// 16-bit storage.
    pub const STORAGE16: Features = Features(sys::SCATTER_FEATURE_STORAGE16);
    /// 64-bit integer atomics.
    pub const INT64_ATOMICS: Features = Features(sys::SCATTER_FEATURE_INT64_ATOMICS);
    /// f32 atomic add.
    pub const FLOAT32_ATOMIC_ADD: Features = Features(sys::SCATTER_FEATURE_FLOAT32_ATOMIC_ADD);
    /// f32 atomic min/max.
    pub const FLOAT32_ATOMIC_MINMAX: Features = Features(sys::SCATTER_FEATURE_FLOAT32_ATOMIC_MINMAX);
    /// Subgroup operations.
    pub const SUBGROUPS: Features = Features(sys::SCATTER_FEATURE_SUBGROUPS);
    /// Buffer device addresses.
    pub const BUFFER_DEVICE_ADDRESS: Features = Features(sys::SCATTER_FEATURE_BUFFER_DEVICE_ADDRESS);
    /// Subnormal f32 values preserved.
    pub const DENORM_PRESERVE32: Features = Features(sys::SCATTER_FEATURE_DENORM_PRESERVE32);
    /// Subnormal f64 values preserved.
    pub const DENORM_PRESERVE64: Features = Features(sys::SCATTER_FEATURE_DENORM_PRESERVE64);
    /// 64-bit integer atomics on workgroup shared memory.
    pub const SHARED_INT64_ATOMICS: Features = Features(sys::SCATTER_FEATURE_SHARED_INT64_ATOMICS);

    /// Every feature with its lowercase name ("int8", ..., "shared_int64_atomics").
    pub const NAMED: [(&'static str, Features); 15] = [
        ("int8", Features::INT8), ("int16", Features::INT16), ("int64", Features::INT64),
        ("float16", Features::FLOAT16), ("float64", Features::FLOAT64),
        ("storage8", Features::STORAGE8), ("storage16", Features::STORAGE16),
        ("int64_atomics", Features::INT64_ATOMICS),
        ("float32_atomic_add", Features::FLOAT32_ATOMIC_ADD),
        ("float32_atomic_minmax", Features::FLOAT32_ATOMIC_MINMAX),
        ("subgroups", Features::SUBGROUPS), ("buffer_device_address", Features::BUFFER_DEVICE_ADDRESS),
        ("denorm_preserve32", Features::DENORM_PRESERVE32),
        ("denorm_preserve64", Features::DENORM_PRESERVE64),
        ("shared_int64_atomics", Features::SHARED_INT64_ATOMICS),
    ];

    /// Whether every bit of `other` is set.
    pub fn contains(self, other: Features) -> bool {
        self.0 & other.0 == other.0
    }

    /// The names of the features set.
    pub fn names(self) -> Vec<&'static str> {
        Features::NAMED.iter().filter(|(_, f)| self.contains(*f)).map(|(n, _)| *n).collect()
    }
}

impl std::ops::BitOr for Features {
    type Output = Features;
    fn bitor(self, other: Features) -> Features {
        Features(self.0 | other.0)
    }
}

impl fmt::Debug for Features {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Features").field(&self.names()).finish()
    }
}

/// One device a context can run on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Device {
    /// The [`ContextOptions::device`](crate::ContextOptions::device) of a Vulkan device
    /// (0 for the CPU).
    pub index: u32,
    /// `Cpu` or `Vulkan`.
    pub backend: Backend,
    /// The kind of device.
    pub device_type: DeviceType,
    /// The driver's name of the device.
    pub name: String,
    /// PCI vendor id (0 for the CPU).
    pub vendor_id: u32,
    /// PCI device id (0 for the CPU).
    pub device_id: u32,
    /// The Vulkan API version, packed as Vulkan does; 0 for the CPU.
    pub api_version: u32,
    /// CPU: hardware threads; Vulkan: subgroup size.
    pub thread_count: u32,
    /// Optional features the shaders use.
    pub features: Features,
    /// The largest single buffer binding in bytes (`u64::MAX` for the CPU).
    pub max_buffer_range: u64,
}

impl Device {
    /// The Vulkan API version as "1.3.255"; empty for the CPU.
    pub fn api_version_string(&self) -> String {
        let v = self.api_version;
        if v == 0 {
            return String::new();
        }
        format!("{}.{}.{}", (v >> 22) & 0x7f, (v >> 12) & 0x3ff, v & 0xfff)
    }
}

/// The devices libscatter can use: the CPU first, then every Vulkan device in driver order.
/// Vulkan being absent is not an error: the list then holds only the CPU.
///
/// ```
/// let devices = scatter::devices()?;
/// assert_eq!(devices[0].backend, scatter::Backend::Cpu);
/// # Ok::<(), scatter::Error>(())
/// ```
pub fn devices() -> Result<Vec<Device>> {
    let mut count = 0u32;
    // SAFETY: NULL infos asks for the count.
    check(unsafe { sys::scatter_devices(ptr::null_mut(), &mut count) })?;
    let mut infos = vec![sys::scatter_device_info::default(); count.max(1) as usize];
    let mut written = infos.len() as u32;
    // SAFETY: `written` entries, each with struct_size set.
    check(unsafe { sys::scatter_devices(infos.as_mut_ptr(), &mut written) })?;
    debug_assert_eq!(infos[0].struct_size as usize, size_of::<sys::scatter_device_info>());
    Ok(infos[..written as usize]
        .iter()
        .map(|info| Device {
            index: info.index,
            backend: Backend::from_code(info.backend).unwrap_or(Backend::Cpu),
            device_type: DeviceType::from_code(info.type_),
            name: array_text(&info.name),
            vendor_id: info.vendor_id,
            device_id: info.device_id,
            api_version: info.api_version,
            thread_count: info.thread_count,
            features: Features(info.features),
            max_buffer_range: info.max_buffer_range,
        })
        .collect())
}
