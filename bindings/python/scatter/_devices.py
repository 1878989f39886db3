"""scatter.devices(): the CPU and every Vulkan device, as the library sees them."""
import ctypes
from dataclasses import dataclass
from typing import List, Tuple

from ._context import check
from ._library import DeviceInfo, lib

# scatter_device_type and the SCATTER_FEATURE_* bits of scatter.h.
_DEVICE_TYPES = {0: "other", 1: "integrated_gpu", 2: "discrete_gpu", 3: "virtual_gpu", 4: "cpu"}
_FEATURES = ("int8", "int16", "int64", "float16", "float64", "storage8", "storage16",
             "int64_atomics", "float32_atomic_add", "float32_atomic_minmax", "subgroups",
             "buffer_device_address", "denorm_preserve32", "denorm_preserve64", "shared_int64_atomics")


@dataclass(frozen=True)
class Device:
    """One device a context can run on.

    Attributes
    ----------
    index : int
        The ``device`` to pass to :class:`scatter.Context` (Vulkan devices; 0 for the CPU).
    backend : str
        ``"cpu"`` or ``"vulkan"``.
    type : str
        ``"cpu"``, ``"integrated_gpu"``, ``"discrete_gpu"``, ``"virtual_gpu"`` or ``"other"``.
    name : str
        The driver's name of the device.
    vendor_id, device_id : int
        PCI ids (0 for the CPU).
    api_version : str
        The Vulkan API version, ``"1.3.255"``; empty for the CPU.
    thread_count : int
        CPU: hardware threads; Vulkan: subgroup size.
    features : tuple of str
        Optional features the shaders use (``"int64"``, ``"float64"``, ``"subgroups"``, ...).
    max_buffer_range : int
        The largest single buffer binding in bytes (``2**64 - 1`` for the CPU).
    """

    index: int
    backend: str
    type: str
    name: str
    vendor_id: int
    device_id: int
    api_version: str
    thread_count: int
    features: Tuple[str, ...]
    max_buffer_range: int


def _api_version(packed: int) -> str:
    if packed == 0:
        return ""
    return f"{(packed >> 22) & 0x7f}.{(packed >> 12) & 0x3ff}.{packed & 0xfff}"


def devices() -> List[Device]:
    """The devices libscatter can use: the CPU first, then every Vulkan device in driver order.

    Vulkan being absent is not an error: the list then holds only the CPU.

    Returns
    -------
    list of Device
    """
    count = ctypes.c_uint32()
    check(lib.scatter_devices(None, ctypes.byref(count)))
    infos = (DeviceInfo * max(count.value, 1))()
    for info in infos:
        info.struct_size = ctypes.sizeof(DeviceInfo)
    check(lib.scatter_devices(infos, ctypes.byref(count)))
    result = []
    for info in infos[:count.value]:
        result.append(Device(
            index=info.index, backend=lib.scatter_backend_name(info.backend).decode(),
            type=_DEVICE_TYPES.get(info.type, "other"), name=info.name.decode("utf-8", "replace"),
            vendor_id=info.vendor_id, device_id=info.device_id,
            api_version=_api_version(info.api_version), thread_count=info.thread_count,
            features=tuple(name for bit, name in enumerate(_FEATURES) if info.features >> bit & 1),
            max_buffer_range=info.max_buffer_range))
    return result
