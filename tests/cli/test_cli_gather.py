"""`scatter run --op gather_elements|gather_rows|gather_nd` end to end: every dtype against numpy,
byte orders and memory orders, options, --fill-value per dtype, usage errors (exit 2), runtime
errors (exit 1, no --out), ONNX's own node tests for Gather, GatherElements and GatherND, and the
gather workloads of `scatter bench`."""
import glob
import importlib
import json
import os

import numpy as np
import pytest

from test_cli import NUMERIC_DTYPES, STRING_DTYPES, assert_error, values


def gather(runner, op, data, indices, *flags, out_name="out.npy"):
    """Runs `scatter run --op gather_<op>`; returns (completed process, output array or None)."""
    paths = [p if isinstance(p, str) else runner.save(p) for p in (data, indices)]
    out = runner.path(out_name)
    proc = runner.call("run", "--op", "gather_" + op, "--data", paths[0], "--indices", paths[1], "--out", out,
                       *flags)
    return proc, (np.load(out) if proc.returncode == 0 else None)


def same_bytes(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype, want.shape)
    assert np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(want).tobytes()


def nd_reference(data, indices, batch_dims=0):
    b, k = batch_dims, indices.shape[-1]
    out = np.empty(indices.shape[:-1] + data.shape[b + k:], data.dtype)
    for p in np.ndindex(*indices.shape[:-1]):
        out[p] = data[p[:b] + tuple(int(i) for i in indices[p])]
    return out


@pytest.mark.parametrize("dtype", NUMERIC_DTYPES + STRING_DTYPES)
def test_every_dtype_and_form_against_numpy(runner, dtype):
    rng = np.random.default_rng(7)
    data = values(dtype, (4, 5, 3), rng)
    indices = rng.integers(-5, 5, (3, 5, 2))
    proc, out = gather(runner, "elements", data, indices, "--axis", "1")
    assert proc.returncode == 0, proc.stderr
    same_bytes(out, np.take_along_axis(data[:3, :, :2], np.where(indices < 0, indices + 5, indices), 1))
    rows = rng.integers(-3, 3, (2, 2)).astype(np.int32)
    proc, out = gather(runner, "rows", data, rows, "--axis", "-1")
    assert proc.returncode == 0, proc.stderr
    same_bytes(out, np.take(data, rows, -1))
    tuples = np.stack([rng.integers(-4, 4, 6), rng.integers(0, 5, 6)], -1)
    proc, out = gather(runner, "nd", data, tuples)
    assert proc.returncode == 0, proc.stderr
    same_bytes(out, nd_reference(data, tuples))


def test_big_endian_and_fortran_inputs(runner):
    rng = np.random.default_rng(8)
    data = np.asfortranarray(values(">f8", (5, 4), rng))
    indices = np.asfortranarray(rng.integers(0, 5, (3, 4)).astype(">i4"))
    proc, out = gather(runner, "elements", data, indices)
    assert proc.returncode == 0, proc.stderr
    assert out.dtype == np.dtype("<f8") and out.flags.c_contiguous
    np.testing.assert_array_equal(out, np.take_along_axis(data, indices.astype(np.int64), 0))
    proc, out = gather(runner, "rows", values(">U4", (3,), rng), np.array([2, 0], ">i8"))
    assert proc.returncode == 0, proc.stderr
    assert out.dtype == np.dtype("<U4")


def test_0d_indices_and_batch_dims(runner):
    data = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    proc, out = gather(runner, "rows", data, np.array(-1), "--axis", "1")
    assert proc.returncode == 0, proc.stderr
    same_bytes(out, data[:, -1])
    indices = np.array([[[2, 3]], [[0, -1]]])
    proc, out = gather(runner, "nd", data, indices, "--batch-dims", "1")
    assert proc.returncode == 0, proc.stderr
    same_bytes(out, np.array([[data[0, 2, 3]], [data[1, 0, -1]]]))


def test_clamp_and_fill(runner):
    data = np.arange(6, dtype=np.float32).reshape(2, 3)
    proc, out = gather(runner, "elements", data, np.array([[5, -9], [-1, 1]]), "--axis", "1", "--out-of-range", "clamp")
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(out, [[2, 0], [5, 4]])
    proc, out = gather(runner, "rows", data, np.array([2, 0]), "--out-of-range", "fill")
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(out, [[0, 0, 0], [0, 1, 2]])
    proc, out = gather(runner, "nd", data, np.array([[1, 7], [0, 2]]), "--out-of-range", "fill", "--fill-value", "-2.5")
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(out, [-2.5, 2])


# (dtype, --fill-value text, the element numpy makes of it)
FILL_VALUES = [
    ("<f2", "0.1", np.float16(0.1)), ("<f2", "65519", np.float16(65504)), ("<f2", "-6e-8", np.float16(-6e-8)),
    ("<f4", "1e-45", np.float32(1e-45)), ("<f4", "-0", np.float32(-0.0)), ("<f4", "inf", np.float32(np.inf)),
    ("<f8", "0x1.8p1", 3.0), ("<f8", "-nan", np.nan),
    ("|i1", "-128", np.int8(-128)), ("<i8", "-9223372036854775808", np.int64(-2 ** 63)),
    ("<u8", "18446744073709551615", np.uint64(2 ** 64 - 1)), ("<u2", "-0", np.uint16(0)),
    ("|b1", "true", True), ("|b1", "0", False),
    ("<c8", "1.5-2j", np.complex64(1.5 - 2j)), ("<c16", "(-1e300+3e-5j)", -1e300 + 3e-5j), ("<c16", "2j", 2j),
    ("|S5", "ab", b"ab"), ("<U3", "\u00e9\U0001f600", "\u00e9\U0001f600"),
]


@pytest.mark.parametrize("dtype, text, expected", FILL_VALUES, ids=[f"{d}:{t}" for d, t, _ in FILL_VALUES])
def test_fill_value_per_dtype(runner, dtype, text, expected):
    data = values(dtype, (3,), np.random.default_rng(1))
    proc, out = gather(runner, "rows", data, np.array([1, 3]), "--out-of-range", "fill", "--fill-value", text)
    assert proc.returncode == 0, proc.stderr
    if text == "-nan":
        assert np.isnan(out[1]) and out[0] == data[1]
        return
    same_bytes(out, np.array([data[1], expected], dtype))


def test_fill_value_of_raw_records(runner):
    data = np.zeros(2, "V3")
    proc, out = gather(runner, "rows", data, np.array([5]), "--out-of-range", "fill", "--fill-value", "0x0aff01")
    assert proc.returncode == 0, proc.stderr
    assert out.tobytes() == b"\x0a\xff\x01"


BAD_FILL_VALUES = [
    ("<f4", "1e39", "TYPE_MISMATCH"), ("<f2", "65520", "TYPE_MISMATCH"), ("<f8", "1e999", "TYPE_MISMATCH"),
    ("<f4", "one", "INVALID_ARGUMENT"), ("<f4", "", "INVALID_ARGUMENT"), ("<f4", " 1", "INVALID_ARGUMENT"),
    ("|u1", "256", "TYPE_MISMATCH"), ("|u1", "-1", "TYPE_MISMATCH"), ("|i1", "128", "TYPE_MISMATCH"),
    ("<i8", "9223372036854775808", "TYPE_MISMATCH"), ("<i4", "1.5", "INVALID_ARGUMENT"),
    ("|b1", "yes", "INVALID_ARGUMENT"), ("<c8", "1+2i", "INVALID_ARGUMENT"), ("<c8", "1e39j", "TYPE_MISMATCH"),
    ("|S2", "abc", "TYPE_MISMATCH"), ("<U1", "ab", "TYPE_MISMATCH"), ("<U2", "\xff", None),
    ("|V2", "0x01", "INVALID_ARGUMENT"), ("|V2", "0x01zz", "INVALID_ARGUMENT"),
]


@pytest.mark.parametrize("dtype, text, status", BAD_FILL_VALUES, ids=[f"{d}:{t}" for d, t, _ in BAD_FILL_VALUES])
def test_fill_values_that_do_not_fit_fail_without_output(runner, dtype, text, status):
    data = np.zeros(2, dtype)
    proc, _ = gather(runner, "rows", data, np.array([3]), "--out-of-range", "fill", "--fill-value", text)
    if status is None:  # '\xff' is valid UTF-8 for 'ÿ' here: it fits U2
        assert proc.returncode == 0, proc.stderr
        return
    assert_error(proc, "SCATTER_ERROR_" + status, runner.path("out.npy"))
    assert "--fill-value" in proc.stderr


RUNTIME_ERRORS = [
    ("SCATTER_ERROR_INDEX_OUT_OF_RANGE", "elements", np.zeros((2, 3)), np.array([[0, 3]]), ["--axis", "1"]),
    ("SCATTER_ERROR_INDEX_OUT_OF_RANGE", "rows", np.zeros((0, 3)), np.array([0]), ["--out-of-range", "clamp"]),
    ("SCATTER_ERROR_INDEX_OUT_OF_RANGE", "nd", np.zeros((2, 3)), np.array([[1, -4]]), []),
    ("SCATTER_ERROR_INVALID_ARGUMENT", "rows", np.zeros((2, 3)), np.array([0]), ["--axis", "2"]),
    ("SCATTER_ERROR_INVALID_ARGUMENT", "nd", np.zeros((2, 3)), np.array([[0]]), ["--axis", "1"]),
    ("SCATTER_ERROR_INVALID_ARGUMENT", "nd", np.zeros((2, 3)), np.array([[0]]), ["--batch-dims", "2"]),
    ("SCATTER_ERROR_SHAPE_MISMATCH", "nd", np.zeros((2, 3)), np.array([[0, 0, 0]]), []),
    ("SCATTER_ERROR_SHAPE_MISMATCH", "nd", np.zeros((2, 3)), np.array(0), []),
    ("SCATTER_ERROR_SHAPE_MISMATCH", "rows", np.array(1.0), np.array([0]), []),
    ("SCATTER_ERROR_SHAPE_MISMATCH", "elements", np.zeros((2, 3)), np.array([[0, 1, 0, 1]]), []),
    ("SCATTER_ERROR_TYPE_MISMATCH", "rows", np.zeros(3), np.array([0.0]), []),
    ("SCATTER_ERROR_SHAPE_MISMATCH", "rows", np.zeros((2,) * 9), np.zeros((1,) * 9, np.int64), []),
]


@pytest.mark.parametrize("status, op, data, indices, flags", RUNTIME_ERRORS,
                         ids=[f"{e[0][14:]}-{e[1]}-{i}" for i, e in enumerate(RUNTIME_ERRORS)])
def test_runtime_errors_exit_1_without_output(runner, status, op, data, indices, flags):
    proc, _ = gather(runner, op, data, indices, *flags)
    assert_error(proc, status, runner.path("out.npy"))


def test_existing_output_is_left_unchanged_on_error(runner):
    out = runner.path("out.npy")
    with open(out, "wb") as f:
        f.write(b"keep me")
    proc, _ = gather(runner, "rows", np.zeros(3), np.array([3]))
    assert_error(proc, "SCATTER_ERROR_INDEX_OUT_OF_RANGE")
    with open(out, "rb") as f:
        assert f.read() == b"keep me"


GATHER = ["run", "--op", "gather_rows", "--data", "d", "--indices", "i", "--out", "o"]
SCATTER = ["run", "--op", "rows", "--data", "d", "--indices", "i", "--updates", "u", "--out", "o"]
USAGE_ERRORS = [
    (GATHER + ["--updates", "u"], "--updates is not an option of --op gather_rows"),
    (GATHER + ["--reduction", "add"], "--reduction is not an option"),
    (GATHER + ["--exclude-self"], "--exclude-self is not an option"),
    (GATHER + ["--batch-dims", "1"], "only gather_nd has batch dimensions"),
    (GATHER + ["--out-of-range", "skip"], "not a gather policy"),
    (GATHER + ["--fill-value", "1"], "--fill-value needs --out-of-range fill"),
    (GATHER + ["--out-of-range", "clamp", "--fill-value", "1"], "--fill-value needs --out-of-range fill"),
    (GATHER[:-2], "--out is required"),
    (["run", "--op", "gather_nd", "--data", "d", "--indices", "i", "--out", "o", "--batch-dims", "-1"], "batch-dims"),
    (SCATTER[:7] + SCATTER[9:], "--updates is required for --op rows"),
    (SCATTER + ["--fill-value", "1"], "--fill-value is not an option of --op rows"),
    (SCATTER + ["--batch-dims", "0"], "--batch-dims is not an option of --op rows"),
    (SCATTER + ["--out-of-range", "fill"], "not a scatter policy"),
    (["run", "--op", "gather", "--data", "d", "--indices", "i", "--out", "o"], "--op"),
]


@pytest.mark.parametrize("args, message", USAGE_ERRORS, ids=[m for _, m in USAGE_ERRORS])
def test_usage_errors_exit_2_before_reading_anything(runner, args, message):
    proc = runner.call(*args)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert message in proc.stderr, proc.stderr


def test_help_names_the_gathers(runner):
    proc = runner.call("run", "--help")
    assert proc.returncode == 0
    for word in ("gather_elements", "gather_nd", "--batch-dims", "--fill-value", "fill"):
        assert word in proc.stdout, word


# ONNX's node tests: the on-disk data of a full onnx install (onnx/backend/test/data/node/test_gather*),
# else the cases Debian's python3-onnx regenerates from its case modules (the same generators).
ONNX_OPS = {"Gather": "rows", "GatherElements": "elements", "GatherND": "nd"}


def onnx_cases():
    try:
        import onnx
        from onnx import numpy_helper
    except ImportError:
        return []
    cases = []
    data_dir = os.path.join(os.path.dirname(onnx.__file__), "backend", "test", "data", "node")
    for case_dir in sorted(glob.glob(os.path.join(data_dir, "test_gather*"))):
        model = onnx.load(os.path.join(case_dir, "model.onnx"))
        for set_dir in sorted(glob.glob(os.path.join(case_dir, "test_data_set_*"))):
            def read(name):
                tensor = onnx.TensorProto()
                with open(os.path.join(set_dir, name), "rb") as f:
                    tensor.ParseFromString(f.read())
                return numpy_helper.to_array(tensor)
            inputs = [read(f"input_{i}.pb") for i in range(len(model.graph.input))]
            cases.append((os.path.basename(case_dir), model.graph.node[0], inputs, read("output_0.pb")))
    if cases:
        return cases
    try:
        from onnx.backend.test.case import node
        # Importing a case module runs its exports, which register every case with expect().
        for module in ("gather", "gatherelements", "gathernd"):
            importlib.import_module("onnx.backend.test.case.node." + module)
    except Exception:  # an onnx whose case modules do not import with this numpy
        return []
    for case in node._NodeTestCases:
        graph_node = case.model.graph.node[0]
        if graph_node.op_type in ONNX_OPS:
            inputs, outputs = case.data_sets[0]
            cases.append((case.name, graph_node, list(inputs), outputs[0]))
    return cases


ONNX_CASES = onnx_cases()


@pytest.mark.skipif(not ONNX_CASES, reason="onnx (python3-onnx) is not installed")
@pytest.mark.parametrize("name, graph_node, inputs, expected", ONNX_CASES, ids=[c[0] for c in ONNX_CASES])
def test_onnx_node_tests(runner, name, graph_node, inputs, expected):
    import onnx
    attributes = {a.name: onnx.helper.get_attribute_value(a) for a in graph_node.attribute}
    flags = []
    if "axis" in attributes:
        flags += ["--axis", str(attributes["axis"])]
    if "batch_dims" in attributes:
        flags += ["--batch-dims", str(attributes["batch_dims"])]
    proc, out = gather(runner, ONNX_OPS[graph_node.op_type], inputs[0], inputs[1], *flags)
    assert proc.returncode == 0, proc.stderr
    same_bytes(out, expected)


def test_onnx_cases_cover_every_gather_op():
    if not ONNX_CASES:
        pytest.skip("onnx (python3-onnx) is not installed")
    assert {c[1].op_type for c in ONNX_CASES} == set(ONNX_OPS) and len(ONNX_CASES) >= 10


def test_bench_gather_workload_json(runner):
    proc = runner.call("bench", "--workload", "W17", "--repeat", "1", "--threads", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    row = json.loads(proc.stdout)
    assert row["workload"] == "W17" and row["description"].startswith("gather_elements axis 1 f32 ")
    assert row["bytes"] == 2 * 4096 * 4096 * 4 + 4096 * 4096 * 8  # gathered read + out + indices
    assert row["median_ms"] > 0 and row["ratio_to_memcpy"] > 0
