#!/usr/bin/python3
"""Times PyTorch (CPU, or CUDA with --device cuda) on the standard workloads of benchmarks/workloads.json, using for each the
torch operator that is the best PyTorch peer for it (chosen in peer_calls below), at 1 and 2 threads,
twice: out of place (a fresh output each call) and in place into a warm output refilled from data
(the work `scatter bench` times). One row each; benchmarks/compare.sh takes the faster.

Effective GB/s counts the same bytes as `scatter bench`: data read + output written + indices read
+ updates read; for a gather (W17, W18), the gathered elements read + output written + indices
read; for message passing (W19), data read + output written + src and dst read + one row of x read
per edge; for a backward (W20), data, out and grad_out read and grad_data written + indices and
updates read and grad_updates written. W7 (latency) is reported as microseconds per call.

usage: peers_torch.py [--workload W1,W2|all] [--threads 1,2] [--repeat K] [--device cpu|cuda] [--json]

With --device cuda the tensors live on the GPU and every sample ends with torch.cuda.synchronize()
(the same as `scatter bench --backend vulkan --resident`); --threads then does not matter.
"""
import argparse
import itertools
import json
import os
import statistics
import sys
import time
import warnings

import torch

warnings.filterwarnings("ignore", message="index_reduce.*beta")
warnings.filterwarnings("ignore", message="scatter_reduce.*beta")

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "workloads.json")
DTYPES = {"f32": torch.float32, "f64": torch.float64, "i32": torch.int32, "i64": torch.int64}
LATENCY_CALLS_PER_SAMPLE = 10000


def random_tensor(generator, dtype, shape, low, high):
    if dtype.is_floating_point:
        return torch.rand(shape, generator=generator, dtype=torch.float64).mul_(high - low).add_(low).to(dtype)
    return torch.randint(int(low), int(high) + 1, shape, generator=generator, dtype=dtype)


def index_form(workload):
    """elements, rows or nd: the index layout of a scatter op or of the gather of that form."""
    return workload["op"].removeprefix("gather_")


def shape_indices(workload, indices, generator):
    """The workload's index distribution (as tools/bench_workloads.cpp): targets_per_row draws each
    fiber's indices from that many targets; indices_broadcast gives every fiber the first one's
    (an index vector expanded over the other dims); indices_sorted sorts them along the axis
    (rows: all of them; nd: the index tuples, lexicographically)."""
    shape = workload["data"]
    if workload.get("targets_per_row"):
        axis = workload["axis"] % len(shape)
        choice_shape = list(indices.shape)
        choice_shape[axis] = workload["targets_per_row"]
        targets = torch.randint(0, shape[axis], choice_shape, generator=generator)
        pick = torch.randint(0, workload["targets_per_row"], indices.shape, generator=generator)
        indices = torch.gather(targets, axis, pick)
    if workload.get("indices_broadcast"):
        axis = workload["axis"] % len(shape)
        first = indices
        for d in range(indices.dim()):
            if d != axis:
                first = first.narrow(d, 0, 1)
        indices = first.expand(indices.shape).contiguous()
    if not workload.get("indices_sorted"):
        return indices
    if index_form(workload) == "elements":
        return torch.sort(indices, dim=workload["axis"]).values
    if index_form(workload) == "rows":
        return indices.flatten().sort().values.reshape(indices.shape)
    depth = indices.shape[-1]
    keys = torch.zeros(indices.shape[:-1], dtype=torch.int64)
    for j in range(depth):
        keys = keys * shape[j] + indices[..., j]
    keys = keys.sort().values
    columns = []
    for j in reversed(range(depth)):
        columns.append(keys % shape[j])
        keys = keys // shape[j]
    return torch.stack(columns[::-1], dim=-1)


def make_inputs(workload):
    """Seed 0; indices uniform over the target axis (for nd: over each indexed dimension), unless
    the workload asks for another distribution (shape_indices). A gather has no updates (None).
    Message passing: indices are (src, dst), uniform over x's and data's rows, and updates is x."""
    generator = torch.Generator().manual_seed(0)
    dtype = DTYPES[workload["dtype"]]
    integer = not dtype.is_floating_point
    data = random_tensor(generator, dtype, workload["data"], -1e6 if integer else 0, 1e6 if integer else 1)
    if workload["op"] == "message_passing":
        edges = workload["indices"]
        src = torch.randint(0, workload["x"][0], edges, generator=generator)
        dst = torch.randint(0, workload["data"][0], edges, generator=generator)
        x = random_tensor(generator, dtype, workload["x"], -1e6 if integer else 0, 1e6 if integer else 1)
        return data, (src, dst), x
    shape = workload["data"]
    if index_form(workload) == "nd":
        depth = workload["indices"][-1]
        columns = [torch.randint(0, shape[j], workload["indices"][:-1], generator=generator)
                   for j in range(depth)]
        indices = torch.stack(columns, dim=-1)
    else:
        extent = shape[workload["axis"]]
        indices = torch.randint(0, extent, workload["indices"], generator=generator)
    indices = shape_indices(workload, indices, generator)
    if workload["op"].startswith("gather_"):
        return data, indices, None
    low, high = workload.get("updates_range", (-1e6, 1e6) if integer else (0, 1))
    updates = random_tensor(generator, dtype, workload["updates"], low, high)
    if workload.get("ties"):  # values 0 .. ties-1 only: many equal values (max/min ties)
        data = data.mul(workload["ties"]).floor()
        updates = updates.mul(workload["ties"]).floor()
    return data, indices, updates


def backward_peer_calls(workload, data, indices, updates):
    """PyTorch's autograd backward through the forward (elements: scatter_reduce with
    include_self=True), the forward run once outside the timing with retain_graph, each call
    one out.backward(grad_out) into fresh .grad tensors."""
    if workload["op"] != "elements":
        raise SystemExit(f"{workload['id']}: no PyTorch peer for the backward of {workload['op']}")
    name = {"add": "sum", "mul": "prod", "max": "amax", "min": "amin", "mean": "mean"}[workload["reduction"]]
    axis = workload["axis"]
    generator = torch.Generator().manual_seed(1)
    grad_out = torch.rand(data.shape, generator=generator, dtype=data.dtype).to(data.device)
    leaf_data = data.clone().requires_grad_(True)
    leaf_updates = updates.clone().requires_grad_(True)
    out = leaf_data.scatter_reduce(axis, indices, leaf_updates, name, include_self=True)

    def backward():
        leaf_data.grad = leaf_updates.grad = None
        out.backward(grad_out, retain_graph=True)

    return [(f"autograd backward of scatter_reduce({name}, include_self=True)", backward)]


def gather_peer_calls(workload, data, indices):
    """PyTorch's operators for a gather, each out of place and into an output allocated once
    (`out=`: a gather overwrites all of it, so nothing is refilled)."""
    op, axis = workload["op"], workload["axis"]
    if op == "gather_elements":
        out = torch.empty(indices.shape, dtype=data.dtype, device=data.device)
        return [("torch.gather", lambda: torch.gather(data, axis, indices)),
                ("torch.gather(out=)", lambda: torch.gather(data, axis, indices, out=out)),
                ("torch.take_along_dim", lambda: torch.take_along_dim(data, indices, axis))]
    if op == "gather_rows" and indices.dim() == 1:
        shape = list(data.shape)
        shape[axis] = indices.numel()
        out = torch.empty(shape, dtype=data.dtype, device=data.device)
        calls = [("torch.index_select", lambda: torch.index_select(data, axis, indices)),
                 ("torch.index_select(out=)", lambda: torch.index_select(data, axis, indices, out=out))]
        if axis == 0:
            calls += [("data[indices]", lambda: data[indices]),
                      ("torch.nn.functional.embedding",
                       lambda: torch.nn.functional.embedding(indices, data))]
        return calls
    raise SystemExit(f"{workload['id']}: no PyTorch peer for {op}")


def message_passing_peer_calls(workload, data, edges, x):
    """PyTorch's aggregation of x[src] into rows dst: the E x F messages first (x[src]), then
    index_add_ (the peer the issue names) or index_put_(accumulate=True), each into a fresh output
    and into a warm one refilled from data."""
    if workload["reduction"] != "add":
        raise SystemExit(f"{workload['id']}: no PyTorch peer for message passing with {workload['reduction']}")
    src, dst = edges
    out = data.clone()

    def warm_index_add():
        out.copy_(data)
        out.index_add_(0, dst, x[src])

    def warm_index_put():
        out.copy_(data)
        out.index_put_((dst,), x[src], accumulate=True)

    return [("Tensor.index_add(0, dst, x[src])", lambda: data.index_add(0, dst, x[src])),
            ("Tensor.index_add_(0, dst, x[src]) into a warm out", warm_index_add),
            ("Tensor.index_put_((dst,), x[src], accumulate=True) into a warm out", warm_index_put)]


def moved_bytes(workload, data, indices, updates):
    """The bytes `scatter bench` counts for the workload."""
    if workload["op"] == "message_passing":
        src, dst = indices
        row_bytes = tensor_bytes(updates) // updates.shape[0]
        return 2 * tensor_bytes(data) + tensor_bytes(src) + tensor_bytes(dst) + src.numel() * row_bytes
    if workload.get("backward"):
        return 4 * tensor_bytes(data) + tensor_bytes(indices) + 2 * tensor_bytes(updates)
    if updates is not None:
        return 2 * tensor_bytes(data) + tensor_bytes(indices) + tensor_bytes(updates)
    axis = workload["axis"] % data.dim()
    if workload["op"] == "gather_elements":
        out_elements = indices.numel()
    elif workload["op"] == "gather_rows":
        out_elements = data.numel() // data.shape[axis] * indices.numel()
    else:
        depth = indices.shape[-1]
        out_elements = indices.numel() // depth * (data[(0,) * depth].numel())
    return 2 * out_elements * data.element_size() + tensor_bytes(indices)


def peer_calls(workload, data, indices, updates):
    """The best PyTorch operator for the workload, as a list of (name, callable): out of place (a
    fresh output per call, whose first touch costs page faults), and in place into an output
    allocated once and refilled from data each call (`out.copy_(data)`, then the in-place
    operator: the work `scatter bench` times, into a warm output). Gathers: gather_peer_calls."""
    if updates is None:
        return gather_peer_calls(workload, data, indices)
    if workload["op"] == "message_passing":
        return message_passing_peer_calls(workload, data, indices, updates)
    if workload.get("backward"):
        return backward_peer_calls(workload, data, indices, updates)
    op, reduction, axis = workload["op"], workload["reduction"], workload["axis"]
    out = data.clone()
    if op == "elements" and reduction == "none":
        fresh = "torch.scatter", lambda: torch.scatter(data, axis, indices, updates)
        warm = "Tensor.scatter_", lambda: out.scatter_(axis, indices, updates)
    elif op == "elements":
        name = {"add": "sum", "mul": "prod", "max": "amax", "min": "amin", "mean": "mean"}[reduction]
        fresh = (f"torch.scatter_reduce({name})",
                 lambda: torch.scatter_reduce(data, axis, indices, updates, name))
        warm = f"Tensor.scatter_reduce_({name})", lambda: out.scatter_reduce_(axis, indices, updates, name)
    elif op == "rows" and reduction == "add" and axis == 0:
        fresh = ("Tensor.index_put(accumulate=True)",
                 lambda: data.index_put((indices,), updates, accumulate=True))
        warm = "Tensor.index_put_(accumulate=True)", lambda: out.index_put_((indices,), updates, accumulate=True)
    elif op == "rows" and reduction == "div":
        # No native division scatter in torch: multiply by reciprocals.
        fresh = ("Tensor.index_reduce(prod) of reciprocals",
                 lambda: data.index_reduce(axis, indices, updates.reciprocal(), "prod"))
        warm = ("Tensor.index_reduce_(prod) of reciprocals",
                lambda: out.index_reduce_(axis, indices, updates.reciprocal(), "prod"))
    elif op == "rows" and reduction == "add":
        fresh = "Tensor.index_add", lambda: data.index_add(axis, indices, updates)
        warm = "Tensor.index_add_", lambda: out.index_add_(axis, indices, updates)
    elif op == "rows" and reduction in ("mul", "max", "min", "mean"):
        name = {"mul": "prod", "max": "amax", "min": "amin", "mean": "mean"}[reduction]
        fresh = f"Tensor.index_reduce({name})", lambda: data.index_reduce(axis, indices, updates, name)
        warm = f"Tensor.index_reduce_({name})", lambda: out.index_reduce_(axis, indices, updates, name)
    elif op == "nd" and reduction in ("add", "none"):
        columns = tuple(indices[..., j].contiguous() for j in range(indices.shape[-1]))
        accumulate = reduction == "add"
        fresh = (f"Tensor.index_put(accumulate={accumulate})",
                 lambda: data.index_put(columns, updates, accumulate=accumulate))
        warm = (f"Tensor.index_put_(accumulate={accumulate})",
                lambda: out.index_put_(columns, updates, accumulate=accumulate))
    else:
        raise SystemExit(f"{workload['id']}: no PyTorch peer for {op}/{reduction}")
    warm_name, warm_call = warm

    def refill_then_call():
        out.copy_(data)
        warm_call()

    return [fresh, (warm_name + " into a warm out", refill_then_call)]


def time_call(call, repeat, calls_per_sample, sync):
    call()  # warm-up
    sync()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(calls_per_sample):
            call()
        sync()
        samples.append((time.perf_counter() - start) * 1e3 / calls_per_sample)
    return statistics.median(samples), min(samples)


def tensor_bytes(tensor):
    return tensor.numel() * tensor.element_size()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workload", default="all")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sync = torch.cuda.synchronize if args.device == "cuda" else (lambda: None)
    thread_counts = [int(t) for t in args.threads.split(",")] if args.device == "cpu" else [0]

    with open(TABLE) as f:
        workloads = json.load(f)
    wanted = args.workload.split(",")
    # "all" leaves out the large workloads (W15: 12 GB of tensors): they run only when named.
    selected = [w for w in workloads if ("all" in wanted and not w.get("large")) or w["id"] in wanted]
    if not selected:
        parser.error(f"no workload matches {args.workload}")

    for workload in selected:
        data, indices, updates = (None if t is None else tuple(i.to(args.device) for i in t) if isinstance(t, tuple)
                                  else t.to(args.device) for t in make_inputs(workload))
        moved = moved_bytes(workload, data, indices, updates)
        calls = LATENCY_CALLS_PER_SAMPLE if workload.get("latency") else 1
        for threads, (name, call) in itertools.product(thread_counts, peer_calls(workload, data, indices, updates)):
            if threads:
                torch.set_num_threads(threads)
            median_ms, min_ms = time_call(call, args.repeat, calls, sync)
            row = {"workload": workload["id"], "peer": name, "torch": torch.__version__,
                   "threads": threads, "device": args.device, "repeat": args.repeat, "bytes": moved,
                   "median_ms": median_ms, "min_ms": min_ms, "gbps": moved / (median_ms * 1e6)}
            if workload.get("latency"):
                row["us_per_call"] = median_ms * 1e3
            if args.json:
                print(json.dumps(row), flush=True)
            elif workload.get("latency"):
                print(f"{workload['id']:3} {name:58} {threads} thr  {median_ms * 1e3:9.3f} us/call "
                      f"(min {min_ms * 1e3:.3f})", flush=True)
            else:
                print(f"{workload['id']:3} {name:58} {threads} thr  {median_ms:9.3f} ms (min {min_ms:.3f})  "
                      f"{row['gbps']:6.2f} GB/s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
