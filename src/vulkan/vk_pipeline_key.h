// Which pipeline a pass runs, as a typed key: the embedded module's variant (the -D defines
// cmake/shaders.cmake compiles it with) and the specialization constants. module_name() is the
// one place that turns a key into the registry's name (shader_registry.h).
#pragma once

#include "scatter/scatter.h"

#include <cstdint>
#include <string>

namespace scatter {

// One GLSL source each (shaders/*.comp).
enum class Shader : uint8_t { Index, Copy, Buckets, Scatter, Atomic, RadixSort, Gather };

struct PipelineKey {
    Shader shader = Shader::Index;
    // Scatter and Atomic: the element type; UNDEFINED selects the scatter pass's byte copy
    // (`none` of every dtype, opaque included).
    scatter_dtype dtype = SCATTER_DTYPE_UNDEFINED;
    bool small_stores = false;      // Copy, Scatter, Gather: 8/16-bit stores into out (`_ss`)
    bool denorm_preserve = false;   // Scatter, float dtypes: subnormals kept (`_dp`)
    bool subgroups = false;         // Buckets: ALLOCATE's scan in subgroup operations (`_sg`)
    bool subgroup_ballot = false;   // Scatter, reductions: the slab's ordered fold by subgroups (`_sb`)
    bool native_float_add = false;  // Atomic, f32: the device's float atomicAdd (`_fa`)
    bool four_bit_digits = false;   // RadixSort: 4-bit digits (`_d4`)
    bool ordered_writes = false;    // RadixSort: specialization constant 5 (radix_sort.comp)
    bool slab = false;              // Atomic: the slab path's order-free folds (`_slab`)
    bool addresses = false;         // all but RadixSort: tensors by buffer device address (`_ad`)
    // Specialization constants: 0, every binding within its first window; 1, the slab path's
    // shared table in words (0: the shader's default); 3 (Scatter, Atomic), the call's reduction,
    // so that the pipeline holds only its arithmetic (-1: read from the parameters, any reduction).
    // 6 (Scatter), the one pass mode the pipeline runs (SCATTER_MODE_*; -1: any, read from the
    // push constants).
    bool one_window = false;
    uint32_t slab_words = 0;
    int32_t reduction = -1;
    int32_t mode = -1;
};

bool operator<(const PipelineKey& a, const PipelineKey& b);
bool operator==(const PipelineKey& a, const PipelineKey& b);

// The embedded module the key runs, e.g. "scatter_f32_dp_ss", "scatter_f32_dp_sb", "buckets_sg", "atomic_f32_fa_ad".
std::string module_name(const PipelineKey& key);

}  // namespace scatter
