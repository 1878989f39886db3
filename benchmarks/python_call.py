#!/usr/bin/env python3
"""The cost of one small call through the Python package, against PyTorch's in the same run.

A 64-element f32 `add` (elements, and rows and gather beside it) on host arrays: each call timed
alone with perf_counter, the median of N calls (10 000 by default) after 1 000 warm-up calls,
in rounds that alternate libscatter and PyTorch so that both see the same machine. The C call
itself costs ~0.2 us (W7); the rest is the binding's argument handling.

Usage: SCATTER_LIBRARY=build/src/libscatter.so PYTHONPATH=bindings/python \\
       python3 benchmarks/python_call.py [--calls N] [--rounds R]
"""
import argparse
import time

import numpy as np

import scatter


def median_call_us(call, calls):
    for _ in range(1000):
        call()
    times = []
    clock = time.perf_counter
    for _ in range(calls):
        start = clock()
        call()
        times.append(clock() - start)
    times.sort()
    return times[len(times) // 2] * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=10000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    data = np.zeros(64, np.float32)
    indices = np.arange(63, -1, -1, dtype=np.int64)
    updates = np.ones(64, np.float32)
    table = np.zeros((64, 1), np.float32)
    cases = {
        "scatter.elements add": lambda: scatter.elements(data, indices, updates, axis=0, reduction="add"),
        "scatter.rows add": lambda: scatter.rows(table, indices, table, axis=0, reduction="add"),
        "scatter.gather_elements": lambda: scatter.gather_elements(data, indices, axis=0),
    }
    try:
        import torch
        t_data, t_indices, t_updates = torch.zeros(64), torch.arange(63, -1, -1), torch.ones(64)
        cases["torch scatter_add"] = lambda: t_data.scatter_add(0, t_indices, t_updates)
        cases["torch gather"] = lambda: torch.gather(t_data, 0, t_indices)
    except ImportError:
        print("(no torch: libscatter's figures only)")
    results = {name: [] for name in cases}
    for _ in range(args.rounds):
        for name, call in cases.items():
            results[name].append(median_call_us(call, args.calls))
    print(f"median of {args.calls} calls, best of {args.rounds} rounds, 64 f32 elements, host arrays:")
    for name, values in results.items():
        print(f"  {name:26s} {min(values):7.2f} us")


if __name__ == "__main__":
    main()
