"""The ctypes structs and the enum tables of the binding against the C compiler's view of
scatter.h, printed by bindings/native_layout.c (SCATTER_NATIVE_LAYOUT names the built program;
without it the test compiles the program with `cc` when the header is beside this tree)."""
import ctypes
import os
import shutil
import subprocess

import pytest

import scatter
from scatter import _context, _devices, _errors, _library, _ops, _tensor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..")


def native_layout(tmp_path_factory):
    program = os.environ.get("SCATTER_NATIVE_LAYOUT")
    if not program:
        source = os.path.join(ROOT, "bindings", "native_layout.c")
        compiler = shutil.which("cc")
        if compiler is None or not os.path.exists(source):
            pytest.skip("no SCATTER_NATIVE_LAYOUT and no cc to build bindings/native_layout.c")
        program = str(tmp_path_factory.mktemp("layout") / "native_layout")
        subprocess.run([compiler, "-I", os.path.join(ROOT, "include"), source, "-o", program], check=True)
    lines = subprocess.run([program], check=True, capture_output=True, text=True).stdout.splitlines()
    return [line.split() for line in lines]


@pytest.fixture(scope="module")
def layout(tmp_path_factory):
    return native_layout(tmp_path_factory)


def test_structs_match_the_header(layout):
    seen = {name: 0 for name in _library.STRUCTS}
    for part in layout:
        if part[0] == "struct":
            assert ctypes.sizeof(_library.STRUCTS[part[1]]) == int(part[2]), part
        elif part[0] == "field":
            struct = _library.STRUCTS[part[1]]
            field = getattr(struct, part[2])
            assert (field.offset, field.size) == (int(part[3]), int(part[4])), part
            seen[part[1]] += 1
    for name, struct in _library.STRUCTS.items():
        assert seen[name] == len(struct._fields_), f"{name}: C has {seen[name]} fields, ctypes {len(struct._fields_)}"


def binding_value(name):
    """The binding's value for a C enumerator or constant, or None where it binds none."""
    tables = [("SCATTER_DTYPE_", _tensor._DTYPES, str.lower), ("SCATTER_REDUCTION_", _ops.REDUCTIONS, str.lower),
              ("SCATTER_OUT_OF_RANGE_", _ops.OUT_OF_RANGE, str.lower), ("SCATTER_BACKEND_", _context.BACKENDS, str.lower)]
    dtype_names = {"f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64", "i8": "int8",
                   "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8", "u16": "uint16",
                   "u32": "uint32", "u64": "uint64", "c64": "complex64", "c128": "complex128"}
    if name == "SCATTER_DTYPE_OPAQUE":
        return _tensor.DTYPE_OPAQUE
    for prefix, table, key in tables:
        if name.startswith(prefix):
            member = key(name[len(prefix):])
            member = dtype_names.get(member, member) if prefix == "SCATTER_DTYPE_" else member
            return table.get(member)
    if name.startswith("SCATTER_ERROR_"):
        codes = {cls.status: code for code, cls in _errors.ERROR_CLASSES.items()}
        return codes.get(name)
    if name.startswith("SCATTER_LOG_"):
        return {v[0]: k for k, v in _context._LOG_LEVELS.items()}.get(name[len("SCATTER_LOG_"):].lower())
    if name.startswith("SCATTER_DEVICE_TYPE_"):
        return {v: k for k, v in _devices._DEVICE_TYPES.items()}.get(name[len("SCATTER_DEVICE_TYPE_"):].lower())
    if name.startswith("SCATTER_FEATURE_"):
        feature = name[len("SCATTER_FEATURE_"):].lower()
        return 1 << _devices._FEATURES.index(feature) if feature in _devices._FEATURES else None
    constants = {"SCATTER_OK": 0, "SCATTER_OPTION_EXCLUDE_SELF": _ops._OPTION_EXCLUDE_SELF,
                 "SCATTER_CONTEXT_FLAG_ALLOW_NONDETERMINISM": _context._FLAG_ALLOW_NONDETERMINISM,
                 "SCATTER_CONTEXT_FLAG_VALIDATION": _context._FLAG_VALIDATION,
                 "SCATTER_MAX_RANK": _library.MAX_RANK, "SCATTER_VERSION_MAJOR": _library.BINDING_MAJOR}
    return constants.get(name)


# What native_layout prints that this binding does not expose (yet): the C-level option and flag
# it has no parameter for, and the DEFAULT enumerators (the binding always passes a choice).
NOT_BOUND = {"SCATTER_OPTION_ALLOW_NONDETERMINISM", "SCATTER_CONTEXT_FLAG_PROFILE",
             "SCATTER_DTYPE_UNDEFINED", "SCATTER_REDUCTION_DEFAULT", "SCATTER_OUT_OF_RANGE_DEFAULT"}


def test_enumerators_match_the_header(layout):
    checked = 0
    for part in layout:
        if part[0] != "enum" or part[1] in NOT_BOUND:
            continue
        assert binding_value(part[1]) == int(part[2]), f"{part[1]} = {part[2]} in C, {binding_value(part[1])} here"
        checked += 1
    assert checked > 60, f"only {checked} enumerators compared"


def test_the_package_says_its_names():
    assert scatter.__name__ == "scatter"
    assert scatter.library_version == scatter.__version__
