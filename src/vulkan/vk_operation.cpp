#include "vulkan/vk_operation.h"

#include "vulkan/vk_loop_limit.h"
#include "vulkan/vk_path.h"
#include "vulkan/vk_radix_sort.h"

#include "core/index_check.h"
#include "core/index_rules.h"
#include "core/strided_walk.h"

#include "scatter_shared.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>

namespace scatter {
namespace {

// A pipeline refusal (PipelineSet::get's UNSUPPORTED) while recording `path`: the device's later
// calls choose another path (vk_path.h). Returns `status`.
Status note_refusal(VulkanDevice& device, VulkanPath path, Status status) {
    if (status.code() == SCATTER_ERROR_UNSUPPORTED)
        device.refused_paths.fetch_or(1u << static_cast<unsigned>(path), std::memory_order_relaxed);
    return status;
}

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

// The bytes of a host tensor's copy in the arena: from its lowest to past its highest byte.
uint64_t staged_size(const TensorView& v) { return uint64_t(v.end_byte - v.min_byte); }

// The shaders address elements with 32-bit integers.
Status check_int32_geometry(const char* name, const TensorView& v) {
    bool fits = v.element_count <= INT32_MAX;
    for (uint32_t d = 0; d < v.rank; ++d)
        fits = fits && v.shape[d] <= INT32_MAX && v.strides[d] <= INT32_MAX && v.strides[d] >= -INT32_MAX;
    if (!fits)
        return make_error(SCATTER_ERROR_UNSUPPORTED,
                          "%s has %" PRId64 " elements or a dimension or stride beyond 2^31 - 1, which the Vulkan "
                          "backend does not address", name, v.element_count);
    return Status();
}

// A pass's grid: whole workgroups, more than 65535 of them folded into two dimensions.
struct Grid {
    uint32_t x = 0, y = 0;
};
// The grid of a pass of `invocations` ids; a pass that loops over tiles of ids (common.glsl)
// gets at most `max_groups` workgroups (0: no cap).
Grid grid_of(int64_t invocations, uint32_t max_groups) {
    uint64_t groups = (uint64_t(invocations) + SCATTER_WORKGROUP_SIZE - 1) / SCATTER_WORKGROUP_SIZE;
    if (max_groups != 0) groups = std::min<uint64_t>(groups, max_groups);
    const uint32_t x = uint32_t(std::min<uint64_t>(groups, SCATTER_MAX_GRID_X));
    return {x, x == 0 ? 0 : uint32_t((groups + x - 1) / x)};
}

uint32_t log2_of(uint64_t power_of_two) {
    uint32_t s = 0;
    while ((uint64_t(1) << s) < power_of_two) ++s;
    return s;
}

}  // namespace

RecordedOperation::~RecordedOperation() {
    device_.transient->give_descriptor_slot(descriptors_);
}

Status RecordedOperation::check_device_support() const {
    const OpPlan& p = plan_;
    if (p.reduction != SCATTER_REDUCTION_NONE) {
        scatter_dtype t = p.data.dtype();
        if ((t == SCATTER_DTYPE_F64 || t == SCATTER_DTYPE_C128) && !(device_.features & SCATTER_FEATURE_FLOAT64))
            return make_error(SCATTER_ERROR_UNSUPPORTED,
                              "%s %s on Vulkan needs the device feature shaderFloat64, which this device lacks "
                              "or has disabled", p.data.info->name, reduction_name(p.reduction));
        if ((t == SCATTER_DTYPE_I64 || t == SCATTER_DTYPE_U64) && !(device_.features & SCATTER_FEATURE_INT64))
            return make_error(SCATTER_ERROR_UNSUPPORTED,
                              "%s %s on Vulkan needs the device feature shaderInt64, which this device lacks "
                              "or has disabled", p.data.info->name, reduction_name(p.reduction));
    }
    SCATTER_RETURN_IF_ERROR(check_int32_geometry("data", p.data));
    SCATTER_RETURN_IF_ERROR(check_int32_geometry("indices", p.indices));
    SCATTER_RETURN_IF_ERROR(check_int32_geometry("updates", p.updates));
    SCATTER_RETURN_IF_ERROR(check_int32_geometry("out", p.out));
    if (p.slices > INT32_MAX / 3)
        return make_error(SCATTER_ERROR_UNSUPPORTED, "%" PRId64 " index slices exceed what the Vulkan backend addresses",
                          p.slices);
    return Status();
}

Status RecordedOperation::bind_tensor(const TensorView& view, uint64_t staged_at, Binding* b) const {
    *b = Binding();
    auto in_allocation = [b](const Allocation& a) {
        b->buffer = a.buffer;
        b->buffer_size = a.size;
        b->address = a.address != 0 ? a.address + b->start : 0;
        b->addressable = a.size - b->start;
    };
    if (view.buffer == nullptr && mirrored()) {
        b->start = staged_at - staged_begin_;
        in_allocation(mirror_.allocation);
        b->base_byte = -view.min_byte;
    } else if (view.buffer == nullptr) {
        b->start = staged_at;
        in_allocation(arena_.allocation);
        b->base_byte = -view.min_byte;
    } else {
        const VulkanBuffer& buffer = vulkan_buffer(view.buffer);
        const int64_t element0 = int64_t(buffer.vk_offset() + view.byte_offset);
        const uint64_t span_begin = uint64_t(element0 + view.min_byte), span_end = uint64_t(element0 + view.end_byte);
        // Windows start at an aligned offset; where the span runs from one chunk of the buffer
        // into the next, at a multiple of the window, so that every window lies in one chunk.
        const uint64_t step =
            buffer.crosses_chunks(span_begin, span_end) ? device_.window_bytes : device_.offset_alignment;
        b->source = &buffer;
        b->start = span_begin / step * step;
        b->base_byte = element0 - int64_t(b->start);
        const VulkanBuffer::Place place = buffer.place(b->start);
        b->address = place.address;
        b->addressable = place.available;
    }
    b->end = uint64_t(std::max<int64_t>(b->base_byte + view.end_byte, 0));
    return Status();
}

Status RecordedOperation::choose_addressing() {
    const uint64_t windows_bytes = device_.window_bytes * SCATTER_WINDOWS;
    const bool device_has = (device_.features & SCATTER_FEATURE_BUFFER_DEVICE_ADDRESS) != 0;
    const Binding* bindings[4] = {&out_, &data_, &indices_, &updates_};
    const TensorView* views[4] = {&plan_.out, &plan_.data, &plan_.indices, &plan_.updates};
    const char* names[4] = {"out", "data", "indices", "updates"};
    // Byte positions in the shaders are 32-bit, from the binding's start (common.glsl).
    constexpr uint64_t kAddressedSpan = uint64_t(1) << 32;
    auto reachable = [&](const Binding& b) {  // an empty binding is never read: any address does
        return b.end == 0 || (b.address != 0 && b.end <= b.addressable && b.end <= kAddressedSpan);
    };
    int beyond = -1;  // the first tensor that its windows cannot hold
    int unreachable = -1;  // the first that no address reaches
    for (int t = 3; t >= 0; --t) {
        if (bindings[t]->end > windows_bytes) beyond = t;
        if (!reachable(*bindings[t])) unreachable = t;
    }
    addressed_ = device_has && unreachable < 0 && (beyond >= 0 || !device_.algorithms.windows);
    if (beyond < 0 || addressed_) return Status();
    const Binding& b = *bindings[beyond];
    const TensorView& view = *views[beyond];
    char reason[200];
    if (!device_has) {
        std::snprintf(reason, sizeof reason, "this device has no bufferDeviceAddress (or it is disabled)");
    } else {
        const Binding& u = *bindings[unreachable];
        std::snprintf(reason, sizeof reason, "%s has no device address: %s", names[unreachable],
                      u.end > kAddressedSpan ? "by address a tensor may span at most 4 GiB"
                      : u.address == 0      ? "an application's VkBuffer is not reached by address"
                                            : "it lies in two allocations of its buffer");
    }
    return make_error(SCATTER_ERROR_UNSUPPORTED,
                      "%s spans %" PRId64 " bytes from byte %" PRId64 " of its first window, more than the %" PRIu64
                      " bytes one Vulkan binding (%d windows of maxStorageBufferRange) holds, and the call cannot "
                      "take buffer device addresses instead: %s",
                      names[beyond], view.end_byte - view.min_byte, b.base_byte + view.min_byte, windows_bytes,
                      SCATTER_WINDOWS, reason);
}

void RecordedOperation::fill_tensor_parameters(int32_t* p) const {
    const OpPlan& plan = plan_;
    std::memset(p, 0, P_TOTAL_INTS * sizeof(int32_t));
    p[P_OP] = plan.op == OpKind::Elements ? SCATTER_OP_ELEMENTS : plan.op == OpKind::Rows ? SCATTER_OP_ROWS : SCATTER_OP_ND;
    p[P_REDUCTION] = int32_t(plan.reduction);
    p[P_POLICY] = int32_t(plan.policy);
    p[P_INDEX_IS_I64] = plan.indices.info != nullptr && plan.indices.dtype() == SCATTER_DTYPE_I64 ? 1 : 0;
    p[P_AXIS] = plan.axis;
    p[P_DEPTH] = int32_t(plan.index_depth);
    p[P_WINDOW_SHIFT] = int32_t(log2_of(device_.window_bytes / 4));
    if (addressed_) {  // the `_ad` modules: each binding's start by address (common.glsl, A_*)
        const VkDeviceAddress scratch = scratch_.allocation.address;
        VkDeviceAddress addresses[P_ADDRESS_BINDINGS] = {out_.address, data_.address, indices_.address,
                                                         updates_.address, scratch};
        for (int b = 0; b < P_ADDRESS_BINDINGS; ++b) {
            // An empty tensor may have none (choose_addressing); it is never read, but a stray
            // access then lands in scratch rather than at address 0.
            if (addresses[b] == 0) addresses[b] = scratch;
            p[P_ADDRESSES + 2 * b] = int32_t(uint32_t(addresses[b]));
            p[P_ADDRESSES + 2 * b + 1] = int32_t(uint32_t(addresses[b] >> 32));
        }
    }
    const TensorView* views[4] = {&plan.out, &plan.data, &plan.indices, &plan.updates};
    const Binding* bindings[4] = {&out_, &data_, &indices_, &updates_};
    static_assert(T_OUT == 0 && T_DATA == 1 && T_INDICES == 2 && T_UPDATES == 3, "views[] follows T_*");
    p[P_CONTIGUOUS] = 0;
    for (int t = 0; t < 4; ++t)
        if (views[t]->contiguous) p[P_CONTIGUOUS] |= 1 << t;
    for (int t = 0; t < 4; ++t) {
        int32_t* block = p + P_TENSORS + t * P_TENSOR_INTS;
        block[T_RANK] = int32_t(views[t]->rank);
        block[T_ELEMENT_SIZE] = int32_t(views[t]->element_size);
        // Modulo 2^32: the shaders' byte addresses are sums and products, right modulo 2^32
        // (a tensor spans at most 4 windows, 4 GiB at the largest window cap, or 4 GiB by address).
        block[T_BASE_BYTE] = int32_t(uint32_t(uint64_t(bindings[t]->base_byte)));
        for (uint32_t d = 0; d < views[t]->rank; ++d) {
            block[T_SHAPE + d] = int32_t(views[t]->shape[d]);
            block[T_STRIDES + d] = int32_t(views[t]->strides[d]);
        }
    }
}

void RecordedOperation::fill_parameters(int32_t* p) const {
    const OpPlan& plan = plan_;
    fill_tensor_parameters(p);
    p[P_EXCLUDE_SELF] = plan.exclude_self ? 1 : 0;
    p[P_OUTER] = int32_t(plan.outer);
    p[P_TARGET_ROWS] = int32_t(plan.target_rows);
    p[P_INNER] = int32_t(plan.inner);
    p[P_SLICES] = int32_t(plan.slices);
    const TargetLayout& target = path_.target;
    p[P_HAS_COUNTS] = path_.has_counts ? 1 : 0;
    p[P_COUNTS_BASE] = int32_t(path_.path == VulkanPath::Target ? target.counts : path_.counts_at);
    p[P_WINNER_BASE] = int32_t(target.winner);
    p[P_START_BASE] = int32_t(target.start);
    p[P_RANK_BASE] = int32_t(target.rank);
    p[P_LIST_BASE] = int32_t(target.list);
    p[P_TOTAL_WORD] = int32_t(target.total);
    p[P_IN_PLACE] = plan.in_place ? 1 : 0;
    p[P_FIRST_NAN_BASE] = int32_t(path_.first_nan_at);
    p[P_HITS_LIMIT] = int32_t(hits_limit_);
    p[P_SLAB_COLUMNS] = int32_t(path_.slab_columns);
    p[P_SLAB_RANGE_TARGETS] = int32_t(path_.slab_range_targets);
    p[P_ITEM_KEYS_BASE] = int32_t(target.item_keys);
    p[P_SORTED_KEYS_BASE] = int32_t(target.sorted_keys);
    p[P_KEY_ORDER_WORD] = target.key_sort ? int32_t(target.total) : -1;
    p[P_ORDER_STRIDE] = int32_t(target.order_stride);
    p[P_KEY_COUNT] = int32_t(target.keys);
    if (chunk_passes() > 1) {
        const Grid grid = grid_of(target.apply_invocations, fold_whole_grid() ? 0 : device_.looping_groups);
        p[P_CHUNK_ITEMS] = int32_t(target.chunk_items);
        p[P_CHUNK_GRID_X] = int32_t(grid.x);
        p[P_CHUNK_GRID_Y] = int32_t(grid.y);
    }
    p[P_FLOAT_TEST] = (device_.algorithms.keep_subnormals ? 0 : SCATTER_FLOAT_TEST_FLUSH | SCATTER_FLOAT_TEST_ROUGH_DIVIDE) |
                      (device_.algorithms.float_fast_path ? 0 : SCATTER_FLOAT_TEST_SOFT);
    p[P_SLICE_OFFSET_BASE] = 0;
    p[P_SLICE_ROW_BASE] = int32_t(plan.slices);
    p[P_SLICE_UPDATE_BASE] = int32_t(2 * plan.slices);
    const int32_t index_rank = int32_t(plan.indices.rank);
    if (plan.op == OpKind::Rows) {
        p[P_INNER_FIRST_DIM] = plan.axis + 1;
        p[P_UPDATE_DIM_SHIFT] = index_rank - 1;
        p[P_UPDATE_SLICE_DIM] = plan.axis;
        p[P_SLICE_DIMS] = index_rank;
    } else if (plan.op == OpKind::Nd) {
        p[P_INNER_FIRST_DIM] = int32_t(plan.index_depth);
        p[P_UPDATE_DIM_SHIFT] = index_rank - 1 - int32_t(plan.index_depth);
        p[P_UPDATE_SLICE_DIM] = 0;
        p[P_SLICE_DIMS] = index_rank - 1;
    }
}

Status RecordedOperation::write_descriptors() {
    VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1},
                                     {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1 + 5 * SCATTER_WINDOWS}};
    auto pool_info = vk_struct<VkDescriptorPoolCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO);
    pool_info.maxSets = 1;
    pool_info.poolSizeCount = 2;
    pool_info.pPoolSizes = sizes;
    SCATTER_RETURN_IF_ERROR(device_.transient->take_descriptor_slot(pipelines_.set_layout(), pool_info, &descriptors_));
    const VkDescriptorSet set = descriptors_.set;

    VkBuffer arena = arena_.allocation.buffer;
    VkDescriptorBufferInfo infos[2 + 5 * SCATTER_WINDOWS];
    infos[0] = {arena, params_at_, P_TOTAL_INTS * sizeof(int32_t)};
    infos[1] = {arena, status_at_, status_words() * sizeof(uint32_t)};
    Binding scratch{nullptr, scratch_.allocation.buffer, scratch_.allocation.size, 0, 0};
    const Binding* windowed[5] = {&out_, &data_, &indices_, &updates_, &scratch};
    for (int s = 0; s < 5; ++s) {
        const Binding& b = *windowed[s];
        for (int w = 0; w < SCATTER_WINDOWS; ++w) {
            uint64_t offset = b.start + uint64_t(w) * device_.window_bytes;
            VkDescriptorBufferInfo& info = infos[2 + s * SCATTER_WINDOWS + w];
            const VulkanBuffer::Place place = b.source != nullptr ? b.source->place(offset) : VulkanBuffer::Place();
            if (place.available > 0) {
                info = {place.buffer, place.offset, std::min<uint64_t>(device_.window_bytes, place.available)};
            } else if (b.source == nullptr && offset < b.buffer_size) {
                info = {b.buffer, offset, std::min<uint64_t>(device_.window_bytes, b.buffer_size - offset)};
            } else {
                // Never read by the shader, but every descriptor must be valid: an empty tensor
                // may even start past its buffer's end.
                info = infos[0];
            }
        }
    }
    constexpr uint32_t kInfos = 2 + 5 * SCATTER_WINDOWS;
    static_assert(kInfos <= TransientCache::DescriptorSlot::kMaxInfos, "descriptor slot too small");
    // The same buffers and ranges as the set holds already (a repeated call on the same tensors,
    // whose transient memory comes back from the cache), and no buffer destroyed since (a new
    // buffer may reuse a destroyed one's handle value): nothing to write.
    const uint64_t generation = device_.buffer_generation.load();
    if (descriptors_.written_count == kInfos && descriptors_.written_generation == generation &&
        std::memcmp(descriptors_.written, infos, sizeof infos) == 0)
        return Status();
    VkWriteDescriptorSet writes[SCATTER_BINDING_COUNT];
    uint32_t next = 0;
    for (uint32_t binding = 0; binding < SCATTER_BINDING_COUNT; ++binding) {
        VkWriteDescriptorSet& w = writes[binding];
        w = vk_struct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
        w.dstSet = set;
        w.dstBinding = binding;
        w.descriptorCount = binding < SCATTER_BINDING_OUT ? 1 : SCATTER_WINDOWS;
        w.descriptorType =
            binding == SCATTER_BINDING_PARAMS ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w.pBufferInfo = &infos[next];
        next += w.descriptorCount;
    }
    device_.vk.vkUpdateDescriptorSets(device_.device, SCATTER_BINDING_COUNT, writes, 0, nullptr);
    std::memcpy(descriptors_.written, infos, sizeof infos);
    descriptors_.written_count = kInfos;
    descriptors_.written_generation = generation;
    return Status();
}

void RecordedOperation::bind(VkCommandBuffer cmd, VkPipeline pipeline) {
    // Every pipeline of the set shares its layout, so the set stays bound across them.
    if (!set_bound_)
        device_.vk.vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelines_.layout(), 0, 1,
                                           &descriptors_.set, 0, nullptr);
    set_bound_ = true;
    if (pipeline != bound_pipeline_) device_.vk.vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    bound_pipeline_ = pipeline;
}

void RecordedOperation::dispatch(VkCommandBuffer cmd, VkPipeline pipeline, uint32_t mode, int64_t count,
                                 const char* name, bool whole_grid) {
    if (count <= 0) return;
    if (pipeline == VK_NULL_HANDLE) {  // choose_pipelines did not fetch it: record() reports it
        unfetched_pass_ = name;
        return;
    }
    bind(cmd, pipeline);
    PushConstants push{mode, uint32_t(count)};
    device_.vk.vkCmdPushConstants(cmd, pipelines_.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
    const Grid grid = grid_of(count, whole_grid ? 0 : device_.looping_groups);
    device_.vk.vkCmdDispatch(cmd, grid.x, grid.y, 1);
    auto barrier = vk_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    device_.vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0,
                                    1, &barrier, 0, nullptr, 0, nullptr);
    if (timer_ != nullptr) timer_->mark(cmd, name, uint64_t(count));
}

uint32_t RecordedOperation::chunk_passes() const {
    const TargetLayout& t = path_.target;
    const bool chunked = path_.path == VulkanPath::Target && t.key_sort && plan_.reduction != SCATTER_REDUCTION_NONE;
    return chunked ? t.chunks : 1;
}

// The target path's fold after the key sort: per out element, or in place per sorted item.
uint32_t RecordedOperation::apply_mode() const {
    if (path_.target.quads) return SCATTER_MODE_APPLY_QUADS;
    return path_.target.segments ? SCATTER_MODE_APPLY_SEGMENTS : SCATTER_MODE_APPLY_TARGETS;
}

// Division's fold keeps one tile of ids per workgroup. On the H200 (2026-11-27, docs/vulkan.md
// "Measured") W5 (f32 div, exact in integer arithmetic) took 10.7-11.5 ms a call with the looping
// grid and 2.4 ms without it, 1.4 ms before both; why is not understood, and this choice has not
// run on a GPU yet.
bool RecordedOperation::fold_whole_grid() const { return plan_.reduction == SCATTER_REDUCTION_DIV; }

uint32_t RecordedOperation::scatter_mode() const {
    switch (path_.path) {
        case VulkanPath::Small: return SCATTER_MODE_SMALL_NONE;
        case VulkanPath::Slab: return SCATTER_MODE_SLAB;
        case VulkanPath::Target:
            if (plan_.reduction != SCATTER_REDUCTION_NONE) return apply_mode();
            return path_.target.segments ? SCATTER_MODE_GATHER_SEGMENTS : SCATTER_MODE_GATHER_WINNER;
        default: return SCATTER_MODE_APPLY;
    }
}

const char* RecordedOperation::apply_pass_name() const {
    if (path_.target.quads) return "apply_quads";
    return path_.target.segments ? "apply_segments" : "apply_targets";
}

// Laid out before the path is chosen (which depends on where the tensors are bound): room for
// every chunk pass a loop-limited driver may record.
uint64_t RecordedOperation::status_words() const {
    return S_WORDS + (device_.loop_limit != 0 ? 3 * uint64_t(kMaxTargetChunks - 1) : 0);
}

void RecordedOperation::dispatch_chunks(VkCommandBuffer cmd, VkPipeline buckets, VkPipeline scatter) {
    const VolkDeviceTable& vk = device_.vk;
    const uint32_t passes = chunk_passes();
    dispatch(cmd, buckets, SCATTER_MODE_CHUNK_ARGS, passes - 1, "chunk_args");
    auto args_written = vk_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    args_written.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    args_written.dstAccessMask = VK_ACCESS_INDIRECT_COMMAND_READ_BIT;
    vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT, 0, 1,
                            &args_written, 0, nullptr, 0, nullptr);
    bind(cmd, scatter);
    auto folded = vk_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    folded.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    folded.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    for (uint32_t chunk = 1; chunk < passes; ++chunk) {
        PushConstants push{apply_mode() | chunk << SCATTER_MODE_BITS, uint32_t(path_.target.apply_invocations)};
        vk.vkCmdPushConstants(cmd, pipelines_.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
        vk.vkCmdDispatchIndirect(cmd, arena_.allocation.buffer, status_at_ + (S_WORDS + 3 * (chunk - 1)) * 4);
        vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                                &folded, 0, nullptr, 0, nullptr);
    }
    if (timer_ != nullptr) timer_->mark(cmd, "apply_chunks", uint64_t(passes - 1));
}

void RecordedOperation::start(const OpPlan& plan, PassTimer* timer) {
    unfetched_pass_ = nullptr;
    bound_pipeline_ = VK_NULL_HANDLE;
    set_bound_ = false;
    plan_ = plan;
    timer_ = timer;
}

Status RecordedOperation::stage_and_bind(bool allow_host_out) {
    const OpPlan& p = plan_;
    out_on_host_ = p.out.buffer == nullptr;
    if (out_on_host_ && !allow_host_out)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                          "out must be a buffer tensor here: host memory cannot be written after the call returns");
    // Lay out the arena: parameters, status, then each staged host tensor (scratch and the
    // mirror are separate device-local allocations).
    const uint64_t align = std::max<uint64_t>(256, device_.offset_alignment);
    uint64_t cursor = 0;
    auto reserve = [&](uint64_t bytes) {
        uint64_t at = cursor;
        cursor = align_up(cursor + std::max<uint64_t>(bytes, 4), align);
        return at;
    };
    params_at_ = reserve(P_TOTAL_INTS * sizeof(int32_t));
    status_at_ = reserve(status_words() * sizeof(uint32_t));
    uint64_t data_at = 0, indices_at = 0, updates_at = 0;
    staged_begin_ = cursor;
    if (out_on_host_) out_staged_at_ = reserve(staged_size(p.out));
    if (p.data.buffer == nullptr && !p.in_place) data_at = reserve(staged_size(p.data));
    if (p.in_place && out_on_host_) data_at = out_staged_at_;
    if (p.indices.buffer == nullptr) indices_at = reserve(staged_size(p.indices));
    indices_staged_at_ = indices_at;
    if (p.updates.buffer == nullptr) updates_at = reserve(staged_size(p.updates));
    staged_end_ = cursor;
    SCATTER_RETURN_IF_ERROR(allocate(device_, cursor, MemoryUse::Staging, &arena_.allocation));
    // (With host-visible buffers masked, the test switch, the mirror is used on any device.)
    const bool arena_device_local = (arena_.allocation.flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) &&
                                    device_.algorithms.host_visible_buffers;
    if (staged_end_ > staged_begin_ && !arena_device_local)
        SCATTER_RETURN_IF_ERROR(allocate(device_, staged_end_ - staged_begin_, MemoryUse::Scratch, &mirror_.allocation));

    char* arena = arena_.allocation.mapped;
    auto stage_in = [&](const TensorView& v, uint64_t at) {
        if (v.buffer == nullptr && !v.empty()) std::memcpy(arena + at, v.host + v.min_byte, staged_size(v));
    };
    if (p.data.buffer == nullptr) stage_in(p.data, data_at);
    stage_in(p.indices, indices_at);
    stage_in(p.updates, updates_at);

    SCATTER_RETURN_IF_ERROR(bind_tensor(p.out, out_staged_at_, &out_));
    SCATTER_RETURN_IF_ERROR(bind_tensor(p.data, data_at, &data_));
    SCATTER_RETURN_IF_ERROR(bind_tensor(p.indices, indices_at, &indices_));
    SCATTER_RETURN_IF_ERROR(bind_tensor(p.updates, updates_at, &updates_));
    SCATTER_RETURN_IF_ERROR(choose_addressing());
    if (indices_.base_byte % 4 != 0)
        return make_error(SCATTER_ERROR_UNSUPPORTED, "on Vulkan, the buffer byte_offset of indices must be a multiple of 4");
    return Status();
}

void RecordedOperation::record_stage_in(VkCommandBuffer cmd, bool reset_status) {
    const VolkDeviceTable& vk = device_.vk;
    auto before = vk_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    before.srcAccessMask = VK_ACCESS_HOST_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    before.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                           VK_ACCESS_UNIFORM_READ_BIT;  // the parameter block
    vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                            VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &before, 0,
                            nullptr, 0, nullptr);
    if (reset_status)
        vk.vkCmdFillBuffer(cmd, arena_.allocation.buffer, status_at_, status_words() * sizeof(uint32_t), SCATTER_STATUS_NONE);
    if (mirrored()) {
        VkBufferCopy in{staged_begin_, 0, staged_end_ - staged_begin_};
        vk.vkCmdCopyBuffer(cmd, arena_.allocation.buffer, mirror_.allocation.buffer, 1, &in);
    }
}

void RecordedOperation::record_transfers_done(VkCommandBuffer cmd) {
    auto filled = vk_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    filled.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    filled.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    device_.vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                                    &filled, 0, nullptr, 0, nullptr);
    if (timer_ != nullptr) timer_->mark(cmd, mirrored() ? "stage_in_and_fill" : "fill", 0);
}

Status RecordedOperation::record_read_back(VkCommandBuffer cmd) {
    const VolkDeviceTable& vk = device_.vk;
    const TensorView& out = plan_.out;
    if (mirrored() && out_on_host_ && !out.empty()) {
        auto written = vk_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
        written.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
        written.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
        vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &written,
                                0, nullptr, 0, nullptr);
        VkBufferCopy back{out_staged_at_ - staged_begin_, out_staged_at_, staged_size(out)};
        vk.vkCmdCopyBuffer(cmd, mirror_.allocation.buffer, arena_.allocation.buffer, 1, &back);
        if (timer_ != nullptr) timer_->mark(cmd, "copy_out_back", 0);
    }
    auto after = vk_struct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    after.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    after.dstAccessMask = VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_READ_BIT;
    vk.vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                            VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                            0, 1, &after, 0, nullptr, 0, nullptr);
    if (unfetched_pass_ != nullptr)
        return make_error(SCATTER_ERROR_INTERNAL, "the %s pass was recorded without its pipeline", unfetched_pass_);
    return Status();
}

Status RecordedOperation::record(const OpPlan& plan, VkCommandBuffer cmd, bool allow_host_out, PassTimer* timer) {
    start(plan, timer);
    const OpPlan& p = plan_;
    SCATTER_RETURN_IF_ERROR(check_device_support());
    SCATTER_RETURN_IF_ERROR(stage_and_bind(allow_host_out));
    if (p.reduction != SCATTER_REDUCTION_NONE) {
        // Typed element access reads whole words: elements must be naturally aligned.
        uint32_t piece = std::min<uint32_t>(p.out.element_size, 4);
        if (out_.base_byte % piece != 0 || updates_.base_byte % piece != 0)
            return make_error(SCATTER_ERROR_UNSUPPORTED,
                              "on Vulkan, the buffer byte_offset of out and updates must be a multiple of %u for %s",
                              piece, p.out.info->name);
    }
    PathDevice device;
    device.algorithms = device_.algorithms;
    device.features = device_.features;
    device.window_bytes = device_.window_bytes;
    device.shared_memory_bytes = device_.shared_memory_bytes;
    device.slab_min_words = device_.slab_min_words;
    device.loop_limit = device_.loop_limit;
    const bool cpu = device_.info.type == SCATTER_DEVICE_TYPE_CPU && device_.algorithms.cpu_caches;
    device.sector_bytes = cpu ? 0 : kGpuSectorBytes;
    device.refused_paths = device_.refused_paths.load(std::memory_order_relaxed);
    PathAlignment alignment;
    alignment.data_typed = data_.base_byte % std::min<uint32_t>(p.out.element_size, 4) == 0;
    alignment.out_8 = (addressed_ ? out_.address : out_.start) % 8 == 0 && out_.base_byte % 8 == 0;
    alignment.quads = !addressed_ && out_.start % 16 == 0 && out_.base_byte % 16 == 0 && updates_.start % 16 == 0 &&
                      updates_.base_byte % 16 == 0 && (p.in_place || (data_.start % 16 == 0 && data_.base_byte % 16 == 0));
    path_ = choose_path(p, device, alignment);
    scratch_bytes_ = path_.scratch_words * 4;
    SCATTER_RETURN_IF_ERROR(check_loop_limit());
    SCATTER_RETURN_IF_ERROR(allocate(device_, scratch_bytes_, MemoryUse::Scratch, &scratch_.allocation));
    fill_parameters(reinterpret_cast<int32_t*>(arena_.allocation.mapped + params_at_));
    SCATTER_RETURN_IF_ERROR(write_descriptors());

    Passes passes;
    SCATTER_RETURN_IF_ERROR(choose_pipelines(&passes));
    const VkPipeline index_pass = passes.index, copy_pass = passes.copy, scatter_pass = passes.scatter;
    const VkPipeline buckets_pass = passes.buckets, atomic_pass = passes.atomic;

    const VolkDeviceTable& vk = device_.vk;
    // The small path resets the status words itself and keeps its winners in shared memory.
    const VulkanPath path = path_.path;
    const bool small = path == VulkanPath::Small;
    record_stage_in(cmd, /*reset_status=*/!small);
    // Zeroed scratch words: the owner path's hit counts; the target path's winners, or counts
    // and the list's total (adjacent).
    uint64_t zeroed_at = 0, zeroed_words = 0;
    if (path == VulkanPath::Target) {
        const TargetLayout& t = path_.target;
        zeroed_at = p.reduction == SCATTER_REDUCTION_NONE ? t.winner : t.counts;
        zeroed_words = uint64_t(t.keys) + (p.reduction == SCATTER_REDUCTION_NONE ? 0 : 1);
    } else if (path == VulkanPath::Owner && path_.has_counts) {
        zeroed_at = path_.counts_at;
        zeroed_words = uint64_t(p.out.element_count);
    }
    if (zeroed_words > 0) vk.vkCmdFillBuffer(cmd, scratch_.allocation.buffer, zeroed_at * 4, zeroed_words * 4, 0);
    if (path == VulkanPath::Atomic && float_max_min(p) && !p.out.empty())  // first-NaN table: no NaN yet
        vk.vkCmdFillBuffer(cmd, scratch_.allocation.buffer, path_.first_nan_at * 4, uint64_t(p.out.element_count) * 4,
                           SCATTER_STATUS_NONE);
    if (!small || mirrored()) record_transfers_done(cmd);

    if (p.op == OpKind::Elements) {
        // On the target path, WINNER/COUNT validate as they go (buckets.comp): one pass fewer.
        if (p.policy == SCATTER_OUT_OF_RANGE_ERROR && path != VulkanPath::Target && !small)
            dispatch(cmd, index_pass, SCATTER_MODE_VALIDATE_ELEMENTS, p.indices.element_count, "validate_elements");
    } else {
        dispatch(cmd, index_pass, SCATTER_MODE_RESOLVE_SLICES, p.slices, "resolve_slices");
    }
    if (needs_divisor_check(p)) dispatch(cmd, index_pass, SCATTER_MODE_CHECK_DIVISORS, p.updates.element_count, "check_divisors");
    if (path == VulkanPath::Atomic) {
        if (!p.in_place) dispatch(cmd, copy_pass, SCATTER_MODE_COPY, p.out.element_count, "copy");
        const int64_t updates = p.op == OpKind::Elements ? p.indices.element_count : p.outer * p.slices * p.inner;
        if (p.exclude_self) dispatch(cmd, atomic_pass, SCATTER_MODE_ATOMIC_RESET, updates, "atomic_reset");
        dispatch(cmd, atomic_pass, SCATTER_MODE_ATOMIC_APPLY, updates, "atomic_apply");
        if (passes.native_float_add) dispatch(cmd, atomic_pass, SCATTER_MODE_ATOMIC_CANONICALIZE, updates, "atomic_canonicalize");
        if (float_max_min(p)) dispatch(cmd, atomic_pass, SCATTER_MODE_ATOMIC_FIRST_NAN, updates, "atomic_first_nan");
    } else if (small) {
        dispatch(cmd, scatter_pass, SCATTER_MODE_SMALL_NONE, SCATTER_WORKGROUP_SIZE, "small_none", true);
    } else if (path == VulkanPath::Slab) {
        if (path_.slab_atomics)  // order-free reductions: shared-memory atomics (atomic.comp)
            dispatch(cmd, atomic_pass, SCATTER_MODE_SLAB, path_.slab_tiles * SCATTER_WORKGROUP_SIZE, "slab_atomic", true);
        else
            dispatch(cmd, scatter_pass, SCATTER_MODE_SLAB, path_.slab_tiles * SCATTER_WORKGROUP_SIZE, "slab", true);
    } else if (path == VulkanPath::Target) {
        SCATTER_RETURN_IF_ERROR(record_target_passes(cmd, buckets_pass, scatter_pass));
    } else if (!p.in_place) {
        dispatch(cmd, copy_pass, SCATTER_MODE_COPY, p.out.element_count, "copy");
    }
    if (path == VulkanPath::Owner && !p.no_updates()) {
        int64_t columns = p.op == OpKind::Elements ? p.indices.element_count / p.indices.shape[p.axis] : p.outer * p.inner;
        dispatch(cmd, scatter_pass, SCATTER_MODE_APPLY, columns, "apply_columns");
        if (p.reduction == SCATTER_REDUCTION_MEAN)
            dispatch(cmd, passes.finish_mean, SCATTER_MODE_FINISH_MEAN, p.out.element_count, "finish_mean");
    }

    return record_read_back(cmd);
}

bool RecordedOperation::raw_small_stores() const {
    // Byte and 16-bit stores (the `_ss` variants) where the device has 8/16-bit storage and out
    // has pieces that small; otherwise those pieces are written with two atomics on their word.
    // A byte copy (`none`, copy pass, gather) may meet both sizes, so it needs both features.
    const uint64_t both_small = SCATTER_FEATURE_STORAGE8 | SCATTER_FEATURE_STORAGE16;
    const bool small_pieces = (plan_.out.element_size | uint64_t(out_.base_byte) | uint64_t(data_.base_byte) |
                               uint64_t(updates_.base_byte)) % 4 != 0;
    return small_pieces && (device_.features & both_small) == both_small;
}

bool RecordedOperation::one_window_pipelines() const {
    // Every binding within its first window (the usual case: windows are up to 512 MiB): the
    // pipelines specialized for that, with no window switch in the accessors.
    const uint64_t window = device_.window_bytes;
    // (The `_ad` modules have no windows: the constant would only make a second pipeline.)
    bool one_window = device_.algorithms.one_window && scratch_bytes_ <= window && !addressed_;
    for (const Binding* b : {&out_, &data_, &indices_, &updates_}) one_window = one_window && b->end <= window;
    return one_window;
}

PipelineKey RecordedOperation::pipeline_key(Shader shader) const {
    PipelineKey k;
    k.shader = shader;
    k.one_window = one_window_pipelines();
    k.addresses = addressed_;
    return k;
}

Status RecordedOperation::choose_pipelines(Passes* out) const {
    const OpPlan& p = plan_;
    const uint64_t features = device_.features;
    const bool none = p.reduction == SCATTER_REDUCTION_NONE;
    const bool raw_small = raw_small_stores();
    const bool typed_small = (p.out.element_size == 1 && (features & SCATTER_FEATURE_STORAGE8)) ||
                             (p.out.element_size == 2 && (features & SCATTER_FEATURE_STORAGE16));
    // Subnormal-preserving variants (SPIR-V DenormPreserve), where the device allows it.
    const scatter_dtype t = p.data.dtype();
    const bool wide = t == SCATTER_DTYPE_F64 || t == SCATTER_DTYPE_C128;
    const bool real = wide || t == SCATTER_DTYPE_F32 || t == SCATTER_DTYPE_F16 || t == SCATTER_DTYPE_BF16 ||
                      t == SCATTER_DTYPE_C64;
    const bool denorm_preserve =
        !none && real && (features & (wide ? SCATTER_FEATURE_DENORM_PRESERVE64 : SCATTER_FEATURE_DENORM_PRESERVE32));
    PipelineKey scatter;
    scatter.shader = Shader::Scatter;
    scatter.dtype = none ? SCATTER_DTYPE_UNDEFINED : t;
    scatter.denorm_preserve = denorm_preserve;
    scatter.small_stores = none ? raw_small : typed_small;
    // f32 add/sub on the atomic path (allowed non-determinism): the device's float atomicAdd.
    const bool atomic = path_.path == VulkanPath::Atomic;
    out->native_float_add = atomic && t == SCATTER_DTYPE_F32 &&
                            (p.reduction == SCATTER_REDUCTION_ADD || p.reduction == SCATTER_REDUCTION_SUB) &&
                            (features & SCATTER_FEATURE_FLOAT32_ATOMIC_ADD);
    const bool one_window = one_window_pipelines();
    const bool addressed = addressed_;
    auto key = [this](Shader shader) { return pipeline_key(shader); };
    // Only the pipelines record() dispatches: a pipeline is compiled at its first use in the
    // process, and on lavapipe under ASan one takes seconds (a tiny call compiled all four).
    const VulkanPath path = path_.path;
    const bool small = path == VulkanPath::Small;
    const bool uses_index = p.op != OpKind::Elements || needs_divisor_check(p) ||
                            (p.policy == SCATTER_OUT_OF_RANGE_ERROR && path != VulkanPath::Target && !small);
    const bool uses_copy = !p.in_place && (path == VulkanPath::Atomic || path == VulkanPath::Owner);
    const bool uses_scatter = path != VulkanPath::Atomic && !(path == VulkanPath::Slab && path_.slab_atomics);
    // A pipeline only this path uses, refused by the driver: later calls on the device choose
    // another path (index and copy serve every path: their refusal fails the calls, and an AUTO
    // context runs host tensors on its CPU).
    auto path_get = [&](const PipelineKey& k, VkPipeline* pipeline) {
        return note_refusal(device_, path, pipelines_.get(k, pipeline));
    };
    if (uses_index) SCATTER_RETURN_IF_ERROR(pipelines_.get(key(Shader::Index), &out->index));
    if (uses_copy) {
        PipelineKey copy = key(Shader::Copy);
        copy.small_stores = raw_small;
        SCATTER_RETURN_IF_ERROR(pipelines_.get(copy, &out->copy));
    }
    if (path == VulkanPath::Target) {
        PipelineKey buckets = key(Shader::Buckets);
        buckets.subgroups = (features & SCATTER_FEATURE_SUBGROUPS) != 0;
        SCATTER_RETURN_IF_ERROR(path_get(buckets, &out->buckets));
    }
    scatter.one_window = one_window;
    scatter.addresses = addressed;
    scatter.slab_words = path_.slab_words;
    if (path == VulkanPath::Slab && path_.slab_subgroups) {  // `_sb`: no `_ss` pair (word atomics)
        scatter.subgroup_ballot = true;
        scatter.small_stores = false;
    }
    // The reduction as a specialization constant (reduction_constants): the pipeline then holds
    // only that reduction's arithmetic. `none` runs the byte copy, which has no other.
    const int32_t reduction = !none && device_.algorithms.reduction_constants ? int32_t(p.reduction) : -1;
    scatter.reduction = reduction;
    const bool mode_constants = device_.algorithms.mode_constants;
    scatter.mode = mode_constants ? int32_t(scatter_mode()) : -1;
    if (uses_scatter) SCATTER_RETURN_IF_ERROR(path_get(scatter, &out->scatter));
    if (path == VulkanPath::Owner && p.reduction == SCATTER_REDUCTION_MEAN && !p.no_updates()) {
        PipelineKey finish = scatter;
        finish.mode = mode_constants ? SCATTER_MODE_FINISH_MEAN : -1;
        SCATTER_RETURN_IF_ERROR(path_get(finish, &out->finish_mean));
    }
    if (atomic || path_.slab_atomics) {
        PipelineKey atomic_key = key(Shader::Atomic);
        atomic_key.dtype = t;
        atomic_key.native_float_add = out->native_float_add;
        atomic_key.slab = path_.slab_atomics;
        atomic_key.slab_words = path_.slab_atomics ? path_.slab_words : 0;
        atomic_key.reduction = reduction;
        SCATTER_RETURN_IF_ERROR(path_get(atomic_key, &out->atomic));
    }
    return Status();
}

Status RecordedOperation::check_loop_limit() {
    hits_limit_ = 0;
    const OpPlan& p = plan_;
    const VulkanPath path = path_.path;
    if (device_.loop_limit == 0 || path == VulkanPath::Atomic || path == VulkanPath::Slab || path == VulkanPath::Small ||
        p.no_updates())
        return Status();
    if (path == VulkanPath::Target) {  // `none` takes one winner per key, no loop; reductions sort and fold
        const TargetLayout& t = path_.target;
        if (p.reduction != SCATTER_REDUCTION_NONE)
            hits_limit_ = t.key_sort && t.chunk_items != 0 ? t.chunk_items * t.chunks
                                                           : loop_limited_items(p, device_.loop_limit, true);
        return Status();
    }
    // Owner-computes: each column folds the whole axis (elements) or every slice (rows/nd).
    const int64_t length = p.op == OpKind::Elements ? p.indices.shape[p.axis] : p.slices;
    const uint32_t limit = loop_limited_items(p, device_.loop_limit, false);
    return length > int64_t(limit) ? loop_limit_error(device_.info, uint64_t(length), limit, /*column=*/true) : Status();
}

Status RecordedOperation::record_target_passes(VkCommandBuffer cmd, VkPipeline buckets, VkPipeline scatter) {
    const TargetLayout& t = path_.target;
    if (plan_.reduction == SCATTER_REDUCTION_NONE) {
        dispatch(cmd, buckets, SCATTER_MODE_WINNER, t.items, "winner");
        if (t.segments) dispatch(cmd, scatter, SCATTER_MODE_GATHER_SEGMENTS, t.apply_invocations, "gather_segments");
        else dispatch(cmd, scatter, SCATTER_MODE_GATHER_WINNER, plan_.out.element_count, "gather_winner");
        return Status();
    }
    if (t.key_sort) {  // the items sorted by key (stable: row-major order within a key)
        dispatch(cmd, buckets, SCATTER_MODE_ITEM_KEYS, t.items, "item_keys");
        RadixSortBinding binding;
        binding.set = descriptors_.set;
        binding.buffer = scratch_.allocation.buffer;
        binding.window_bytes = device_.window_bytes;
        binding.one_window = device_.algorithms.one_window && scratch_bytes_ <= device_.window_bytes;
        SCATTER_RETURN_IF_ERROR(note_refusal(
            device_, VulkanPath::Target,
            record_radix_sort(device_, pipelines_, cmd, t.sort, binding, true, uint32_t(t.total), timer_)));
        bound_pipeline_ = VK_NULL_HANDLE;  // the sort's pipelines (the same set, bound again)
        dispatch(cmd, buckets, SCATTER_MODE_KEY_RANGES, t.items, "key_ranges");
        dispatch(cmd, scatter, apply_mode(), t.apply_invocations, apply_pass_name(), fold_whole_grid());
        if (chunk_passes() > 1) dispatch_chunks(cmd, buckets, scatter);
        return Status();
    }
    dispatch(cmd, buckets, SCATTER_MODE_COUNT, t.items, "count");
    dispatch(cmd, buckets, SCATTER_MODE_ALLOCATE, t.keys, "allocate", true);
    dispatch(cmd, buckets, SCATTER_MODE_PLACE, t.items, "place");
    // Allowed non-determinism: each target folds its updates in arrival order, unsorted (exact
    // anyway for order-independent reductions: integer add/sub/mul, max/min up to NaN payloads).
    if (plan_.deterministic) dispatch(cmd, buckets, SCATTER_MODE_SORT, t.keys, "sort");
    dispatch(cmd, scatter, apply_mode(), t.apply_invocations, apply_pass_name(), fold_whole_grid());
    return Status();
}

Status RecordedOperation::bad_index() const {
    const OpPlan& p = plan_;
    const uint32_t* status = reinterpret_cast<const uint32_t*>(arena_.allocation.mapped + status_at_);
    const TensorView& idx = p.indices;
    const int64_t* strides[] = {idx.strides};
    StridedWalk<1> walk(idx.rank, idx.shape, strides);
    walk.seek(int64_t(status[S_BAD_INDEX]));
    const bool is_i64 = idx.dtype() == SCATTER_DTYPE_I64;
    char bytes[8] = {};
    if (idx.buffer == nullptr) {
        // The staged copy: the caller's array may be gone (batches and recordings copy host
        // inputs at record time and report failures later).
        const char* element0 = arena_.allocation.mapped + indices_staged_at_ - idx.min_byte;
        std::memcpy(bytes, element0 + walk.offset(0) * idx.element_size, idx.element_size);
    } else {
        SCATTER_RETURN_IF_ERROR(vulkan_buffer(idx.buffer).read(
            uint64_t(int64_t(idx.byte_offset) + walk.offset(0) * idx.element_size), bytes, idx.element_size));
    }
    // nd: the coordinate's own data dimension (a gather's p.axis is its first, batch_dims).
    const uint32_t axis = uint32_t(p.axis) + (p.op == OpKind::Nd ? uint32_t(walk.position(idx.rank - 1)) : 0u);
    const int64_t value = load_index(bytes, is_i64, 0);
    // Only a gather records an index under CLAMP: one into an empty dimension (gather.comp).
    if (p.policy == SCATTER_OUT_OF_RANGE_CLAMP) return clamp_error(walk.position(), idx.rank, value, axis);
    return index_error(walk.position(), idx.rank, value, p.data.shape[axis], axis);
}

Status RecordedOperation::zero_divisor() const {
    const uint32_t* status = reinterpret_cast<const uint32_t*>(arena_.allocation.mapped + status_at_);
    const TensorView& upd = plan_.updates;
    const int64_t* strides[] = {upd.strides};
    StridedWalk<1> walk(upd.rank, upd.shape, strides);
    walk.seek(int64_t(status[S_BAD_DIVISOR]));
    return divisor_error(walk.position(), upd.rank);
}

Status RecordedOperation::finish() {
    const uint32_t* status = reinterpret_cast<const uint32_t*>(arena_.allocation.mapped + status_at_);
    if (status[S_BAD_INDEX] != SCATTER_STATUS_NONE) return bad_index();
    if (status[S_BAD_DIVISOR] != SCATTER_STATUS_NONE) return zero_divisor();
    if (status[S_LOOP_LIMIT] != SCATTER_STATUS_NONE) return loop_limit_error(device_.info, ~status[S_LOOP_LIMIT], hits_limit_);
    const TensorView& out = plan_.out;
    if (!out_on_host_ || out.empty()) return Status();
    const char* staged = arena_.allocation.mapped + out_staged_at_ - out.min_byte;  // element 0
    if (out.contiguous) {
        std::memcpy(out.host, staged, size_t(out.end_byte));
        return Status();
    }
    // Element by element: the gaps between strided elements are not ours to write.
    const int64_t* strides[] = {out.strides};
    StridedWalk<1> walk(out.rank, out.shape, strides);
    const size_t size = out.element_size;
    for (int64_t i = 0; i < out.element_count; ++i, walk.next())
        std::memcpy(out.host + walk.offset(0) * int64_t(size), staged + walk.offset(0) * int64_t(size), size);
    return Status();
}

}  // namespace scatter
