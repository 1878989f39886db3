// `scatter bench`: times the standard workloads through the C API and compares each with a copy
// moving the same number of bytes, timed in the same run: a host memcpy on the CPU backend, a
// device buffer copy (scatter_buffer_copy, a vkCmdCopyBuffer) on Vulkan. The gather workloads run
// on both backends (not in batches: a batch records scatters only); message passing (W19) runs on
// the CPU (Vulkan refuses it); the backward workloads (W20) on host tensors only (the Vulkan
// backend has no backward kernels: AUTO runs them on the CPU).
#include "bench_workloads.h"
#include "cli_error.h"
#include "commands.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <thread>

namespace {

// Calls per timed sample for latency workloads, so that one sample is long enough to measure.
constexpr int kLatencyCallsPerSample = 10000;

struct Timing {
    double median_ms = 0, min_ms = 0;  // per call
};

// Calls before the timed samples for at least this long: the first compile pipelines and fault
// pages in, and a GPU idling at a low clock takes a few hundred ms of work to reach its own (on
// an H100 at 345 MHz idle, W2's first process timed 15.1 ms a call and its device copy
// 378 GB/s, the next processes 4.1 ms and 730 GB/s, with one call of warm-up).
constexpr std::chrono::milliseconds kWarmUp(300);

// Warms up (kWarmUp, at least one call), then times `repeat` samples.
Timing time_calls(int repeat, int calls_per_sample, const std::function<void()>& call) {
    const auto warm_until = std::chrono::steady_clock::now() + kWarmUp;
    do call();
    while (std::chrono::steady_clock::now() < warm_until);
    std::vector<double> samples;
    for (int r = 0; r < repeat; ++r) {
        const auto start = std::chrono::steady_clock::now();
        for (int c = 0; c < calls_per_sample; ++c) call();
        const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
        samples.push_back(elapsed.count() / calls_per_sample);
    }
    std::sort(samples.begin(), samples.end());
    const size_t n = samples.size();
    Timing timing;
    timing.median_ms = n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
    timing.min_ms = samples.front();
    return timing;
}

scatter_tensor host_tensor(scatter_dtype dtype, const std::vector<int64_t>& shape, void* bytes) {
    scatter_tensor tensor = SCATTER_TENSOR_INIT;
    tensor.dtype = dtype;
    tensor.rank = static_cast<uint32_t>(shape.size());
    tensor.shape = shape.data();
    tensor.data = bytes;
    return tensor;
}

using OpFunction = scatter_status (*)(scatter_context, const scatter_tensor*, const scatter_tensor*,
                                      const scatter_tensor*, const scatter_options*,
                                      const scatter_tensor*);

OpFunction op_function(ScatterOp op) {
    switch (op) {
    case ScatterOp::elements: return &scatter_elements;
    case ScatterOp::rows: return &scatter_rows;
    case ScatterOp::nd: return &scatter_nd;
    }
    return nullptr;
}

using BackwardFunction = scatter_status (*)(scatter_context, const scatter_tensor*, const scatter_tensor*,
                                            const scatter_tensor*, const scatter_tensor*, const scatter_tensor*,
                                            const scatter_options*, const scatter_tensor*, const scatter_tensor*);

BackwardFunction backward_function(ScatterOp op) {
    switch (op) {
    case ScatterOp::elements: return &scatter_elements_backward;
    case ScatterOp::rows: return &scatter_rows_backward;
    case ScatterOp::nd: return &scatter_nd_backward;
    }
    return nullptr;
}

using GatherFunction = scatter_status (*)(scatter_context, const scatter_tensor*, const scatter_tensor*,
                                          const scatter_gather_options*, const scatter_tensor*);

GatherFunction gather_function(ScatterOp op) {
    switch (op) {
    case ScatterOp::elements: return &scatter_gather_elements;
    case ScatterOp::rows: return &scatter_gather_rows;
    case ScatterOp::nd: return &scatter_gather_nd;
    }
    return nullptr;
}

uint64_t element_count(const std::vector<int64_t>& shape) {
    uint64_t count = 1;
    for (int64_t extent : shape) count *= static_cast<uint64_t>(extent);
    return count;
}

struct Result {
    const Workload* workload;
    Timing scatter, copy;
    // scatter: data read + out written + indices read + updates read; gather: the gathered
    // elements read + out written (each out's size) + indices read; backward: data, out and
    // grad_out read, grad_data written (each data's size) + indices + updates read and
    // grad_updates written (each updates' size)
    uint64_t bytes;
    size_t misalign = 0;  // host tensors' start past a 64-byte boundary
    bool device_copy = false;  // copy timed on the device (Vulkan), else a host memcpy
    bool profiled = false;
    scatter_profile profile{};
    double record_us_per_call = 0;  // --batch: recording alone, per call (median sample)
};

// A context buffer holding `bytes`, destroyed with the holder.
struct ResidentBuffer {
    scatter_buffer buffer = nullptr;
    ResidentBuffer(scatter_context context, const HostBytes& bytes) {
        check_status(scatter_buffer_create(context, bytes.size(), &buffer));
        check_status(scatter_buffer_write(buffer, 0, bytes.data(), bytes.size()));
    }
    ~ResidentBuffer() { scatter_buffer_destroy(buffer); }
    ResidentBuffer(const ResidentBuffer&) = delete;
    ResidentBuffer& operator=(const ResidentBuffer&) = delete;
};

void place_in(scatter_tensor* tensor, const ResidentBuffer& resident) {
    tensor->data = nullptr;
    tensor->buffer = resident.buffer;
    tensor->byte_offset = 0;
}

Result bench_workload(scatter_context context, const Workload& workload, const BenchOptions& options,
                      bool device_copy) {
    const int repeat = options.repeat, batch = options.batch;
    const bool resident = options.resident, profile = options.profile;
    WorkloadInputs inputs = generate_inputs(workload, options.misalign);
    const uint64_t element_size = inputs.data.size() / std::max<uint64_t>(1, element_count(workload.data_shape));
    HostBytes out(element_count(workload.out_shape) * element_size, options.misalign);
    std::memset(out.data(), 0, out.size());
    scatter_tensor data = host_tensor(workload.dtype, workload.data_shape, inputs.data.data());
    scatter_tensor indices = host_tensor(SCATTER_DTYPE_I64, workload.indices_shape, inputs.indices.data());
    scatter_tensor updates = host_tensor(workload.dtype, workload.updates_shape, inputs.updates.data());
    scatter_tensor out_tensor = host_tensor(workload.dtype, workload.out_shape, out.data());
    scatter_tensor x = host_tensor(workload.dtype, workload.x_shape, inputs.updates.data());
    scatter_tensor dst = host_tensor(SCATTER_DTYPE_I64, workload.indices_shape, inputs.dst.data());
    std::unique_ptr<ResidentBuffer> buffers[6];
    if (workload.backward && (resident || batch > 0))
        throw CliError(SCATTER_ERROR_UNSUPPORTED, workload.id + " is a backward call, which runs on host tensors only");
    if (resident && workload.message_passing) {
        buffers[4] = std::make_unique<ResidentBuffer>(context, inputs.updates);
        buffers[5] = std::make_unique<ResidentBuffer>(context, inputs.dst);
        place_in(&x, *buffers[4]);
        place_in(&dst, *buffers[5]);
    }
    if (resident) {
        buffers[0] = std::make_unique<ResidentBuffer>(context, inputs.data);
        buffers[1] = std::make_unique<ResidentBuffer>(context, inputs.indices);
        buffers[3] = std::make_unique<ResidentBuffer>(context, out);
        place_in(&data, *buffers[0]);
        place_in(&indices, *buffers[1]);
        place_in(&out_tensor, *buffers[3]);
        if (!workload.gather && !workload.message_passing) {
            buffers[2] = std::make_unique<ResidentBuffer>(context, inputs.updates);
            place_in(&updates, *buffers[2]);
        }
    }
    scatter_options scatter_op_options = SCATTER_OPTIONS_INIT;
    scatter_op_options.axis = workload.op == ScatterOp::nd ? 0 : workload.axis;
    scatter_op_options.reduction = workload.reduction;
    scatter_gather_options gather_options = SCATTER_GATHER_OPTIONS_INIT;
    gather_options.axis = scatter_op_options.axis;
    const OpFunction scatter_function = op_function(workload.op);
    const GatherFunction gather = gather_function(workload.op);
    scatter_message_passing_options message_options = SCATTER_MESSAGE_PASSING_OPTIONS_INIT;
    message_options.reduction = workload.reduction;
    // Backward: the forward's result once, then grad_data and grad_updates from grad_out.
    HostBytes grad_data, grad_updates;
    scatter_tensor grad_out = host_tensor(workload.dtype, workload.data_shape, inputs.grad_out.data());
    scatter_tensor grad_data_tensor = out_tensor, grad_updates_tensor = updates;
    if (workload.backward) {
        check_status(scatter_function(context, &data, &indices, &updates, &scatter_op_options, &out_tensor));
        grad_data = HostBytes(inputs.data.size(), options.misalign);
        grad_updates = HostBytes(inputs.updates.size(), options.misalign);
        grad_data_tensor.data = grad_data.data();
        grad_updates_tensor.data = grad_updates.data();
    }
    const BackwardFunction backward = backward_function(workload.op);
    // One call of the workload: its scatter, its gather, its message passing or its backward.
    const std::function<scatter_status()> op = [&] {
        if (workload.message_passing)
            return scatter_message_passing(context, &data, &x, &indices, &dst, nullptr, &message_options, &out_tensor);
        if (workload.backward)
            return backward(context, &data, &indices, &updates, &out_tensor, &grad_out, &scatter_op_options,
                            &grad_data_tensor, &grad_updates_tensor);
        return workload.gather ? gather(context, &data, &indices, &gather_options, &out_tensor)
                               : scatter_function(context, &data, &indices, &updates, &scatter_op_options, &out_tensor);
    };

    Result result;
    result.workload = &workload;
    result.misalign = options.misalign;
    // message passing: data read + out written + src and dst read + one row of x read per edge
    const uint64_t row_bytes = workload.message_passing ? inputs.updates.size() / std::max<uint64_t>(1, workload.x_shape[0]) : 0;
    result.bytes = workload.gather            ? 2 * out.size() + inputs.indices.size()
                   : workload.message_passing ? 2 * inputs.data.size() + 2 * inputs.indices.size() +
                                                    element_count(workload.indices_shape) * row_bytes
                   : workload.backward        ? 4 * inputs.data.size() + inputs.indices.size() + 2 * inputs.updates.size()
                                              : 2 * inputs.data.size() + inputs.indices.size() + inputs.updates.size();
    const int calls = workload.latency ? kLatencyCallsPerSample : 1;
    if (batch > 0) {
        if (workload.gather || workload.message_passing)
            throw CliError(SCATTER_ERROR_UNSUPPORTED,
                           workload.id + " is not a scatter, the only operation a batch records");
        // One sample: `batch` calls recorded into one batch, one submission, one wait.
        const scatter_op batch_op = workload.op == ScatterOp::elements ? SCATTER_OP_ELEMENTS
                                    : workload.op == ScatterOp::rows   ? SCATTER_OP_ROWS
                                                                       : SCATTER_OP_ND;
        std::vector<double> record_ms;
        Timing whole = time_calls(repeat, 1, [&] {
            scatter_batch b = nullptr;
            check_status(scatter_batch_create(context, &b));
            const auto start = std::chrono::steady_clock::now();
            for (int i = 0; i < batch; ++i)
                check_status(scatter_batch_record(b, batch_op, &data, &indices, &updates, &scatter_op_options,
                                                  &out_tensor));
            record_ms.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
            check_status(scatter_batch_submit(b));
            check_status(scatter_batch_wait(b));
            scatter_batch_destroy(b);
        });
        result.scatter.median_ms = whole.median_ms / batch;
        result.scatter.min_ms = whole.min_ms / batch;
        std::sort(record_ms.begin(), record_ms.end());
        result.record_us_per_call = record_ms[record_ms.size() / 2] * 1000 / batch;
    } else {
        result.scatter = time_calls(repeat, calls, [&] { check_status(op()); });
    }
    if (profile) {
        check_status(op());
        result.profile.struct_size = sizeof result.profile;
        check_status(scatter_last_profile(context, &result.profile));
        result.profiled = true;
    }
    for (auto& b : buffers) b.reset();
    grad_data = HostBytes();
    grad_updates = HostBytes();

    // The same traffic as a copy: half the bytes read, half written.
    inputs = WorkloadInputs();
    out = HostBytes();
    HostBytes source(result.bytes / 2, options.misalign), target(result.bytes / 2, options.misalign);
    std::memset(source.data(), 1, source.size());
    std::memset(target.data(), 0, target.size());
    if (device_copy) {
        ResidentBuffer from(context, source), to(context, target);
        result.device_copy = true;
        result.copy = time_calls(repeat, calls, [&] {
            check_status(scatter_buffer_copy(from.buffer, 0, to.buffer, 0, source.size()));
        });
        return result;
    }
    result.copy = time_calls(repeat, calls, [&] {
        std::memcpy(target.data(), source.data(), source.size());
        asm volatile("" : : "r"(target.data()) : "memory");  // keep the copy
    });
    return result;
}

double gigabytes_per_second(uint64_t bytes, double ms) { return ms > 0 ? bytes / (ms * 1e6) : 0; }

nlohmann::json profile_json(const scatter_profile& p) {
    nlohmann::json passes = nlohmann::json::array();
    for (uint32_t i = 0; i < p.pass_count; ++i)
        passes.push_back({{"name", p.passes[i].name}, {"invocations", p.passes[i].invocations},
                          {"time_us", p.passes[i].time_us}});
    return {{"validate_us", p.validate_us}, {"record_us", p.record_us}, {"submit_us", p.submit_us},
            {"wait_us", p.wait_us},         {"read_back_us", p.read_back_us}, {"total_us", p.total_us},
            {"gpu_us", p.gpu_us},           {"passes", passes},
            {"backend", scatter_backend_name(p.backend)}, {"route", p.route}};
}

void print_profile_table(const scatter_profile& p) {
    std::printf("    stages (us): validate %.1f  record %.1f  submit %.1f  wait %.1f  read back %.1f  total %.1f"
                "  gpu %.1f\n",
                p.validate_us, p.record_us, p.submit_us, p.wait_us, p.read_back_us, p.total_us, p.gpu_us);
    if (p.route[0] != '\0') std::printf("    route: %s\n", p.route);
    for (uint32_t i = 0; i < p.pass_count; ++i)
        std::printf("    %-24s %12llu invocations %10.1f us\n", p.passes[i].name,
                    static_cast<unsigned long long>(p.passes[i].invocations), p.passes[i].time_us);
}

void print_result(const Result& result, const std::string& backend, uint32_t threads, int repeat,
                  bool resident, int batch, bool json) {
    const Workload& w = *result.workload;
    const double gbps = gigabytes_per_second(result.bytes, result.scatter.median_ms);
    const double copy_gbps = gigabytes_per_second(result.bytes, result.copy.median_ms);
    const double ratio = copy_gbps > 0 ? gbps / copy_gbps : 0;
    const char* copy = result.device_copy ? "device" : "memcpy";
    if (json) {
        nlohmann::json row = {{"workload", w.id},           {"description", w.describe()},
                              {"backend", backend},         {"threads", threads},
                              {"repeat", repeat},           {"bytes", result.bytes},
                              {"tensors", resident ? "resident" : "host"},
                              {"misalign", result.misalign},
                              {"median_ms", result.scatter.median_ms},
                              {"min_ms", result.scatter.min_ms},
                              {"gbps", gbps},               {"copy", copy},
                              {"copy_gbps", copy_gbps},     {"ratio_to_copy", ratio}};
        if (batch > 0) {
            row["batch"] = batch;
            row["record_us_per_call"] = result.record_us_per_call;
        }
        if (!result.device_copy) {  // the names of earlier versions, kept for scripts
            row["memcpy_gbps"] = copy_gbps;
            row["ratio_to_memcpy"] = ratio;
        }
        if (w.latency) {
            row["us_per_call"] = result.scatter.median_ms * 1000;
            row["min_us_per_call"] = result.scatter.min_ms * 1000;
        }
        if (result.profiled) row["profile"] = profile_json(result.profile);
        std::printf("%s\n", row.dump().c_str());
    } else {
        const bool us = w.latency;
        std::printf("%-3s %-66s %9.3f %s (min %.3f)  %7.2f GB/s  %s %7.2f GB/s  ratio %.3f\n", w.id.c_str(),
                    w.describe().c_str(), result.scatter.median_ms * (us ? 1000 : 1), us ? "us/call" : "ms",
                    result.scatter.min_ms * (us ? 1000 : 1), gbps, copy, copy_gbps, ratio);
        if (result.profiled) print_profile_table(result.profile);
    }
    std::fflush(stdout);
}

std::vector<const Workload*> selected_workloads(const std::vector<std::string>& ids) {
    std::vector<const Workload*> selected;
    const bool all = ids.empty() || std::find(ids.begin(), ids.end(), "all") != ids.end();
    for (const Workload& workload : standard_workloads()) {
        if ((all && !workload.large) || std::find(ids.begin(), ids.end(), workload.id) != ids.end())
            selected.push_back(&workload);
    }
    return selected;
}

}  // namespace

int bench_command(const BenchOptions& options) {
    if (options.batch > 0 && !(options.resident && options.context.backend == SCATTER_BACKEND_VULKAN))
        throw CliError(SCATTER_ERROR_INVALID_ARGUMENT, "--batch needs --backend vulkan and --resident");
    ContextSettings settings = options.context;
    if (options.profile) settings.flags |= SCATTER_CONTEXT_FLAG_PROFILE;
    ContextHandle context = make_context(settings);
    scatter_backend backend = SCATTER_BACKEND_CPU;
    check_status(scatter_context_backend(context.get(), &backend));
    const uint32_t threads = options.context.threads != 0 ? options.context.threads
                                                          : std::max(1u, std::thread::hardware_concurrency());
    for (const Workload* workload : selected_workloads(options.workloads)) {
        const bool named = std::find(options.workloads.begin(), options.workloads.end(), workload->id) !=
                           options.workloads.end();
        if (workload->message_passing && backend == SCATTER_BACKEND_VULKAN && !named) {
            // Part of "all" only where it can run; named, it fails with the library's UNSUPPORTED.
            std::fprintf(stderr, "%s skipped: the Vulkan backend does not run message passing yet\n",
                         workload->id.c_str());
            continue;
        }
        if (workload->backward && backend == SCATTER_BACKEND_VULKAN && options.context.backend != SCATTER_BACKEND_AUTO) {
            if (named)
                throw CliError(SCATTER_ERROR_UNSUPPORTED,
                               workload->id + " is a backward call; the Vulkan backend has no backward kernels");
            std::fprintf(stderr, "%s skipped: the Vulkan backend has no backward kernels\n", workload->id.c_str());
            continue;
        }
        const Result result = bench_workload(context.get(), *workload, options, backend == SCATTER_BACKEND_VULKAN);
        const char* name = options.context.backend == SCATTER_BACKEND_AUTO ? "auto" : scatter_backend_name(backend);
        print_result(result, name, threads, options.repeat, options.resident, options.batch, options.json);
    }
    return 0;
}
