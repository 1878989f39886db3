#!/usr/bin/env python3
"""scatter.dask.rows `add` on a local dask.distributed cluster against one in-memory call.

    SCATTER_LIBRARY=build/src/libscatter.so PYTHONPATH=bindings/python \\
        python3 benchmarks/dask_rows.py [--gib 4] [--workers 2] [--memory-limit 3GiB]

The target array is `--gib` GiB of f32 rows of 64 (zeros, made on the workers), the updates as
many rows again, random targets. Prints the cluster's time and update rate, each worker's peak
resident memory, and the same rate for one in-memory `scatter.rows` call on the part that fits
(a quarter of the size; its second call, into memory the first touched), for docs/dask.md. The
cluster's time includes its workers' first touch of every block's memory.
"""
import argparse
import resource
import time

import dask.array as da
import numpy as np
from distributed import Client, LocalCluster

import scatter
import scatter.dask

FEATURES = 64


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--gib", type=float, default=4.0, help="size of the target array")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-limit", default="3GiB", help="each worker's memory limit")
    parser.add_argument("--block-mib", type=int, default=256, help="rows per block, in MiB")
    args = parser.parse_args()

    rows = int(args.gib * 2**30) // (4 * FEATURES)
    block_rows = args.block_mib * 2**20 // (4 * FEATURES)
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      memory_limit=args.memory_limit, dashboard_address=None, silence_logs=50) as cluster, \
            Client(cluster) as client:
        data = da.zeros((rows, FEATURES), chunks=(block_rows, FEATURES), dtype=np.float32)
        random = da.random.RandomState(1)
        indices = random.randint(0, rows, rows, chunks=block_rows)
        updates = random.random((rows, FEATURES), chunks=(block_rows, FEATURES)).astype(np.float32)
        out = scatter.dask.rows(data, indices, updates, reduction="add")
        start = time.perf_counter()
        total = float(out.sum(dtype=np.float64).compute())  # every block computed, none sent back whole
        seconds = time.perf_counter() - start
        peaks = client.run(peak_rss_mib)
    print(f"cluster: {args.workers} workers of {args.memory_limit}, {args.gib:g} GiB target, "
          f"{rows} updates of {FEATURES} f32 in {seconds:.1f} s = {rows / seconds / 1e6:.2f} M updates/s "
          f"(checksum {total:.6g})")
    print("peak resident memory per worker: " + ", ".join(f"{v:.0f} MiB" for v in peaks.values()))

    part = rows // 4
    rng = np.random.default_rng(1)
    data = np.zeros((part, FEATURES), np.float32)
    indices = rng.integers(0, part, part)
    updates = rng.random((part, FEATURES), dtype=np.float32)
    out = np.empty_like(data)
    scatter.rows(data, indices, updates, reduction="add", backend="cpu", out=out)  # out's pages touched
    start = time.perf_counter()
    scatter.rows(data, indices, updates, reduction="add", backend="cpu", out=out)
    seconds = time.perf_counter() - start
    print(f"one in-memory call on a quarter: {part} updates in {seconds:.2f} s = "
          f"{part / seconds / 1e6:.2f} M updates/s")


if __name__ == "__main__":
    main()
