#!/usr/bin/env bash
# Runs `scatter bench --json` and benchmarks/peers_torch.py on the same workloads in one go and
# prints one table per thread count N: libscatter's median time and GB/s at N threads, its ratio
# to a memcpy of the same bytes, PyTorch's best operator at N threads or fewer, and lib/peer in
# effective GB/s (> 1: libscatter is faster).
#
# usage: benchmarks/compare.sh [--cli PATH] [--workload W1,W2|all] [--threads 1,N] [--repeat K]
#                              [--huge-pages] [--misalign BYTES]
#   --cli         the scatter program (default: build/tools/scatter)
#   --threads     comma-separated thread counts, each used by both (default: 1 and every core)
#   --huge-pages  both allocate through glibc's transparent-huge-page tunable
#                 (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), as numpy does for large arrays
#   --misalign    libscatter's tensors start BYTES past a 64-byte boundary (`scatter bench
#                 --misalign`; default 0, aligned as PyTorch's allocator aligns its own)
# PYTHON (environment): the Python with torch (default /usr/bin/python3)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
cli="$here/../build/tools/scatter"
workload=all
threads="1,$(nproc)"
repeat=7
misalign=0
python=${PYTHON:-/usr/bin/python3}

while [[ $# -gt 0 ]]; do
  case "$1" in
    --cli) cli="$2"; shift 2 ;;
    --workload) workload="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    --huge-pages) export GLIBC_TUNABLES=glibc.malloc.hugetlb=1; shift ;;
    --misalign) misalign="$2"; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "compare.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [[ ! -x "$cli" ]]; then
  echo "compare.sh: no scatter program at $cli (build it, or pass --cli)" >&2
  exit 2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "libscatter: $("$cli" version); threads $threads; repeat $repeat; misalign $misalign${GLIBC_TUNABLES:+; $GLIBC_TUNABLES}" >&2
IFS=, read -r -a counts <<< "$threads"
for count in "${counts[@]}"; do
  "$cli" bench --json --workload "$workload" --backend cpu --threads "$count" --repeat "$repeat" \
    --misalign "$misalign" >> "$work/lib.jsonl"
done
"$python" "$here/peers_torch.py" --json --workload "$workload" --threads "$threads" --repeat "$repeat" > "$work/peer.jsonl"

"$python" - "$work/lib.jsonl" "$work/peer.jsonl" <<'PY'
import json
import sys

lib = [json.loads(line) for line in open(sys.argv[1])]
peer_rows = [json.loads(line) for line in open(sys.argv[2])]
# The peer at N threads is PyTorch's best at N threads or fewer (more threads can be slower).
peers = {}
for row in peer_rows:
    for threads in {r["threads"] for r in lib if r["threads"] >= row["threads"]}:
        key = (row["workload"], threads)
        if key not in peers or row["median_ms"] < peers[key]["median_ms"]:
            peers[key] = row

thread_counts = sorted({row["threads"] for row in lib})
for threads in thread_counts:
    print(f"\n{threads} thread{'s' if threads > 1 else ''}")
    print(f"{'W':3}  {'libscatter':>12} {'GB/s':>7} {'vs memcpy':>9}   {'best PyTorch peer (threads)':62} {'time':>12} {'GB/s':>7}  {'lib/peer':>8}")
    for mine in (row for row in lib if row["threads"] == threads):
        workload = mine["workload"]
        peer = peers.get((workload, threads))
        latency = "us_per_call" in mine
        def show(row):
            return f"{row['us_per_call']:9.3f} us" if latency else f"{row['median_ms']:9.3f} ms"
        line = f"{workload:3}  {show(mine):>12} {mine['gbps']:7.2f} {mine['ratio_to_memcpy']:9.3f}   "
        if peer:
            line += f"{peer['peer'] + ' (' + str(peer['threads']) + ')':62} {show(peer):>12} {peer['gbps']:7.2f}  "
            line += f"{peer['median_ms'] / mine['median_ms']:8.2f}x"
        print(line)
PY
