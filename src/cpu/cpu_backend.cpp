#include "cpu/cpu_backend.h"

#include "core/profile.h"

#include "core/backward_plan.h"

#include "core/index_check.h"
#include "core/message_plan.h"
#include "core/op_plan.h"
#include "cpu/copy_tensor.h"
#include "cpu/gather.h"
#include "cpu/message_passing.h"
#include "cpu/scatter_backward.h"
#include "cpu/scatter_elements.h"
#include "cpu/scatter_slices.h"

#include <cinttypes>
#include <cstring>

namespace scatter {
namespace {

// Host memory from the context's allocator.
class HostBuffer final : public Buffer {
public:
    HostBuffer(const HostAllocator& allocator, char* bytes, uint64_t size)
        : allocator_(allocator), bytes_(bytes), size_(size) {}
    ~HostBuffer() override { allocator_.release(bytes_); }
    uint64_t size() const override { return size_; }
    char* host_data() override { return bytes_; }
    Status write(uint64_t offset, const void* src, uint64_t size) override {
        std::memcpy(bytes_ + offset, src, size_t(size));
        return Status();
    }
    Status read(uint64_t offset, void* dst, uint64_t size) override {
        std::memcpy(dst, bytes_ + offset, size_t(size));
        return Status();
    }
    Status copy_from(Buffer& src, uint64_t src_offset, uint64_t dst_offset, uint64_t size) override {
        std::memcpy(bytes_ + dst_offset, src.host_data() + src_offset, size_t(size));
        return Status();
    }

private:
    HostAllocator allocator_;
    char* bytes_;
    uint64_t size_;
};

class CpuBackend final : public Backend {
public:
    explicit CpuBackend(ContextConfig& config) : config_(config) {}
    scatter_backend kind() const override { return SCATTER_BACKEND_CPU; }

    Status create_buffer(uint64_t size, std::unique_ptr<Buffer>* out) override {
        if (size > uint64_t(PTRDIFF_MAX))
            return make_error(SCATTER_ERROR_OUT_OF_MEMORY, "a buffer of %" PRIu64 " bytes cannot exist", size);
        char* bytes = static_cast<char*>(config_.allocator.allocate(size_t(size), 64));
        if (bytes == nullptr)
            return make_error(SCATTER_ERROR_OUT_OF_MEMORY, "could not allocate a buffer of %" PRIu64 " bytes", size);
        std::memset(bytes, 0, size_t(size));
        *out = std::make_unique<HostBuffer>(config_.allocator, bytes, size);
        return Status();
    }

    Status execute(const OpPlan& plan) override {
        return timed(plan.profile, "cpu", [&] { return execute_on_cpu(plan, config_); });
    }

    Status execute_gather(const GatherPlan& plan) override {
        return timed(plan.profile, "cpu_gather", [&] { return execute_gather_on_cpu(plan, config_); });
    }

    Status execute_message_passing(const MessagePlan& plan) override {
        return timed(plan.profile, "cpu_message_passing", [&] { return execute_message_passing_on_cpu(plan, config_); });
    }

    Status execute_backward(const BackwardPlan& plan) override {
        const OpPlan& f = plan.forward;
        const TensorView* views[] = {&f.data, &f.indices, &f.updates, &f.out, &plan.grad_out, &plan.grad_data,
                                     &plan.grad_updates};
        SCATTER_RETURN_IF_ERROR(check_host_views(views, 7));
        return timed(plan.profile, "cpu_backward", [&] { return scatter_backward_cpu(plan, config_); });
    }

    Status execute_gather_backward(const GatherPlan& plan) override {
        const TensorView* views[] = {&plan.data, &plan.indices, &plan.out};
        SCATTER_RETURN_IF_ERROR(check_host_views(views, 3));
        return timed(plan.profile, "cpu_gather_backward", [&] { return gather_backward_cpu(plan, config_); });
    }

private:
    // Runs `run`, adding it to the profile as one pass when the context profiles.
    template <class Run>
    static Status timed(OperationProfile* profile, const char* pass, Run&& run) {
        if (profile == nullptr) return run();
        Stopwatch kernel;
        Status status = run();
        profile->add_pass(pass, 0, kernel.lap_us());
        return status;
    }

    static Status check_host_views(const TensorView* const* views, int count) {
        for (int i = 0; i < count; ++i)
            if (views[i]->host == nullptr && !views[i]->empty())
                return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "the CPU backend cannot address device memory");
        return Status();
    }

    ContextConfig& config_;
};

// Small index tables live on the stack: the common tiny call then allocates nothing.
constexpr int64_t kInlineTargets = 256;

}  // namespace

Status execute_on_cpu(const OpPlan& plan, ContextConfig& config) {
    const TensorView* views[] = {&plan.data, &plan.indices, &plan.updates, &plan.out};
    for (const TensorView* v : views)
        if (v->host == nullptr && !v->empty())
            return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "the CPU backend cannot address device memory");
    TaskRunner& runner = *config.runner;
    SCATTER_RETURN_IF_ERROR(check_indices(plan, runner));
    auto fill_out = [&] { return plan.in_place ? Status() : copy_tensor(plan.data, plan.out, runner); };
    if (plan.op == OpKind::Elements) {
        SCATTER_RETURN_IF_ERROR(check_divisors(plan, runner, nullptr));
        return scatter_elements_cpu(plan, runner, config.allocator, fill_out);
    }
    if (plan.op == OpKind::Rows && plan.data.rank == 1 && plan.indices.rank == 1 && plan.slices > kInlineTargets) {
        // 1-D rows (torch's index_add_ on a vector) is 1-D elements, whose kernel needs no table of
        // targets: 8 bytes a slice of fresh memory, whose page faults cost more than the
        // scatter (4M f32 on the 2-core test machine: 275 ms against 20-45 ms).
        OpPlan elements = plan;
        elements.op = OpKind::Elements;
        SCATTER_RETURN_IF_ERROR(check_divisors(elements, runner, nullptr));
        return scatter_elements_cpu(elements, runner, config.allocator, fill_out);
    }
    int64_t inline_targets[kInlineTargets];
    ScratchArray<int64_t> heap_targets(config.allocator);
    int64_t* targets = inline_targets;
    if (plan.slices > kInlineTargets) {
        if (!heap_targets.allocate(size_t(plan.slices)))
            return make_error(SCATTER_ERROR_OUT_OF_MEMORY, "could not allocate the targets of %" PRId64 " slices",
                              plan.slices);
        targets = heap_targets.data();
    }
    if (!plan.no_updates()) SCATTER_RETURN_IF_ERROR(resolve_slice_targets(plan, runner, targets));
    SCATTER_RETURN_IF_ERROR(check_divisors(plan, runner, targets));
    return scatter_slices_cpu(plan, targets, runner, config.allocator, fill_out);
}

Status execute_gather_on_cpu(const GatherPlan& plan, ContextConfig& config) {
    const TensorView* views[] = {&plan.data, &plan.indices, &plan.out};
    for (const TensorView* v : views)
        if (v->host == nullptr && !v->empty())
            return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "the CPU backend cannot address device memory");
    TaskRunner& runner = *config.runner;
    SCATTER_RETURN_IF_ERROR(check_gather_indices(plan, runner));
    return gather_cpu(plan, runner);
}

Status execute_message_passing_on_cpu(const MessagePlan& plan, ContextConfig& config) {
    const TensorView* views[] = {&plan.data, &plan.x, &plan.src, &plan.dst, &plan.weights, &plan.out};
    for (const TensorView* v : views)
        if (v->host == nullptr && !v->empty())
            return make_error(SCATTER_ERROR_INVALID_ARGUMENT, "the CPU backend cannot address device memory");
    TaskRunner& runner = *config.runner;
    // src first: the gather of the composition checks its indices before the scatter does.
    SCATTER_RETURN_IF_ERROR(check_edge_indices(plan.src, "src", plan.source_rows, plan.src_policy, true, runner));
    SCATTER_RETURN_IF_ERROR(check_edge_indices(plan.dst, "dst", plan.target_rows, plan.dst_policy, false, runner));
    return message_passing_cpu(plan, runner, config.allocator);
}

std::unique_ptr<Backend> make_cpu_backend(ContextConfig& config) { return std::make_unique<CpuBackend>(config); }

}  // namespace scatter
