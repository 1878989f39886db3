"""End-to-end tests of the `scatter` program: .npy round trips for every dtype, byte order,
memory order and format version; options; exit codes; error lines; atomic --out."""
import json
import os
import re
import subprocess

import numpy as np
import pytest

NUMERIC_DTYPES = ["<f2", "<f4", "<f8", "|i1", "<i2", "<i4", "<i8", "|u1", "<u2", "<u4", "<u8",
                  "|b1", "<c8", "<c16"]
STRING_DTYPES = ["|S5", "<U3"]
ERROR_LINE = re.compile(r"^error: SCATTER_ERROR_[A-Z_]+: \S.*$")


def values(dtype, shape, rng):
    dtype = np.dtype(dtype)
    count = int(np.prod(shape))
    if dtype.kind == "S":
        return np.array([b"s%03d" % i for i in rng.integers(0, 999, count)], dtype).reshape(shape)
    if dtype.kind == "U":
        return np.array(["u%02d" % i for i in rng.integers(0, 99, count)], dtype).reshape(shape)
    if dtype.kind == "b":
        return (rng.integers(0, 2, shape) == 1).astype(dtype)
    if dtype.kind == "c":
        return (rng.normal(size=shape) + 1j * rng.normal(size=shape)).astype(dtype)
    return rng.integers(0, 100, shape).astype(dtype)


def unique_indices(rng, target, shape, axis):
    """Indices into `target` positions along `axis` with no duplicate target per line."""
    moved = list(shape)
    moved[axis], moved[-1] = moved[-1], moved[axis]
    lines = int(np.prod(moved[:-1]))
    rows = [rng.permutation(target)[: moved[-1]] for _ in range(lines)]
    return np.swapaxes(np.array(rows, np.int64).reshape(moved), axis, -1)


def elements_reference(data, indices, updates, axis):
    out = data.copy()
    np.put_along_axis(out, indices, updates, axis)
    return out


def assert_error(proc, status, out_path=None):
    assert proc.returncode == 1, proc.stderr
    first = proc.stderr.splitlines()[0]
    assert ERROR_LINE.match(first), first
    assert first.startswith(f"error: {status}: "), first
    if out_path is not None:
        assert not os.path.exists(out_path)


@pytest.mark.parametrize("dtype", NUMERIC_DTYPES + STRING_DTYPES)
def test_round_trip_of_every_dtype(runner, dtype):
    rng = np.random.default_rng(1)
    data = values(dtype, (4, 6), rng)
    indices = unique_indices(rng, 4, (3, 6), 0)
    updates = values(dtype, (3, 6), rng)
    proc, out = runner.run("elements", data, indices, updates)
    assert proc.returncode == 0, proc.stderr
    assert out.dtype == data.dtype and out.shape == data.shape
    np.testing.assert_array_equal(out, elements_reference(data, indices, updates, 0))


@pytest.mark.parametrize("dtype", [">f4", ">i8", ">c16", ">u2", ">U4"])
def test_big_endian_inputs_are_read_and_written_little_endian(runner, dtype):
    rng = np.random.default_rng(2)
    data = values(dtype, (5, 3), rng)
    indices = unique_indices(rng, 3, (5, 2), 1).astype(">i4")
    updates = values(dtype, (5, 2), rng)
    proc, out = runner.run("elements", data, indices, updates, "--axis", "1")
    assert proc.returncode == 0, proc.stderr
    assert out.dtype == data.dtype.newbyteorder("<")
    np.testing.assert_array_equal(out, elements_reference(data, indices.astype(np.int64), updates, 1))


def test_mixed_byte_orders_of_one_dtype_work_together(runner):
    data = np.arange(6, dtype=">i4")
    proc, out = runner.run("rows", data, np.array([1, 4]), np.array([10, 40], "<i4"))
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(out, [0, 10, 2, 3, 40, 5])


def test_fortran_order_inputs(runner):
    rng = np.random.default_rng(3)
    data = np.asfortranarray(values("<f8", (4, 5, 3), rng))
    indices = np.asfortranarray(unique_indices(rng, 5, (4, 2, 3), 1))
    updates = np.asfortranarray(values("<f8", (4, 2, 3), rng))
    proc, out = runner.run("elements", data, indices, updates, "--axis", "1")
    assert proc.returncode == 0, proc.stderr
    assert out.flags.c_contiguous
    np.testing.assert_array_equal(out, elements_reference(data, indices, updates, 1))


@pytest.mark.parametrize("version", [(1, 0), (2, 0), (3, 0)])
def test_npy_format_versions(runner, version):
    def save(array, name):
        path = runner.path(name)
        with open(path, "wb") as f:
            np.lib.format.write_array(f, array, version=version)
        return path

    data = save(np.zeros(4, np.float32), "d.npy")
    indices = save(np.array([3, 0]), "i.npy")
    updates = save(np.array([1.5, 2.5], np.float32), "u.npy")
    proc, out = runner.run("rows", data, indices, updates)
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(out, [2.5, 0, 0, 1.5])


def test_options_reach_the_library(runner):
    data = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    indices = np.array([[0, 2], [0, 5]])
    updates = np.array([[10.0, 20.0], [30.0, 40.0]])
    proc, out = runner.run("elements", data, indices, updates, "--reduction", "add",
                           "--out-of-range", "skip", "--threads", "1", "--backend", "cpu")
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(out, [[41.0, 2.0], [3.0, 4.0], [5.0, 26.0]])
    proc, out = runner.run("elements", data, indices, updates, "--reduction", "add",
                           "--out-of-range", "clamp", "--exclude-self")
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(out, [[40.0, 2.0], [3.0, 4.0], [5.0, 60.0]])
    proc, out = runner.run("elements", data, indices, updates, "--reduction", "max",
                           "--out-of-range", "clamp", "--axis", "-2")
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(out, [[30.0, 2.0], [3.0, 4.0], [5.0, 40.0]])


@pytest.mark.parametrize("alias,name", [("sum", "add"), ("prod", "mul"), ("multiply", "mul"),
                                        ("amax", "max"), ("amin", "min")])
def test_pytorch_and_onnx_reduction_names_are_aliases(runner, alias, name):
    data = np.array([[1.0, 2.0], [3.0, 4.0]])
    indices = np.array([[1, 0], [1, 0]])
    updates = np.array([[5.0, -6.0], [7.0, 0.5]])
    proc, by_alias = runner.run("elements", data, indices, updates, "--reduction", alias)
    assert proc.returncode == 0, proc.stderr
    proc, by_name = runner.run("elements", data, indices, updates, "--reduction", name)
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(by_alias, by_name)


def test_rows_with_0d_indices_and_nd(runner):
    data = np.arange(6, dtype=np.int32).reshape(3, 2)
    proc, out = runner.run("rows", data, np.array(1), np.array([7, 8], np.int32), "--reduction", "sub")
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(out, [[0, 1], [-5, -5], [4, 5]])
    proc, out = runner.run("nd", data, np.array([[2, 1], [0, 0]]), np.array([9, 9], np.int32),
                           "--reduction", "mul")
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(out, [[0, 1], [2, 3], [4, 45]])


def test_zero_size_arrays(runner):
    data = np.zeros((0, 3), np.float32)
    proc, out = runner.run("elements", data, np.zeros((0, 3), np.int64), np.zeros((0, 3), np.float32))
    assert proc.returncode == 0, proc.stderr
    assert out.shape == (0, 3) and out.dtype == np.float32


def test_output_replaces_an_existing_file_on_success(runner):
    out_path = runner.path("out.npy")
    with open(out_path, "wb") as f:
        f.write(b"old contents")
    proc, out = runner.run("rows", np.zeros(2), np.array([1]), np.array([5.0]))
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(out, [0.0, 5.0])
    assert not [n for n in os.listdir(runner.directory) if n.startswith(".scatter-out")]


LIBRARY_ERRORS = [
    ("SCATTER_ERROR_INDEX_OUT_OF_RANGE", "rows", np.zeros(3), np.array([3]), np.array([1.0]), []),
    ("SCATTER_ERROR_TYPE_MISMATCH", "rows", np.zeros(3), np.array([1]), np.array([1], np.float32), []),
    ("SCATTER_ERROR_TYPE_MISMATCH", "rows", np.zeros(3), np.array([1.0]), np.array([1.0]), []),
    ("SCATTER_ERROR_TYPE_MISMATCH", "rows", np.array([b"abcd"]), np.array([0]), np.array(["x"]), []),
    ("SCATTER_ERROR_SHAPE_MISMATCH", "rows", np.zeros(3), np.array([1]), np.array([1.0, 2.0]), []),
    ("SCATTER_ERROR_SHAPE_MISMATCH", "rows", np.array(1.0), np.array(0), np.array(1.0), []),
    ("SCATTER_ERROR_INVALID_ARGUMENT", "rows", np.zeros(3), np.array([1]), np.array([1.0]), ["--axis", "4"]),
    ("SCATTER_ERROR_INVALID_ARGUMENT", "rows", np.ones(3, np.int32), np.array([1]),
     np.array([0], np.int32), ["--reduction", "div"]),
    ("SCATTER_ERROR_UNSUPPORTED", "rows", np.array([b"ab"]), np.array([0]), np.array([b"cd"]),
     ["--reduction", "add"]),
]


@pytest.mark.parametrize("status,op,data,indices,updates,flags", LIBRARY_ERRORS,
                         ids=[f"{e[0]}-{i}" for i, e in enumerate(LIBRARY_ERRORS)])
def test_library_errors_exit_1_and_create_no_output(runner, status, op, data, indices, updates, flags):
    proc, _ = runner.run(op, data, indices, updates, *flags)
    assert_error(proc, status, runner.path("out.npy"))


def test_existing_output_is_left_unchanged_on_error(runner):
    out_path = runner.path("out.npy")
    original = b"precious bytes that must survive"
    with open(out_path, "wb") as f:
        f.write(original)
    proc, _ = runner.run("rows", np.zeros(3), np.array([7]), np.array([1.0]))
    assert_error(proc, "SCATTER_ERROR_INDEX_OUT_OF_RANGE")
    bad = runner.path("bad.npy")
    with open(bad, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00garbage")
    proc, _ = runner.run("rows", bad, np.array([0]), np.array([1.0]))
    assert_error(proc, "SCATTER_ERROR_INVALID_ARGUMENT")
    with open(out_path, "rb") as f:
        assert f.read() == original
    assert not [n for n in os.listdir(runner.directory) if n.startswith(".scatter-out")]


def good_npy_bytes():
    import io
    buffer = io.BytesIO()
    np.save(buffer, np.arange(4, dtype=np.float64))
    return buffer.getvalue()


def header_file(dict_text, data=b"\0" * 32, major=1):
    header = dict_text.encode() + b"\n"
    length = len(header).to_bytes(2 if major == 1 else 4, "little")
    return b"\x93NUMPY" + bytes([major, 0]) + length + header + data


MALFORMED_FILES = {
    "empty": b"",
    "not_npy": b"hello world, not an array\n",
    "magic_only": b"\x93NUMPY",
    "bad_version": b"\x93NUMPY\x07\x00" + good_npy_bytes()[8:],
    "truncated_header": good_npy_bytes()[:40],
    "truncated_data": good_npy_bytes()[:-3],
    "trailing_bytes": good_npy_bytes() + b"xx",
    "header_length_too_long": good_npy_bytes()[:8] + b"\xff\xff" + good_npy_bytes()[10:],
    "object_dtype": header_file("{'descr': '|O', 'fortran_order': False, 'shape': (4,), }"),
    "structured_dtype": header_file("{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (4,), }"),
    "datetime_dtype": header_file("{'descr': '<M8[ns]', 'fortran_order': False, 'shape': (4,), }"),
    "missing_shape": header_file("{'descr': '<f8', 'fortran_order': False, }"),
    "negative_dim": header_file("{'descr': '<f8', 'fortran_order': False, 'shape': (-4,), }"),
    "huge_dims": header_file("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }"),
    "shape_not_tuple": header_file("{'descr': '<f8', 'fortran_order': False, 'shape': 4, }"),
    "bad_fortran_flag": header_file("{'descr': '<f8', 'fortran_order': maybe, 'shape': (4,), }"),
    "unknown_key": header_file("{'descr': '<f8', 'fortran_order': False, 'shape': (4,), 'x': 1}"),
    "unclosed_dict": header_file("{'descr': '<f8', 'fortran_order': False, 'shape': (4,), "),
    "bad_descr": header_file("{'descr': '<f7', 'fortran_order': False, 'shape': (4,), }"),
    "zero_width_string": header_file("{'descr': '|S0', 'fortran_order': False, 'shape': (4,), }"),
}


@pytest.mark.parametrize("role", ["--data", "--indices", "--updates"])
@pytest.mark.parametrize("name", sorted(MALFORMED_FILES))
def test_malformed_npy_is_an_invalid_argument(runner, name, role):
    bad = runner.path(f"{name}.npy")
    with open(bad, "wb") as f:
        f.write(MALFORMED_FILES[name])
    inputs = {"--data": np.zeros(4), "--indices": np.array([1]), "--updates": np.array([2.0])}
    inputs[role] = bad
    proc, _ = runner.run("rows", inputs["--data"], inputs["--indices"], inputs["--updates"])
    assert_error(proc, "SCATTER_ERROR_INVALID_ARGUMENT", runner.path("out.npy"))
    assert role in proc.stderr.splitlines()[0]


def test_missing_input_and_unwritable_output(runner):
    proc, _ = runner.run("rows", runner.path("absent.npy"), np.array([1]), np.array([2.0]))
    assert_error(proc, "SCATTER_ERROR_INVALID_ARGUMENT", runner.path("out.npy"))
    assert "absent.npy" in proc.stderr
    proc, _ = runner.run("rows", np.zeros(2), np.array([1]), np.array([2.0]), out_name="no/such/dir/out.npy")
    assert_error(proc, "SCATTER_ERROR_INVALID_ARGUMENT")
    os.mkdir(runner.path("a_directory"))
    proc, _ = runner.run("rows", np.zeros(2), np.array([1]), np.array([2.0]), out_name="a_directory")
    assert_error(proc, "SCATTER_ERROR_INVALID_ARGUMENT")


USAGE_ERRORS = [
    [],
    ["frobnicate"],
    ["run"],
    ["run", "--op", "elements", "--data", "d", "--indices", "i", "--updates", "u"],
    ["run", "--op", "gather", "--data", "d", "--indices", "i", "--updates", "u", "--out", "o"],
    ["run", "--op", "rows", "--data", "d", "--indices", "i", "--updates", "u", "--out", "o",
     "--reduction", "xor"],
    ["run", "--op", "rows", "--data", "d", "--indices", "i", "--updates", "u", "--out", "o",
     "--out-of-range", "wrap"],
    ["run", "--op", "rows", "--data", "d", "--indices", "i", "--updates", "u", "--out", "o",
     "--backend", "metal"],
    ["run", "--op", "rows", "--data", "d", "--indices", "i", "--updates", "u", "--out", "o",
     "--axis", "one"],
    ["run", "--op", "rows", "--data", "d", "--indices", "i", "--updates", "u", "--out", "o",
     "--threads", "-1"],
    ["run", "--op", "rows", "--data", "d", "--indices", "i", "--updates", "u", "--out", "o", "--bogus"],
    ["bench", "--workload", "W99"],
    ["bench", "--repeat", "0"],
    ["bench", "--misalign", "64"],
    ["bench", "--misalign", "12"],
    ["version", "extra"],
]


@pytest.mark.parametrize("args", USAGE_ERRORS, ids=lambda a: " ".join(a) or "(none)")
def test_usage_errors_exit_2(runner, args):
    proc = runner.call(*args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stderr.strip()


def test_help_exits_0(runner):
    for args in (["--help"], ["run", "--help"], ["bench", "--help"]):
        proc = runner.call(*args)
        assert proc.returncode == 0
        assert "--" in proc.stdout


def test_version(runner):
    proc = runner.call("version")
    assert proc.returncode == 0, proc.stderr
    assert re.match(r"^\d+\.\d+\.\d+", proc.stdout.strip())


def test_devices_lists_the_cpu_first(runner):
    proc = runner.call("devices")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("cpu 0: ")
    assert any(line.strip().startswith("features:") for line in lines)
    assert any(line.strip().startswith("max buffer range:") for line in lines)


def test_devices_json_says_why_vulkan_is_missing(cli, tmp_path):
    missing = str(tmp_path / "no-driver.json")
    env = dict(os.environ, VK_DRIVER_FILES=missing, VK_ICD_FILENAMES=missing)
    proc = subprocess.run([cli, "devices", "--json"], capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert rows[0]["backend"] == "cpu" and rows[0]["index"] == 0 and "int64" in rows[0]["features"]
    vulkan = rows[-1]
    assert vulkan["backend"] == "vulkan" and vulkan["available"] is False
    assert vulkan["reason"].startswith("SCATTER_ERROR_BACKEND_UNAVAILABLE: ")
    text = subprocess.run([cli, "devices"], capture_output=True, text=True, timeout=60, env=env)
    assert "vulkan: unavailable: SCATTER_ERROR_BACKEND_UNAVAILABLE: " in text.stdout


def test_devices_json_on_lavapipe(cli):
    icd = os.environ.get("SCATTER_LAVAPIPE_ICD", "")  # set by tests/cli/CMakeLists.txt
    if not os.path.exists(icd):
        pytest.skip("lavapipe is not installed")
    env = dict(os.environ, VK_DRIVER_FILES=icd, VK_ICD_FILENAMES=icd)
    proc = subprocess.run([cli, "devices", "--json"], capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert any(r["backend"] == "vulkan" and "subgroup_size" in r for r in rows[:-1])
    assert rows[-1] == {"backend": "vulkan", "available": True}


def test_bench_profile_json(runner):
    proc = runner.call("bench", "--workload", "W7", "--repeat", "1", "--threads", "1", "--profile", "--json")
    assert proc.returncode == 0, proc.stderr
    row = json.loads(proc.stdout)
    profile = row["profile"]
    assert profile["backend"] == "cpu" and profile["total_us"] > 0
    assert [p["name"] for p in profile["passes"]] == ["cpu"]
    assert row["copy"] == "memcpy" and row["ratio_to_copy"] > 0


def test_bench_misalign(runner):
    for misalign in ("0", "16", "56"):
        proc = runner.call("bench", "--workload", "W7,W9", "--repeat", "1", "--threads", "1", "--misalign",
                           misalign, "--json")
        assert proc.returncode == 0, proc.stderr
        rows = [json.loads(line) for line in proc.stdout.splitlines()]
        assert [r["workload"] for r in rows] == ["W7", "W9"]
        assert all(r["misalign"] == int(misalign) and r["median_ms"] > 0 for r in rows)


def test_bench_json_line_per_workload(runner):
    proc = runner.call("bench", "--workload", "W7", "--repeat", "2", "--threads", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(rows) == 1
    row = rows[0]
    assert row["workload"] == "W7" and row["backend"] == "cpu" and row["threads"] == 1
    for key in ("median_ms", "min_ms", "gbps", "memcpy_gbps", "ratio_to_memcpy", "us_per_call"):
        assert row[key] > 0, key
    assert row["min_ms"] <= row["median_ms"]
    proc = runner.call("bench", "--workload", "W7", "--repeat", "1")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("W7 ") and "us/call" in proc.stdout
