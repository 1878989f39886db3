// RecordedOperation: one scatter operation recorded into a command buffer, with the transient
// memory it owns until the device has finished it (parameter block, status words, scratch
// tables, staged host tensors, descriptor set).
//
// The path (small, slab, atomic, target, owner) and its scratch layout are vk_path.h's
// choose_path, a pure function of the plan, the device and the bindings' alignment.
// Passes (each a dispatch, separated by compute->compute barriers):
//   1. index    elements + policy ERROR: validate every index;
//               rows/nd: resolve each slice's target row (validating under policy ERROR)
//   2. index    integer div only: find zero divisors that would be applied
// then the small path (elements `none` with at most SCATTER_SMALL_TARGETS targets and
// SCATTER_SMALL_ITEMS indices, on the target path): one dispatch, one workgroup, no fills:
//   3. scatter  SMALL_NONE: status reset, validation, winners in shared memory, out written
// or the slab path (elements whose fibers along the axis fit in shared memory, every reduction,
// chosen before the atomic path): one dispatch, a workgroup per tile of fibers of out, no scratch:
//   3. scatter  SLAB: the tile's targets loaded, its updates applied in shared memory, written once
// or the target-parallel path (default):
//   3. buckets  `none`: WINNER; reductions: COUNT, ALLOCATE, PLACE, SORT (see buckets.comp)
//   4. scatter  one invocation per out element: GATHER_WINNER or APPLY_TARGETS (copy included)
// or the atomic path (order-free reductions, or allowed non-determinism; elements only when the
// slab path does not fit):
//   3. copy     out = data, unless in place
//   4. atomic   exclude_self only: hit targets = the identity
//   5. atomic   one invocation per update element: a read-modify-write of its target
//   6. atomic   native f32 atomicAdd only: NaN targets take the canonical NaN;
//               float max/min only: each target's first NaN update (FIRST_NAN)
// or the owner-computes path (when the bucket tables do not fit in scratch's windows, or data
// is not aligned for typed reads):
//   3. copy     out = data, unless in place
//   4. scatter  one invocation per column applies its updates in row-major order
//   5. scatter  mean only: divide hit targets by their count
// Later passes do nothing when pass 1 or 2 recorded a failure, so a failed call writes nothing.
// On a driver that ends long loops (llvmpipe, vk_loop_limit.h) ALLOCATE also fails the call when
// a key has more updates than its loops can fold; the owner path is refused on the host then.
#pragma once

#include "core/gather_plan.h"
#include "core/op_plan.h"
#include "vulkan/vk_memory.h"
#include "vulkan/vk_path.h"
#include "vulkan/vk_pipelines.h"
#include "vulkan/vk_profile.h"

#include <vector>

namespace scatter {

class RecordedOperation {
public:
    RecordedOperation(VulkanDevice& device, PipelineSet& pipelines)
        : device_(device), pipelines_(pipelines), arena_(device), scratch_(device), mirror_(device) {}
    ~RecordedOperation();
    RecordedOperation(const RecordedOperation&) = delete;
    RecordedOperation& operator=(const RecordedOperation&) = delete;

    // Checks that the device can run `plan`, stages host inputs and records every pass.
    // allow_host_out: whether `out` may be host memory (copied back by finish()).
    // timer: when profiling, marks the end of each pass (see vk_profile.h); null otherwise.
    Status record(const OpPlan& plan, VkCommandBuffer command_buffer, bool allow_host_out, PassTimer* timer = nullptr);

    // The same for a gather (vk_gather.cpp): GATHER_VALIDATE under ERROR (and under CLAMP when
    // an indexed dimension is empty), then GATHER, one invocation per out element (gather.comp).
    Status record_gather(const GatherPlan& plan, VkCommandBuffer command_buffer, bool allow_host_out,
                         PassTimer* timer = nullptr);

    // After the commands completed: the operation's result (an index or divisor error with its
    // message, nothing written), and host outputs copied back on success.
    Status finish();

private:
    struct Binding {
        const VulkanBuffer* source = nullptr;  // a scatter buffer (its chunks); else `buffer`:
        VkBuffer buffer = VK_NULL_HANDLE;
        uint64_t buffer_size = 0;  // size of the whole VkBuffer
        uint64_t start = 0;        // where the first window starts in `source` or `buffer`
        int64_t base_byte = 0;     // element 0, relative to `start`
        uint64_t end = 0;          // bytes from `start` the shaders may address
        // The device address of `start` and the bytes from there within its VkBuffer, for the
        // `_ad` modules; 0 when the binding has none (an application's VkBuffer, or a device
        // without bufferDeviceAddress).
        VkDeviceAddress address = 0;
        uint64_t addressable = 0;
    };

    // What record() and record_gather() share: the call's plan (a gather's as an OpPlan: its fill
    // value as `updates`); the arena laid out, host tensors staged, every tensor bound, windows
    // or addresses chosen; the barriers and copies before the first pass and after the last.
    void start(const OpPlan& plan, PassTimer* timer);
    Status stage_and_bind(bool allow_host_out);
    void record_stage_in(VkCommandBuffer cmd, bool reset_status);
    void record_transfers_done(VkCommandBuffer cmd);
    Status record_read_back(VkCommandBuffer cmd);

    Status check_device_support() const;
    Status bind_tensor(const TensorView& view, uint64_t staged_at, Binding* binding) const;
    // Windows or addresses for this call's tensors (sets addressed_): addresses where a tensor
    // spans more than its 4 windows (or the test switch `windows` says so) and the device and
    // every binding have them; UNSUPPORTED, naming the tensor and the reason, where windows
    // cannot hold a tensor and addresses cannot reach it.
    Status choose_addressing();
    // The words every module reads: op, policy, axis, depth, the tensor blocks, addresses.
    void fill_tensor_parameters(int32_t* p) const;
    void fill_parameters(int32_t* p) const;
    // Where the byte copies (copy, `none`, gather) store 1- and 2-byte pieces directly (`_ss`).
    bool raw_small_stores() const;
    // Every binding within its first window: pipelines specialized for that.
    bool one_window_pipelines() const;
    PipelineKey pipeline_key(Shader shader) const;
    Status write_descriptors();
    // One pass of `count` ids (`name` in profiles), then a compute barrier. Its grid is capped at
    // device_.looping_groups (the shaders loop over tiles of ids) unless `whole_grid`: SLAB,
    // SMALL_NONE and ALLOCATE, whose workgroups each own one tile.
    void dispatch(VkCommandBuffer cmd, VkPipeline pipeline, uint32_t mode, int64_t count, const char* name,
                  bool whole_grid = false);
    // APPLY_TARGETS' passes after the first on a loop-limited driver, each as large as
    // CHUNK_ARGS decided on the device (none once every key is folded).
    void dispatch_chunks(VkCommandBuffer cmd, VkPipeline buckets, VkPipeline scatter);
    // APPLY_TARGETS' passes: more than 1 only for the key sort on a loop-limited driver.
    uint32_t chunk_passes() const;
    // The target path's fold: APPLY_TARGETS, APPLY_QUADS, or after the key sort APPLY_SEGMENTS
    // in place (vk_path.h); and its name in profiles.
    uint32_t apply_mode() const;
    // The scatter module's pass on this path (SCATTER_MODE_*): its pipeline holds only that
    // pass where mode_constants is on; FINISH_MEAN, the owner path's second, has its own.
    uint32_t scatter_mode() const;
    const char* apply_pass_name() const;
    // Whether the fold pass takes its whole grid (no looping cap: vk_operation.cpp says why).
    bool fold_whole_grid() const;
    // The status words: S_WORDS, then on a loop-limited driver each chunk pass's indirect
    // dispatch after the first.
    uint64_t status_words() const;
    // The failure the status words recorded, reported as the CPU backend does (core/index_check.h).
    Status bad_index() const;
    Status zero_divisor() const;

    VulkanDevice& device_;
    PipelineSet& pipelines_;
    PassTimer* timer_ = nullptr;
    // On a loop-limited driver (vk_loop_limit.h): sets hits_limit_ for the device's check on
    // the target path, or refuses an owner-path plan whose columns are too long.
    Status check_loop_limit();
    Status record_target_passes(VkCommandBuffer cmd, VkPipeline buckets, VkPipeline scatter);
    // The pipeline variant of each pass for this plan on this device (see cmake/shaders.cmake).
    struct Passes {
        VkPipeline index = VK_NULL_HANDLE, copy = VK_NULL_HANDLE, buckets = VK_NULL_HANDLE;
        VkPipeline scatter = VK_NULL_HANDLE, atomic = VK_NULL_HANDLE;
        VkPipeline finish_mean = VK_NULL_HANDLE;  // the scatter module's FINISH_MEAN (owner path, mean)
        bool native_float_add = false;  // atomic: f32 atomicAdd, then CANONICALIZE
    };
    Status choose_pipelines(Passes* out) const;

    ScopedAllocation arena_;    // host-visible: parameters, status, staged host tensors
    ScopedAllocation scratch_;  // device-local: slice tables, hit counts, bucket tables
    // When the arena is not device-local (a discrete GPU), the staged tensors are copied into
    // this device-local mirror first (and out back after), so shaders never read over the bus.
    ScopedAllocation mirror_;
    uint64_t staged_begin_ = 0, staged_end_ = 0;  // the staged tensors' range of the arena
    bool mirrored() const { return mirror_.allocation.buffer != VK_NULL_HANDLE; }
    PathChoice path_;          // the algorithm and its scratch layout (vk_path.h)
    const char* unfetched_pass_ = nullptr;  // a pass dispatched without its pipeline (a bug)
    // What record() has bound in the command buffer so far: a pass reuses them instead of
    // binding again (fewer commands to record; the radix sort binds its own pipelines).
    VkPipeline bound_pipeline_ = VK_NULL_HANDLE;
    bool set_bound_ = false;
    void bind(VkCommandBuffer cmd, VkPipeline pipeline);
    uint32_t hits_limit_ = 0;  // P_HITS_LIMIT: the most updates per key, 0 = unchecked
    TransientCache::DescriptorSlot descriptors_;
    OpPlan plan_;
    uint64_t params_at_ = 0, status_at_ = 0, scratch_bytes_ = 0;
    uint64_t out_staged_at_ = 0;
    uint64_t indices_staged_at_ = 0;  // host indices: their staged copy in the arena
    bool out_on_host_ = false;
    bool addressed_ = false;  // the `_ad` modules: every binding by its device address
    std::vector<char> fill_zeros_;  // a gather's fill value when the caller gave none
    Binding out_, data_, indices_, updates_;
};

}  // namespace scatter
