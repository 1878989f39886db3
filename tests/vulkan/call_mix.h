// The call-path suites' shared fixture pieces: an application-owned Vulkan device whose device
// functions count every vkCreate*/vkAllocate*/vkFree*/vkDestroy* (the test hands libscatter its
// own vkGetInstanceProcAddr), and a mix of calls that takes every kind of pass.
#pragma once

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <scatter/scatter.h>

#include "vulkan_env.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

namespace vulkan_test {

// How many Vulkan objects libscatter created, allocated, freed or destroyed through the
// counting table so far.
int64_t counted_vulkan_object_calls();

// An application device (no validation layer: the counts and timings are libscatter's own).
struct Application {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t family = 0;

    // Creates the instance and device with the counting table; false when there is no device.
    bool start();
    ~Application();
};

// A context on app's device, through the counting table.
scatter_context context_on(const Application& app, uint32_t flags);

scatter_tensor tensor(scatter_dtype dtype, uint32_t rank, const int64_t* shape, void* host);

// A mix of calls that takes every kind of pass: host tensors (staging), resident buffers, the
// small path (`none`), the slab path (f32 add), the atomic path (i32 add), the target path (mean
// over a 1-D tensor too long for shared memory), rows and nd, an index error.
//
// The elements call on the target path also keeps lavapipe (Mesa 22.3) flat: repeating the nd
// call's passes with no other target-path call between them grows lavapipe by ~1.4 MB a call
// (heaptrack: allocations made by its JIT code and worker threads, none by libscatter).
class CallMix {
public:
    explicit CallMix(scatter_context ctx) : ctx_(ctx) {
        for (int i = 0; i < 64; ++i) {
            data_[i] = float(i);
            idata_[i] = i;
        }
        for (int i = 0; i < 16; ++i) {
            index_[i] = (i * 5) % 8;
            update_[i] = 0.5f * float(i);
            iupdate_[i] = i;
            rows_[i % 4] = (i * 3) % 8;
            long_index_[i] = (i * 4099) % kLong;
        }
        EXPECT_EQ(scatter_buffer_create(ctx, sizeof data_, &data_buffer_), SCATTER_OK);
        EXPECT_EQ(scatter_buffer_create(ctx, sizeof data_, &out_buffer_), SCATTER_OK);
        EXPECT_EQ(scatter_buffer_create(ctx, sizeof index_, &index_buffer_), SCATTER_OK);
        EXPECT_EQ(scatter_buffer_create(ctx, sizeof update_, &update_buffer_), SCATTER_OK);
        scatter_buffer_write(data_buffer_, 0, data_, sizeof data_);
        scatter_buffer_write(index_buffer_, 0, index_, sizeof index_);
        scatter_buffer_write(update_buffer_, 0, update_, sizeof update_);
    }
    ~CallMix() {
        for (scatter_buffer b : {data_buffer_, out_buffer_, index_buffer_, update_buffer_}) scatter_buffer_destroy(b);
    }

    // Call number `i` of the mix; returns whether it gave the status it should.
    bool call(int i) {
        static const int64_t data_shape[2] = {8, 8}, index_shape[2] = {2, 8}, rows_shape[1] = {4},
                             row_updates_shape[2] = {4, 8}, nd_index_shape[2] = {4, 1};
        scatter_options o = SCATTER_OPTIONS_INIT;
        scatter_tensor d = tensor(SCATTER_DTYPE_F32, 2, data_shape, data_);
        scatter_tensor idx = tensor(SCATTER_DTYPE_I64, 2, index_shape, index_);
        scatter_tensor u = tensor(SCATTER_DTYPE_F32, 2, index_shape, update_);
        scatter_tensor out = tensor(SCATTER_DTYPE_F32, 2, data_shape, out_);
        switch (i % 7) {
            case 0:  // host tensors, `none`
                return scatter_elements(ctx_, &d, &idx, &u, &o, &out) == SCATTER_OK;
            case 1: {  // resident, f32 add (slab path: the 8 fibers in one tile)
                o.reduction = SCATTER_REDUCTION_ADD;
                for (scatter_tensor* t : {&d, &idx, &u, &out}) t->data = nullptr;
                d.buffer = data_buffer_;
                idx.buffer = index_buffer_;
                u.buffer = update_buffer_;
                out.buffer = out_buffer_;
                return scatter_elements(ctx_, &d, &idx, &u, &o, &out) == SCATTER_OK;
            }
            case 2: {  // i32 add: the atomic path
                o.reduction = SCATTER_REDUCTION_ADD;
                d = tensor(SCATTER_DTYPE_I32, 2, data_shape, idata_);
                u = tensor(SCATTER_DTYPE_I32, 2, index_shape, iupdate_);
                out = tensor(SCATTER_DTYPE_I32, 2, data_shape, iout_);
                return scatter_elements(ctx_, &d, &idx, &u, &o, &out) == SCATTER_OK;
            }
            case 3: {  // mean into kLong targets: the target path
                static const int64_t long_shape[1] = {kLong}, long_index_shape[1] = {16};
                o.reduction = SCATTER_REDUCTION_MEAN;
                scatter_tensor ld = tensor(SCATTER_DTYPE_F32, 1, long_shape, long_data_);
                scatter_tensor lo = tensor(SCATTER_DTYPE_F32, 1, long_shape, long_out_);
                scatter_tensor lx = tensor(SCATTER_DTYPE_I64, 1, long_index_shape, long_index_);
                scatter_tensor lu = tensor(SCATTER_DTYPE_F32, 1, long_index_shape, update_);
                return scatter_elements(ctx_, &ld, &lx, &lu, &o, &lo) == SCATTER_OK;
            }
            case 4: {  // rows max
                o.reduction = SCATTER_REDUCTION_MAX;
                scatter_tensor r = tensor(SCATTER_DTYPE_I64, 1, rows_shape, rows_);
                scatter_tensor ru = tensor(SCATTER_DTYPE_F32, 2, row_updates_shape, update_);
                return scatter_rows(ctx_, &d, &r, &ru, &o, &out) == SCATTER_OK;
            }
            case 5: {  // nd mul
                o.reduction = SCATTER_REDUCTION_MUL;
                scatter_tensor r = tensor(SCATTER_DTYPE_I64, 2, nd_index_shape, rows_);
                scatter_tensor ru = tensor(SCATTER_DTYPE_F32, 2, row_updates_shape, update_);
                return scatter_nd(ctx_, &d, &r, &ru, &o, &out) == SCATTER_OK;
            }
            default: {  // an index out of range: found on the device, nothing written
                int64_t bad[16];
                std::memcpy(bad, index_, sizeof bad);
                bad[11] = 8;
                idx.data = bad;
                return scatter_elements(ctx_, &d, &idx, &u, &o, &out) == SCATTER_ERROR_INDEX_OUT_OF_RANGE;
            }
        }
    }

private:
    scatter_context ctx_;
    // More f32 targets with hit counts than 4 slab ranges of lavapipe's 32 KiB of shared memory
    // hold (16128; a GPU gives the slab no mean): the target path. No more: LongRun makes
    // 100000 calls, a sixth of them this one.
    static constexpr int64_t kLong = 16384;
    float data_[64], out_[64] = {}, update_[16];
    float long_data_[kLong] = {}, long_out_[kLong] = {};
    int64_t long_index_[16];
    int32_t idata_[64], iout_[64] = {}, iupdate_[16];
    int64_t index_[16], rows_[4];
    scatter_buffer data_buffer_ = nullptr, out_buffer_ = nullptr, index_buffer_ = nullptr, update_buffer_ = nullptr;
};

}  // namespace vulkan_test
