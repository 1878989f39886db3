#!/usr/bin/env bash
# Runs `scatter bench --json` and benchmarks/peers_torch.py on the same workloads in one go and
# prints a table: libscatter's median time and GB/s, PyTorch's best (over 1 and 2 threads), and
# the ratio libscatter/peer in effective GB/s (> 1: libscatter is faster).
#
# usage: benchmarks/compare.sh [--cli PATH] [--workload W1,W2|all] [--threads N] [--repeat K]
#   --cli      the scatter program (default: build/tools/scatter)
#   --threads  libscatter's CPU threads (default 2); PyTorch runs at 1 and 2
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
cli="$here/../build/tools/scatter"
workload=all
threads=2
repeat=7
python=/usr/bin/python3

while [[ $# -gt 0 ]]; do
  case "$1" in
    --cli) cli="$2"; shift 2 ;;
    --workload) workload="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "compare.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [[ ! -x "$cli" ]]; then
  echo "compare.sh: no scatter program at $cli (build it, or pass --cli)" >&2
  exit 2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "libscatter: $("$cli" version), $threads threads; PyTorch: 1 and 2 threads; repeat $repeat" >&2
"$cli" bench --json --workload "$workload" --backend cpu --threads "$threads" --repeat "$repeat" > "$work/lib.jsonl"
"$python" "$here/peers_torch.py" --json --workload "$workload" --threads 1,2 --repeat "$repeat" > "$work/peer.jsonl"

"$python" - "$work/lib.jsonl" "$work/peer.jsonl" <<'PY'
import json
import sys

lib = {row["workload"]: row for row in map(json.loads, open(sys.argv[1]))}
best = {}
for row in map(json.loads, open(sys.argv[2])):
    if row["workload"] not in best or row["median_ms"] < best[row["workload"]]["median_ms"]:
        best[row["workload"]] = row

print(f"{'W':3}  {'libscatter':>12} {'GB/s':>7} {'vs memcpy':>9}   {'best PyTorch peer':42} {'thr':>3} {'time':>12} {'GB/s':>7}  {'lib/peer':>8}")
for workload, mine in lib.items():
    peer = best.get(workload)
    latency = "us_per_call" in mine
    def show(row):
        return f"{row['us_per_call']:9.3f} us" if latency else f"{row['median_ms']:9.3f} ms"
    line = f"{workload:3}  {show(mine):>12} {mine['gbps']:7.2f} {mine['ratio_to_memcpy']:9.3f}   "
    if peer:
        line += f"{peer['peer']:42} {peer['threads']:>3} {show(peer):>12} {peer['gbps']:7.2f}  "
        line += f"{peer['median_ms'] / mine['median_ms']:8.2f}x"
    print(line)
PY
