// AUTO's routing (src/api/auto_backend.h) with stand-in backends: the capability rule of issue 43
// (a host call the device refuses runs on the CPU, so a call's status never depends on its size)
// without a GPU. The stand-in "device" is instant on the cost probes, the CPU not, so the cost model sends it
// every host call; it refuses f64 as a device without shaderFloat64 does.
#include "api/auto_backend.h"

#include "core/dtype.h"
#include "core/gather_plan.h"
#include "core/op_plan.h"
#include "core/profile.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

namespace scatter {
namespace {

struct StandIn final : Backend {
    explicit StandIn(scatter_backend kind, bool refuse_f64) : kind_(kind), refuse_f64_(refuse_f64) {}
    scatter_backend kind() const override { return kind_; }
    Status create_buffer(uint64_t, std::unique_ptr<Buffer>*) override {
        return make_error(SCATTER_ERROR_UNSUPPORTED, "no buffers here");
    }
    Status execute(const OpPlan& plan) override {
        if (refuse_f64_ && plan.data.dtype() == SCATTER_DTYPE_F64)
            return make_error(SCATTER_ERROR_UNSUPPORTED, "f64 add on Vulkan needs the device feature shaderFloat64");
        if (plan.data.rank == 1) ++large_calls;  // the cost probes are 2-d
        // The CPU stand-in takes a microsecond per thousand elements, the device none: the cost
        // model then prefers the device for large calls.
        if (kind_ == SCATTER_BACKEND_CPU && plan.data.rank == 2)
            std::this_thread::sleep_for(std::chrono::microseconds(plan.data.element_count / 1000));
        ++calls;
        return Status();
    }
    Status execute_gather(const GatherPlan&) override { return make_error(SCATTER_ERROR_UNSUPPORTED, "no gather"); }
    Status execute_message_passing(const MessagePlan&) override {
        return make_error(SCATTER_ERROR_UNSUPPORTED, "no message passing");
    }
    Status execute_backward(const BackwardPlan&) override { return make_error(SCATTER_ERROR_UNSUPPORTED, "no backward"); }
    Status execute_gather_backward(const GatherPlan&) override {
        return make_error(SCATTER_ERROR_UNSUPPORTED, "no backward");
    }
    scatter_backend kind_;
    bool refuse_f64_;
    int calls = 0, large_calls = 0;
};

OpPlan host_plan(scatter_dtype dtype, void* memory) {
    OpPlan p;
    p.op = OpKind::Elements;
    p.reduction = SCATTER_REDUCTION_ADD;
    TensorView* views[] = {&p.data, &p.out, &p.indices, &p.updates};
    for (TensorView* v : views) {
        v->info = find_dtype(v == &p.indices ? SCATTER_DTYPE_I64 : dtype);
        v->element_size = uint32_t(v->info->size);
        v->rank = 1;
        v->shape[0] = 1 << 20;  // large: the cost model prefers the instant stand-in
        v->strides[0] = 1;
        v->element_count = v->shape[0];
        v->end_byte = v->element_count * v->element_size;
        v->host = static_cast<char*>(memory);  // never touched by the stand-ins
    }
    return p;
}

TEST(AutoBackend, AHostCallTheDeviceRefusesRunsOnTheCpu) {
    ContextConfig config;
    auto cpu = std::make_unique<StandIn>(SCATTER_BACKEND_CPU, false);
    auto gpu = std::make_unique<StandIn>(SCATTER_BACKEND_VULKAN, true);
    StandIn* cpu_seen = cpu.get();
    StandIn* gpu_seen = gpu.get();
    AutoBackend router(std::move(cpu), std::move(gpu), config);
    char memory[8];

    OpPlan f32 = host_plan(SCATTER_DTYPE_F32, memory);
    ASSERT_TRUE(router.execute(f32).ok());
    EXPECT_EQ(gpu_seen->large_calls, 1) << "the cost model sends a large f32 call to the device";
    EXPECT_EQ(cpu_seen->large_calls, 0);

    OperationProfile profile;
    OpPlan f64 = host_plan(SCATTER_DTYPE_F64, memory);
    f64.profile = &profile;
    Status status = router.execute(f64);
    ASSERT_TRUE(status.ok()) << "UNSUPPORTED on the device route, OK on the CPU: " << status.message();
    EXPECT_EQ(cpu_seen->large_calls, 1) << "the refused call ran on the CPU";
    EXPECT_EQ(profile.result.backend, SCATTER_BACKEND_CPU);
    EXPECT_EQ(std::string(profile.result.route).rfind("cpu: the Vulkan device refused it", 0), 0u)
        << profile.result.route;
}

}  // namespace
}  // namespace scatter
