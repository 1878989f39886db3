#!/usr/bin/python3
"""Prints the table of a GPU session (benchmarks/gpu_session.sh bench): per workload, libscatter's
median ms with every path on and with each preferred path hidden, PyTorch CUDA's median ms in the
same run, and PyTorch / libscatter (> 1: libscatter is faster). W7 in microseconds per call.

usage: gpu_table.py DIR    (DIR holds vk.jsonl, vk_no_<switch>.jsonl, torch.jsonl)
"""
import glob
import json
import os
import sys


def read(path):
    rows = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line.startswith("{"):
                    row = json.loads(line)
                    # peers_torch.py writes one row per form of the peer: keep the fastest.
                    kept = rows.get(row["workload"])
                    if kept is None or ms(row) < ms(kept):
                        rows[row["workload"]] = row
    return rows


def ms(row):
    return row["us_per_call"] / 1e3 if "us_per_call" in row else row["median_ms"]


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    top = sys.argv[1]
    lib = read(os.path.join(top, "vk.jsonl"))
    torch = read(os.path.join(top, "torch.jsonl"))
    hidden = {os.path.basename(p)[len("vk_no_"):-len(".jsonl")]: read(p)
              for p in sorted(glob.glob(os.path.join(top, "vk_no_*.jsonl")))}
    order = sorted(set(lib) | set(torch), key=lambda w: int(w[1:]))
    print(f"{'W':4} {'lib ms':>10} {'torch ms':>10} {'torch/lib':>9}   under switch: lib ms (torch/lib)")
    for w in order:
        mine, peer = lib.get(w), torch.get(w)
        line = f"{w:4} {ms(mine) if mine else float('nan'):10.4f} {ms(peer) if peer else float('nan'):10.4f} "
        line += f"{ms(peer) / ms(mine) if mine and peer else float('nan'):9.2f}  "
        for name, rows in hidden.items():
            if w in rows:
                other = ms(rows[w])
                line += f" no {name}: {other:.4f}" + (f" ({ms(peer) / other:.2f})" if peer else "")
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
