"""numpy arrays as scatter_tensor views of the same memory (no copies)."""
import ctypes

import numpy as np

from ._context import DeviceArray, check_storable
from ._errors import TypeMismatchError, UnsupportedError
from ._library import MAX_RANK, Tensor

DTYPE_OPAQUE = 16

# numpy dtype name -> scatter_dtype value (scatter.h). bfloat16 exists when ml_dtypes is used.
_DTYPES = {
    "float16": 1, "bfloat16": 2, "float32": 3, "float64": 4,
    "int8": 5, "int16": 6, "int32": 7, "int64": 8,
    "uint8": 9, "uint16": 10, "uint32": 11, "uint64": 12,
    "bool": 13, "complex64": 14, "complex128": 15,
}
# Fixed-width byte strings, unicode strings and raw/structured records travel as opaque bytes.
_OPAQUE_KINDS = "SUV"


def scatter_dtype(dtype):
    """(scatter_dtype, element_size) for a numpy dtype."""
    check_storable(dtype)
    # By name first: ml_dtypes' bfloat16 has kind 'V' like raw records.
    code = _DTYPES.get(dtype.name)
    if code is not None:
        return code, 0
    if dtype.kind in _OPAQUE_KINDS:
        return DTYPE_OPAQUE, dtype.itemsize
    raise TypeMismatchError(f"numpy dtype {dtype} has no libscatter dtype")


class TensorView:
    """Holds a Tensor and the shape/stride arrays it points to for the duration of a call."""

    def __init__(self, array, name):
        if isinstance(array, DeviceArray):
            self._init_device(array)
            return
        if not isinstance(array, np.ndarray):
            raise TypeError(f"{name} must be a numpy array, not {type(array).__name__}")
        if array.ndim > MAX_RANK:
            raise UnsupportedError(f"{name} has rank {array.ndim}, more than {MAX_RANK}")
        dtype = array.dtype
        # Opaque elements are copied as raw bytes, so their byte order does not matter.
        if dtype.kind not in _OPAQUE_KINDS and not dtype.isnative:
            raise UnsupportedError(
                f"{name} has byte-swapped dtype {dtype.str}; convert it first with "
                f"{name}.astype({name}.dtype.newbyteorder('='))")
        code, element_size = scatter_dtype(dtype)  # first: it refuses elements of 0 bytes
        itemsize = dtype.itemsize
        if not array.flags.aligned or any(s % itemsize for s in array.strides):
            raise UnsupportedError(
                f"{name} is not aligned to its element size {itemsize}; pass an aligned copy: "
                f"{name}.copy() or np.require({name}, requirements='A')")
        rank = array.ndim
        self.array = array
        self._shape = (ctypes.c_int64 * max(rank, 1))(*array.shape)
        self._strides = (ctypes.c_int64 * max(rank, 1))(*(s // itemsize for s in array.strides))
        self.tensor = Tensor(
            struct_size=ctypes.sizeof(Tensor), dtype=code, element_size=element_size, rank=rank,
            shape=self._shape, strides=self._strides,
            data=array.__array_interface__["data"][0], buffer=None, byte_offset=0)

    def _init_device(self, array):
        code, element_size = scatter_dtype(array.dtype)
        rank = array.ndim
        self.array = array
        self._shape = (ctypes.c_int64 * max(rank, 1))(*array.shape)
        self.tensor = Tensor(
            struct_size=ctypes.sizeof(Tensor), dtype=code, element_size=element_size, rank=rank,
            shape=self._shape, strides=None, data=None, buffer=array.buffer.handle,
            byte_offset=array.byte_offset)

    def pointer(self):
        return ctypes.byref(self.tensor)
