"""The `scatter` program under hostile conditions: a process limit that refuses threads, --out
naming something other than a plain file, and .npy inputs that are endless or far too long."""
import os
import shutil
import stat
import subprocess
import tempfile

import numpy as np
import pytest


def npy_bytes(array):
    import io
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


# ---- threads refused by a process limit (RLIMIT_NPROC) ----------------------------------------

@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("setpriv") is None
                    or shutil.which("prlimit") is None,
                    reason="needs root to run as `nobody` (root ignores RLIMIT_NPROC), setpriv and prlimit")
def test_threads_refused_by_a_process_limit_still_run(cli):
    # Runs as nobody, who has (almost) no processes, with room for only a few threads: the 63
    # workers asked for cannot all start. This used to hang forever in context creation.
    directory = tempfile.mkdtemp(prefix="scatter-nproc-")
    try:
        os.chmod(directory, 0o777)
        paths = {}
        for name, array in (("d", np.zeros((4, 3), np.float32)), ("i", np.array([0, 3], np.int64)),
                            ("u", np.ones((2, 3), np.float32))):
            paths[name] = os.path.join(directory, name + ".npy")
            np.save(paths[name], array)
            os.chmod(paths[name], 0o644)
        out = os.path.join(directory, "out.npy")
        proc = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                               "prlimit", "--nproc=8", cli, "run", "--op", "rows", "--data", paths["d"],
                               "--indices", paths["i"], "--updates", paths["u"], "--threads", "64",
                               "--out", out], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        expected = np.zeros((4, 3), np.float32)
        expected[[0, 3]] = 1
        np.testing.assert_array_equal(np.load(out), expected)
    finally:
        shutil.rmtree(directory)


# ---- --out naming a link, a FIFO, a device or a file with its own mode -------------------------

def run_rows(runner, out):
    """A small successful run into `out`; returns (process, the bytes of the expected .npy)."""
    data, indices, updates = np.zeros(3), np.array([1]), np.array([5.0])
    paths = [runner.save(a) for a in (data, indices, updates)]
    proc = runner.call("run", "--op", "rows", "--data", paths[0], "--indices", paths[1],
                       "--updates", paths[2], "--out", out)
    return proc, npy_bytes(np.array([0.0, 5.0, 0.0]))


def leftovers(directory):
    return [n for n in os.listdir(directory) if n.startswith(".scatter-out")]


def test_out_keeps_the_mode_of_an_existing_file(runner):
    out = runner.path("private.npy")
    with open(out, "wb") as f:
        f.write(b"old")
    os.chmod(out, 0o600)
    proc, expected = run_rows(runner, out)
    assert proc.returncode == 0, proc.stderr
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600
    with open(out, "rb") as f:
        assert f.read() == expected


def test_out_through_a_symlink_writes_its_target_and_keeps_the_link(runner):
    target = runner.path("target.npy")
    with open(target, "wb") as f:
        f.write(b"old")
    os.chmod(target, 0o640)
    os.makedirs(runner.path("links"))
    link = runner.path("links/out.npy")
    os.symlink("../target.npy", link)  # relative to the link's own directory
    proc, expected = run_rows(runner, link)
    assert proc.returncode == 0, proc.stderr
    assert os.path.islink(link) and os.readlink(link) == "../target.npy"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640
    with open(target, "rb") as f:
        assert f.read() == expected
    assert not leftovers(runner.directory) and not leftovers(runner.path("links"))


def test_out_through_a_dangling_symlink_creates_its_target(runner):
    link = runner.path("out.npy")
    os.symlink("created.npy", link)
    proc, expected = run_rows(runner, link)
    assert proc.returncode == 0, proc.stderr
    assert os.path.islink(link)
    with open(runner.path("created.npy"), "rb") as f:
        assert f.read() == expected


def test_out_to_a_fifo_writes_into_it(runner):
    import threading
    fifo = runner.path("pipe")
    os.mkfifo(fifo)
    received = []
    # A daemon: if the FIFO were replaced, its reader would wait forever for a writer.
    reader = threading.Thread(target=lambda: received.append(open(fifo, "rb").read()), daemon=True)
    reader.start()
    proc, expected = run_rows(runner, fifo)
    reader.join(timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO was replaced by a file"
    assert received == [expected]
    assert not leftovers(runner.directory)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="mknod needs root")
def test_out_to_a_device_node_writes_into_it(runner):
    device = runner.path("null")
    os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a private /dev/null
    proc, _ = run_rows(runner, device)
    assert proc.returncode == 0, proc.stderr
    assert stat.S_ISCHR(os.lstat(device).st_mode), "the device node was replaced by a file"
    assert not leftovers(runner.directory)


# ---- .npy inputs that are endless or far longer than their header ------------------------------

def sanitized(cli):
    """Whether `cli` runs under a sanitizer, which reserves terabytes of address space."""
    proc = subprocess.run(["ldd", cli], capture_output=True, text=True)
    return "libasan" in proc.stdout or "libtsan" in proc.stdout


def run_bounded(runner, *args):
    """Runs `scatter` with a timeout and, where possible, 1 GiB of address space: a reader that
    grows with its input then fails fast instead of taking the machine's memory."""
    import resource
    limit = None if sanitized(runner.cli) else 1 << 30

    def bound():
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return subprocess.run([runner.cli, *map(str, args)], capture_output=True, text=True, timeout=60,
                          preexec_fn=bound)


def run_with_data(runner, data_path):
    indices, updates = runner.save(np.array([0])), runner.save(np.array([1.0]))
    return run_bounded(runner, "run", "--op", "rows", "--data", data_path, "--indices", indices,
                       "--updates", updates, "--out", runner.path("out.npy"))


def test_dev_zero_is_rejected_after_its_first_bytes(runner):
    proc = run_with_data(runner, "/dev/zero")
    assert proc.returncode == 1
    assert proc.stderr.startswith("error: SCATTER_ERROR_INVALID_ARGUMENT: "), proc.stderr
    assert "magic" in proc.stderr
    assert not os.path.exists(runner.path("out.npy"))


def test_gigabytes_after_the_data_are_reported_not_read(runner):
    path = runner.save(np.zeros(4), "huge.npy")
    size = os.path.getsize(path)
    os.truncate(path, size + (8 << 30))  # sparse: 8 GiB of holes after the data
    proc = run_with_data(runner, path)
    assert proc.returncode == 1
    first_line = proc.stderr.splitlines()[0]
    assert first_line.startswith("error: SCATTER_ERROR_INVALID_ARGUMENT: "), proc.stderr
    assert f"file has {8 << 30} bytes after the data" in first_line
    assert not os.path.exists(runner.path("out.npy"))


def test_data_larger_than_memory_is_out_of_memory_not_a_crash(runner):
    """A 5 GiB u8 .npy (sparse: its data is holes) under 1 GiB of address space: the read fails
    with OUT_OF_MEMORY and a message, and no output appears. (Without the limit the same call runs:
    5 GiB in, an update at byte 2^31 + 5 and at the last byte, 80 s and 10 GiB here, too much for CI.)"""
    if sanitized(runner.cli):
        pytest.skip("a sanitizer reserves terabytes of address space: no limit can be set")
    n = 5 << 30
    path = runner.path("big.npy")
    fields = np.lib.format.header_data_from_array_1_0(np.zeros(1, dtype=np.uint8))
    fields["shape"] = (n,)
    with open(path, "wb") as f:
        np.lib.format.write_array_header_1_0(f, fields)
        f.truncate(f.tell() + n)
    indices = runner.save(np.array([n - 1, (1 << 31) + 5], dtype=np.int64))
    updates = runner.save(np.array([7, 9], dtype=np.uint8))
    proc = run_bounded(runner, "run", "--op", "elements", "--data", path, "--indices", indices,
                       "--updates", updates, "--reduction", "add", "--backend", "cpu",
                       "--out", runner.path("out.npy"))
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith("error: SCATTER_ERROR_OUT_OF_MEMORY: "), proc.stderr
    assert not os.path.exists(runner.path("out.npy"))


def feed_fifo(path, chunks):
    """Writes chunks into the FIFO at `path` from a daemon thread, stopping when the reader leaves."""
    import threading

    def write():
        try:
            with open(path, "wb") as f:
                for chunk in chunks:
                    f.write(chunk)
        except (BrokenPipeError, OSError):
            pass

    threading.Thread(target=write, daemon=True).start()


def test_an_endless_stream_after_a_valid_header_is_read_no_further_than_the_data(runner):
    import itertools
    fifo = runner.path("stream.npy")
    os.mkfifo(fifo)
    head = npy_bytes(np.zeros(4))
    feed_fifo(fifo, itertools.chain([head], itertools.repeat(b"\0" * 65536)))
    proc = run_with_data(runner, fifo)
    assert proc.returncode == 1
    assert proc.stderr.startswith("error: SCATTER_ERROR_INVALID_ARGUMENT: "), proc.stderr
    assert "goes on after the 32 data bytes" in proc.stderr


def test_an_exact_stream_is_read(runner):
    fifo = runner.path("stream.npy")
    os.mkfifo(fifo)
    feed_fifo(fifo, [npy_bytes(np.arange(3.0))])
    proc = run_with_data(runner, fifo)
    assert proc.returncode == 0, proc.stderr
    np.testing.assert_array_equal(np.load(runner.path("out.npy")), [1.0, 1.0, 2.0])
