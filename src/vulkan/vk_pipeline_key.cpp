#include "vulkan/vk_pipeline_key.h"

#include "core/dtype.h"

#include <tuple>

namespace scatter {
namespace {

auto fields(const PipelineKey& k) {
    return std::tie(k.shader, k.dtype, k.small_stores, k.denorm_preserve, k.subgroups, k.subgroup_ballot, k.native_float_add,
                    k.four_bit_digits, k.ordered_writes, k.slab, k.addresses, k.one_window, k.slab_words, k.reduction, k.mode);
}

const char* dtype_suffix(scatter_dtype dtype) {
    const DtypeInfo* info = find_dtype(dtype);
    return info != nullptr && dtype != SCATTER_DTYPE_OPAQUE ? info->name : "raw";
}

}  // namespace

bool operator<(const PipelineKey& a, const PipelineKey& b) { return fields(a) < fields(b); }
bool operator==(const PipelineKey& a, const PipelineKey& b) { return fields(a) == fields(b); }

std::string module_name(const PipelineKey& key) {
    const char* addresses = key.addresses ? "_ad" : "";
    switch (key.shader) {
        case Shader::Index: return std::string("index") + addresses;
        case Shader::Copy: return std::string(key.small_stores ? "copy_ss" : "copy") + addresses;
        case Shader::Gather: return std::string(key.small_stores ? "gather_ss" : "gather") + addresses;
        case Shader::Buckets: return std::string(key.subgroups ? "buckets_sg" : "buckets") + addresses;
        case Shader::RadixSort: return key.four_bit_digits ? "radix_sort_d4" : "radix_sort";  // scratch only
        case Shader::Atomic:
            return std::string("atomic_") + dtype_suffix(key.dtype) + (key.native_float_add ? "_fa" : "") +
                   (key.slab ? "_slab" : "") + addresses;
        case Shader::Scatter:
            return std::string("scatter_") + dtype_suffix(key.dtype) + (key.denorm_preserve ? "_dp" : "") +
                   (key.small_stores ? "_ss" : "") + (key.subgroup_ballot ? "_sb" : "") + addresses;
    }
    return "";
}

}  // namespace scatter
