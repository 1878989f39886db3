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
