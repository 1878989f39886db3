#include "vulkan/vk_pipeline_key.h"

#include "core/dtype.h"

#include <tuple>

namespace scatter {
namespace {

auto fields(const PipelineKey& k) {
    return std::tie(k.shader, k.dtype, k.small_stores, k.denorm_preserve, k.subgroups, k.native_float_add,
                    k.four_bit_digits, k.slab, k.one_window, k.slab_words, k.reduction);
}

const char* dtype_suffix(scatter_dtype dtype) {
    const DtypeInfo* info = find_dtype(dtype);
    return info != nullptr && dtype != SCATTER_DTYPE_OPAQUE ? info->name : "raw";
}

}  // namespace

bool operator<(const PipelineKey& a, const PipelineKey& b) { return fields(a) < fields(b); }
bool operator==(const PipelineKey& a, const PipelineKey& b) { return fields(a) == fields(b); }

std::string module_name(const PipelineKey& key) {
    switch (key.shader) {
        case Shader::Index: return "index";
        case Shader::Copy: return key.small_stores ? "copy_ss" : "copy";
        case Shader::Buckets: return key.subgroups ? "buckets_sg" : "buckets";
        case Shader::RadixSort: return key.four_bit_digits ? "radix_sort_d4" : "radix_sort";
        case Shader::Atomic:
            return std::string("atomic_") + dtype_suffix(key.dtype) + (key.native_float_add ? "_fa" : "") +
                   (key.slab ? "_slab" : "");
        case Shader::Scatter:
            return std::string("scatter_") + dtype_suffix(key.dtype) + (key.denorm_preserve ? "_dp" : "") +
                   (key.small_stores ? "_ss" : "");
    }
    return "";
}

}  // namespace scatter
