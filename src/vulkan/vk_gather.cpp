// RecordedOperation::record_gather: a gather recorded with the scatter recording's staging,
// bindings, barriers and read-back (vk_operation.cpp), and its own module (shaders/gather.comp).
#include "vulkan/vk_operation.h"

#include "scatter_shared.h"

namespace scatter {
namespace {

// FILL's value as a one-element host tensor; an empty one under the other policies.
TensorView fill_view(const GatherPlan& g, const char* bytes) {
    TensorView v;
    v.info = g.data.info;
    v.element_size = g.data.element_size;
    v.rank = 1;
    v.strides[0] = 1;
    const bool fill = g.policy == SCATTER_OUT_OF_RANGE_FILL;
    v.shape[0] = fill ? 1 : 0;
    v.element_count = v.shape[0];
    v.end_byte = fill ? int64_t(v.element_size) : 0;
    v.host = fill ? const_cast<char*>(bytes) : nullptr;  // only read (staged)
    return v;
}

// The gather in the recorder's terms: `updates` is the fill value, and `axis` the data dimension
// of the first index coordinate (nd: batch_dims), as gather.comp reads P_AXIS.
OpPlan recorded_plan(const GatherPlan& g, const TensorView& fill) {
    OpPlan p;
    p.op = g.op;
    p.data = g.data;
    p.indices = g.indices;
    p.out = g.out;
    p.updates = fill;
    p.axis = int32_t(g.first_indexed_axis());
    p.policy = g.policy;
    p.index_depth = g.index_depth;
    p.profile = g.profile;
    return p;
}

// P_GATHER_*: how out's dimensions split into data's pass-through ones, indices' head ones and
// the slice's (scatter_shared.h).
void fill_gather_parameters(const GatherPlan& g, int32_t* p) {
    const int32_t r = int32_t(g.data.rank), q = int32_t(g.indices.rank);
    switch (g.op) {
        case OpKind::Elements:
            p[P_GATHER_PREFIX] = r;
            p[P_GATHER_INDEX_FIRST] = 0;
            p[P_GATHER_INDEX_DIMS] = r;
            break;
        case OpKind::Rows:
            p[P_GATHER_PREFIX] = g.axis;
            p[P_GATHER_INDEX_FIRST] = g.axis;
            p[P_GATHER_INDEX_DIMS] = q;
            break;
        case OpKind::Nd:
            p[P_GATHER_PREFIX] = int32_t(g.batch_dims);
            p[P_GATHER_INDEX_FIRST] = 0;
            p[P_GATHER_INDEX_DIMS] = q - 1;
            break;
    }
}

// Whether the indices are read before out is written: every index under ERROR; under CLAMP only
// when an indexed dimension is empty (nothing to clamp to: the first index into it fails).
bool validates(const GatherPlan& g) {
    if (g.indices.empty() || g.policy == SCATTER_OUT_OF_RANGE_FILL) return false;
    if (g.policy == SCATTER_OUT_OF_RANGE_ERROR) return true;
    for (uint32_t c = 0; c < g.index_depth; ++c)
        if (g.data.shape[g.first_indexed_axis() + c] == 0) return true;
    return false;
}

}  // namespace

Status RecordedOperation::record_gather(const GatherPlan& plan, VkCommandBuffer cmd, bool allow_host_out,
                                        PassTimer* timer) {
    const char* fill = plan.fill_value;
    if (plan.policy == SCATTER_OUT_OF_RANGE_FILL && fill == nullptr) {
        fill_zeros_.assign(plan.data.element_size, 0);
        fill = fill_zeros_.data();
    }
    start(recorded_plan(plan, fill_view(plan, fill)), timer);
    SCATTER_RETURN_IF_ERROR(check_device_support());
    SCATTER_RETURN_IF_ERROR(stage_and_bind(allow_host_out));
    path_ = PathChoice();
    scratch_bytes_ = 0;
    // No scratch is read; a word of it keeps every descriptor and address valid.
    SCATTER_RETURN_IF_ERROR(allocate(device_, 4, MemoryUse::Scratch, &scratch_.allocation));
    int32_t* params = reinterpret_cast<int32_t*>(arena_.allocation.mapped + params_at_);
    fill_tensor_parameters(params);
    fill_gather_parameters(plan, params);
    SCATTER_RETURN_IF_ERROR(write_descriptors());
    PipelineKey key = pipeline_key(Shader::Gather);
    key.small_stores = raw_small_stores();
    VkPipeline pipeline = VK_NULL_HANDLE;
    SCATTER_RETURN_IF_ERROR(pipelines_.get(key, &pipeline));

    record_stage_in(cmd, /*reset_status=*/true);
    record_transfers_done(cmd);
    if (validates(plan))
        dispatch(cmd, pipeline, SCATTER_MODE_GATHER_VALIDATE, plan.indices.element_count, "gather_validate");
    dispatch(cmd, pipeline, SCATTER_MODE_GATHER, plan.out.element_count, "gather");
    return record_read_back(cmd);
}

}  // namespace scatter
