// Micro-benchmarks of the CPU kernel families (docs/cpu.md), each through the public C API with
// shapes that select one family: elements along an outer axis (column units), along the last axis
// (per-fiber copies), rows/nd on the plain and the blocked path, the data->out copy alone, and a
// tiny call's latency. Bytes per iteration count data read + out written + indices + updates, as
// `scatter bench` does; items are updates. The argument is the context's thread count.
#include <scatter/scatter.h>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

namespace {

struct ContextCloser {
    void operator()(scatter_context context) const { scatter_context_destroy(context); }
};
using Context = std::unique_ptr<scatter_context_t, ContextCloser>;

Context cpu_context(uint32_t threads) {
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = SCATTER_BACKEND_CPU;
    desc.thread_count = threads;
    scatter_context context = nullptr;
    if (scatter_context_create(&desc, &context) != SCATTER_OK) return nullptr;
    return Context(context);
}

int64_t count_of(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t extent : shape) n *= extent;
    return n;
}

// One operation's host tensors (f32 data and updates, int64 indices uniform over `extents`,
// cycled over the index positions) and the call that runs it.
class Operation {
public:
    Operation(scatter_status (*op)(scatter_context, const scatter_tensor*, const scatter_tensor*,
                                   const scatter_tensor*, const scatter_options*, const scatter_tensor*),
              std::vector<int64_t> data_shape, std::vector<int64_t> index_shape, std::vector<int64_t> update_shape,
              std::vector<int64_t> extents, scatter_reduction reduction, int32_t axis = 0)
        : op_(op), data_shape_(std::move(data_shape)), index_shape_(std::move(index_shape)),
          update_shape_(std::move(update_shape)), data_(size_t(count_of(data_shape_))), out_(data_.size()),
          indices_(size_t(count_of(index_shape_))), updates_(size_t(count_of(update_shape_))) {
        std::mt19937_64 random(0);
        for (float& v : data_) v = float(random() % 1000) / 1000.0f;
        for (float& v : updates_) v = float(random() % 1000) / 1000.0f;
        for (size_t i = 0; i < indices_.size(); ++i) indices_[i] = int64_t(random() % uint64_t(extents[i % extents.size()]));
        options_.reduction = reduction;
        options_.axis = axis;
    }

    bool run(scatter_context context) {
        const scatter_tensor data = tensor(SCATTER_DTYPE_F32, data_shape_, data_.data());
        const scatter_tensor indices = tensor(SCATTER_DTYPE_I64, index_shape_, indices_.data());
        const scatter_tensor updates = tensor(SCATTER_DTYPE_F32, update_shape_, updates_.data());
        const scatter_tensor out = tensor(SCATTER_DTYPE_F32, data_shape_, out_.data());
        return op_(context, &data, &indices, &updates, &options_, &out) == SCATTER_OK;
    }

    int64_t bytes() const {
        return int64_t(2 * data_.size() * sizeof(float) + indices_.size() * sizeof(int64_t) +
                       updates_.size() * sizeof(float));
    }
    int64_t updates() const { return int64_t(updates_.size()); }

private:
    static scatter_tensor tensor(scatter_dtype dtype, const std::vector<int64_t>& shape, void* bytes) {
        scatter_tensor t = SCATTER_TENSOR_INIT;
        t.dtype = dtype;
        t.rank = uint32_t(shape.size());
        t.shape = shape.data();
        t.data = bytes;
        return t;
    }

    decltype(&scatter_elements) op_;
    std::vector<int64_t> data_shape_, index_shape_, update_shape_;
    std::vector<float> data_, out_;
    std::vector<int64_t> indices_;
    std::vector<float> updates_;
    scatter_options options_ = SCATTER_OPTIONS_INIT;
};

void run_benchmark(benchmark::State& state, Operation& operation) {
    Context context = cpu_context(uint32_t(state.range(0)));
    if (!context || !operation.run(context.get())) {
        state.SkipWithError("the operation failed");
        return;
    }
    for (auto _ : state) benchmark::DoNotOptimize(operation.run(context.get()));
    state.SetBytesProcessed(state.iterations() * operation.bytes());
    state.SetItemsProcessed(state.iterations() * operation.updates());
}

// elements along axis 0 of [2048, 2048]: units of columns, random rows (W1's family), assigned
// (stores only) and added (a random read-modify-write each: W8's family).
void ElementsOuterAxis(benchmark::State& state) {
    static Operation operation(scatter_elements, {2048, 2048}, {2048, 2048}, {2048, 2048}, {2048}, SCATTER_REDUCTION_NONE);
    run_benchmark(state, operation);
}

void ElementsOuterAxisAdd(benchmark::State& state) {
    static Operation operation(scatter_elements, {2048, 2048}, {2048, 2048}, {2048, 2048}, {2048}, SCATTER_REDUCTION_ADD);
    run_benchmark(state, operation);
}

// elements along the last axis: each row copied, then scattered into from cache (W2's family).
void ElementsLastAxis(benchmark::State& state) {
    static Operation operation(scatter_elements, {2048, 2048}, {2048, 2048}, {2048, 2048}, {2048}, SCATTER_REDUCTION_ADD, 1);
    run_benchmark(state, operation);
}

// elements of a 1-D tensor: one unit, so one task at any thread count (W9's family; 4 Mi and
// 64 Ki updates).
void Elements1D(benchmark::State& state) {
    static Operation operation(scatter_elements, {1 << 22}, {1 << 22}, {1 << 22}, {1 << 22}, SCATTER_REDUCTION_ADD);
    run_benchmark(state, operation);
}

void Elements1DSmall(benchmark::State& state) {
    static Operation operation(scatter_elements, {65536}, {65536}, {65536}, {65536}, SCATTER_REDUCTION_ADD);
    run_benchmark(state, operation);
}

// rows with an out that the caches hold: the plain path (W12's family).
void RowsPlain(benchmark::State& state) {
    static Operation operation(scatter_rows, {4096, 64}, {262144}, {262144, 64}, {4096}, SCATTER_REDUCTION_ADD);
    run_benchmark(state, operation);
}

// rows into 32 MiB of out: the blocked path (W4's family).
void RowsBlocked(benchmark::State& state) {
    static Operation operation(scatter_rows, {131072, 64}, {131072}, {131072, 64}, {131072}, SCATTER_REDUCTION_ADD);
    run_benchmark(state, operation);
}

// nd with k = 2 into 16 MiB of out: the blocked path with 64-byte rows (W6's family).
void NdBlocked(benchmark::State& state) {
    static Operation operation(scatter_nd, {512, 512, 16}, {131072, 2}, {131072, 16}, {512, 512}, SCATTER_REDUCTION_ADD);
    run_benchmark(state, operation);
}

// Slices of one element: nd with k = rank into 9 MiB of out (the scalar loop), and 1-D rows
// (torch's index_add_ on a vector, run by the 1-D elements kernel).
void NdScalarSlices(benchmark::State& state) {
    static Operation operation(scatter_nd, {1536, 1536}, {1000000, 2}, {1000000}, {1536}, SCATTER_REDUCTION_ADD);
    run_benchmark(state, operation);
}

void Rows1D(benchmark::State& state) {
    static Operation operation(scatter_rows, {1 << 22}, {1 << 22}, {1 << 22}, {1 << 22}, SCATTER_REDUCTION_ADD);
    run_benchmark(state, operation);
}

// No updates: the data -> out copy alone (copy_tensor).
void CopyOnly(benchmark::State& state) {
    static Operation operation(scatter_elements, {2048, 2048}, {0, 2048}, {0, 2048}, {2048}, SCATTER_REDUCTION_NONE);
    run_benchmark(state, operation);
}

// A tiny call: validation, planning and dispatch (W7's family).
void TinyCall(benchmark::State& state) {
    static Operation operation(scatter_elements, {8, 8}, {2, 8}, {2, 8}, {8}, SCATTER_REDUCTION_NONE);
    run_benchmark(state, operation);
}

BENCHMARK(ElementsOuterAxis)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(ElementsOuterAxisAdd)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(ElementsLastAxis)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(Elements1D)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(Elements1DSmall)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();
BENCHMARK(RowsPlain)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(RowsBlocked)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(NdBlocked)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(NdScalarSlices)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(Rows1D)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(CopyOnly)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(TinyCall)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
