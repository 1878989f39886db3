"""Finds and loads libscatter, declares the C functions the binding uses, checks the version.

Lookup order: the SCATTER_LIBRARY environment variable (an explicit choice wins), a library
next to this package (shipped by `pip install` when copied there), then the system library path.
"""
import ctypes
import ctypes.util
import os
import sys

# The major version this binding was written for (SCATTER_VERSION_MAJOR of scatter.h).
BINDING_MAJOR = 0
MAX_RANK = 16

_LIBRARY_NAMES = {"win32": ["scatter.dll"], "darwin": ["libscatter.dylib"]}.get(
    sys.platform, ["libscatter.so", "libscatter.so.0"])


class Tensor(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("dtype", ctypes.c_int32),
        ("element_size", ctypes.c_uint32),
        ("rank", ctypes.c_uint32),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("data", ctypes.c_void_p),
        ("buffer", ctypes.c_void_p),
        ("byte_offset", ctypes.c_uint64),
    ]


class Options(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("axis", ctypes.c_int32),
        ("reduction", ctypes.c_int32),
        ("out_of_range", ctypes.c_int32),
        ("flags", ctypes.c_uint32),
    ]


class GatherOptions(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("axis", ctypes.c_int32),
        ("batch_dims", ctypes.c_uint32),
        ("out_of_range", ctypes.c_int32),
        ("fill_value", ctypes.c_void_p),
        ("flags", ctypes.c_uint32),
    ]


class MessagePassingOptions(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("reduction", ctypes.c_int32),
        ("src_out_of_range", ctypes.c_int32),
        ("dst_out_of_range", ctypes.c_int32),
        ("fill_value", ctypes.c_void_p),
        ("flags", ctypes.c_uint32),
    ]


class ContextDesc(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("backend", ctypes.c_int32),
        ("device_index", ctypes.c_int32),
        ("thread_count", ctypes.c_uint32),
        ("flags", ctypes.c_uint32),
        ("parallel_for", ctypes.c_void_p),
        ("parallel_for_user", ctypes.c_void_p),
        ("allocator", ctypes.c_void_p),
        ("log", ctypes.c_void_p),
        ("log_user", ctypes.c_void_p),
    ]


class DeviceInfo(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("backend", ctypes.c_int32),
        ("index", ctypes.c_uint32),
        ("type", ctypes.c_int32),
        ("name", ctypes.c_char * 256),
        ("vendor_id", ctypes.c_uint32),
        ("device_id", ctypes.c_uint32),
        ("api_version", ctypes.c_uint32),
        ("thread_count", ctypes.c_uint32),
        ("features", ctypes.c_uint64),
        ("max_buffer_range", ctypes.c_uint64),
    ]


# scatter_log_fn: void (*)(void* user, scatter_log_level level, const char* message)
LogFunction = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int32, ctypes.c_char_p)

# The structs above, by their C names: checked against the C compiler's layout by the tests
# (tests/test_layout.py, with bindings/native_layout.c).
STRUCTS = {"scatter_tensor": Tensor, "scatter_options": Options,
           "scatter_context_desc": ContextDesc, "scatter_device_info": DeviceInfo}
# Compared by tests/test_layout.py with a program of its own: bindings/native_layout.c is shared
# with the bindings that do not bind gather yet.
GATHER_STRUCTS = {"scatter_gather_options": GatherOptions,
                  "scatter_message_passing_options": MessagePassingOptions}


def _candidates():
    explicit = os.environ.get("SCATTER_LIBRARY")
    if explicit:
        # An explicit choice must not silently fall back to another library.
        return [explicit], True
    here = os.path.dirname(os.path.abspath(__file__))
    paths = [os.path.join(here, name) for name in _LIBRARY_NAMES]
    paths = [p for p in paths if os.path.exists(p)]
    system = ctypes.util.find_library("scatter")
    if system:
        paths.append(system)
    return paths, False


def _declare(lib):
    c = ctypes
    status = c.c_int32
    tensor_p = c.POINTER(Tensor)
    table = {
        "scatter_version": (c.c_uint32, []),
        "scatter_version_string": (c.c_char_p, []),
        "scatter_status_name": (c.c_char_p, [status]),
        "scatter_last_error_message": (c.c_char_p, []),
        "scatter_context_create": (status, [c.POINTER(ContextDesc), c.POINTER(c.c_void_p)]),
        "scatter_context_destroy": (None, [c.c_void_p]),
        "scatter_context_backend": (status, [c.c_void_p, c.POINTER(c.c_int32)]),
        "scatter_backend_name": (c.c_char_p, [c.c_int32]),
        "scatter_buffer_create": (status, [c.c_void_p, c.c_uint64, c.POINTER(c.c_void_p)]),
        "scatter_buffer_destroy": (None, [c.c_void_p]),
        "scatter_buffer_size": (c.c_uint64, [c.c_void_p]),
        "scatter_buffer_write": (status, [c.c_void_p, c.c_uint64, c.c_void_p, c.c_uint64]),
        "scatter_buffer_read": (status, [c.c_void_p, c.c_uint64, c.c_void_p, c.c_uint64]),
        "scatter_devices": (status, [c.POINTER(DeviceInfo), c.POINTER(c.c_uint32)]),
    }
    for op in ("scatter_elements", "scatter_rows", "scatter_nd"):
        table[op] = (status, [c.c_void_p, tensor_p, tensor_p, tensor_p, c.POINTER(Options),
                              tensor_p])
    for op in ("scatter_gather_elements", "scatter_gather_rows", "scatter_gather_nd"):
        table[op] = (status, [c.c_void_p, tensor_p, tensor_p, c.POINTER(GatherOptions), tensor_p])
    table["scatter_message_passing"] = (status, [c.c_void_p, tensor_p, tensor_p, tensor_p, tensor_p, tensor_p,
                                                 c.POINTER(MessagePassingOptions), tensor_p])
    for op in ("scatter_elements_backward", "scatter_rows_backward", "scatter_nd_backward"):
        table[op] = (status, [c.c_void_p, tensor_p, tensor_p, tensor_p, tensor_p, tensor_p,
                              c.POINTER(Options), tensor_p, tensor_p])
    for op in ("scatter_gather_elements_backward", "scatter_gather_rows_backward",
               "scatter_gather_nd_backward"):
        table[op] = (status, [c.c_void_p, tensor_p, tensor_p, c.POINTER(GatherOptions), tensor_p])
    for name, (restype, argtypes) in table.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes


def load():
    """Loads the first libscatter found, declares its functions and checks its major version."""
    paths, explicit = _candidates()
    errors = []
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            errors.append(f"{path}: {e}")
            continue
        _declare(lib)
        version = lib.scatter_version()
        major = version >> 22
        if major != BINDING_MAJOR:
            raise ImportError(f"{path} is libscatter {lib.scatter_version_string().decode()}, "
                              f"but this binding needs major version {BINDING_MAJOR}")
        return lib, path
    where = "SCATTER_LIBRARY" if explicit else "next to the package or on the system path"
    detail = "; ".join(errors) if errors else "no candidate found"
    raise ImportError(f"libscatter could not be loaded ({where}): {detail}. "
                      "Set SCATTER_LIBRARY to the path of libscatter.so.")


lib, library_path = load()
