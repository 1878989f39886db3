// Pipeline keys (src/vulkan/vk_pipeline_key.h): every key the recorder can build names a module
// the build embedded (cmake/shaders.cmake names them; module_name() is the one translation), and
// no two keys share a module unless they differ only in specialization constants. No device.
#include "vulkan/shader_registry.h"
#include "vulkan/vk_pipeline_key.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace {

using scatter::PipelineKey;
using scatter::Shader;

bool float_dtype(scatter_dtype t) {
    return t == SCATTER_DTYPE_F16 || t == SCATTER_DTYPE_BF16 || t == SCATTER_DTYPE_F32 || t == SCATTER_DTYPE_F64 ||
           t == SCATTER_DTYPE_C64 || t == SCATTER_DTYPE_C128;
}

// The keys choose_pipelines and the radix sort may ask for, by the rules they follow: 8/16-bit
// stores for the byte copy and 1- and 2-byte dtypes, subnormal-preserving variants for float
// dtypes, the slab's ordered fold by subgroups for every dtype but the byte copy, atomics for every dtype but c128 (none is 16 bytes wide), f32's float atomicAdd, the
// slab path's atomic folds; each also with tensors by buffer device address (`_ad`).
std::vector<PipelineKey> reachable_keys() {
    std::vector<PipelineKey> keys;
    auto add = [&](PipelineKey k) {
        for (bool addresses : {false, true}) {
            if (addresses && k.shader == Shader::RadixSort) continue;  // scratch only: windows hold it
            for (bool one_window : {false, true}) {
                k.one_window = one_window;
                k.addresses = addresses;
                keys.push_back(k);
            }
        }
    };
    PipelineKey k;
    k.shader = Shader::Index;
    add(k);
    for (Shader s : {Shader::Copy, Shader::Buckets, Shader::RadixSort, Shader::Gather}) {
        for (bool variant : {false, true}) {
            k = PipelineKey();
            k.shader = s;
            k.small_stores = (s == Shader::Copy || s == Shader::Gather) && variant;
            k.subgroups = s == Shader::Buckets && variant;
            k.four_bit_digits = s == Shader::RadixSort && variant;
            add(k);
        }
    }
    for (int d = SCATTER_DTYPE_UNDEFINED; d < SCATTER_DTYPE_OPAQUE; ++d) {
        const auto t = scatter_dtype(d);
        const bool raw = t == SCATTER_DTYPE_UNDEFINED;
        const bool small = raw || scatter_dtype_size(t) <= 2;
        for (bool ss : {false, true}) {
            for (bool dp : {false, true}) {
                if ((ss && !small) || (dp && (raw || !float_dtype(t)))) continue;
                k = PipelineKey();
                k.shader = Shader::Scatter;
                k.dtype = t;
                k.small_stores = ss;
                k.denorm_preserve = dp;
                add(k);
                k.slab_words = 4096;  // specialization constants: the same module
                add(k);
                k.reduction = SCATTER_REDUCTION_ADD;
                add(k);
                if (ss || raw) continue;
                k.subgroup_ballot = true;  // the slab's ordered fold by subgroups: no `_ss` pair
                k.slab_words = 0;
                add(k);
                k.slab_words = 4096;
                add(k);
            }
        }
        if (raw || t == SCATTER_DTYPE_C128) continue;
        k = PipelineKey();
        k.shader = Shader::Atomic;
        k.dtype = t;
        add(k);
        k.reduction = SCATTER_REDUCTION_MAX;
        add(k);
        k.reduction = -1;
        if (t == SCATTER_DTYPE_F32) {
            k.native_float_add = true;
            add(k);
        }
        // The slab path's order-free folds: integers and the real floats of 4 and 8 bytes.
        if ((t >= SCATTER_DTYPE_I8 && t <= SCATTER_DTYPE_U64) || t == SCATTER_DTYPE_F32 || t == SCATTER_DTYPE_F64) {
            k = PipelineKey();
            k.shader = Shader::Atomic;
            k.dtype = t;
            k.slab = true;
            add(k);
            k.slab_words = 4096;
            add(k);
        }
    }
    return keys;
}

TEST(PipelineKeys, EveryReachableKeyNamesAnEmbeddedModule) {
    const std::vector<PipelineKey> keys = reachable_keys();
    ASSERT_GT(keys.size(), 100u);
    for (const PipelineKey& key : keys) {
        const std::string name = scatter::module_name(key);
        EXPECT_NE(scatter::find_shader_code(name.c_str()), nullptr) << name;
    }
}

TEST(PipelineKeys, DistinctVariantsNameDistinctModules) {
    std::map<std::string, PipelineKey> seen;
    for (PipelineKey key : reachable_keys()) {
        key.one_window = false;
        key.slab_words = 0;
        key.reduction = -1;
        auto [at, inserted] = seen.emplace(scatter::module_name(key), key);
        if (!inserted) {
            EXPECT_TRUE(at->second == key) << at->first << " names two variants";
        }
    }
    EXPECT_EQ(scatter::module_name(PipelineKey{Shader::Scatter, SCATTER_DTYPE_BF16, true, true}), "scatter_bf16_dp_ss");
    EXPECT_EQ(scatter::module_name(PipelineKey{Shader::Scatter, SCATTER_DTYPE_UNDEFINED, true}), "scatter_raw_ss");
    PipelineKey ballot{Shader::Scatter, SCATTER_DTYPE_F32, false, true};
    ballot.subgroup_ballot = true;
    ballot.addresses = true;
    EXPECT_EQ(scatter::module_name(ballot), "scatter_f32_dp_sb_ad");
    PipelineKey slab{Shader::Atomic, SCATTER_DTYPE_I64};
    slab.slab = true;
    EXPECT_EQ(scatter::module_name(slab), "atomic_i64_slab");
    PipelineKey addressed{Shader::Atomic, SCATTER_DTYPE_F32};
    addressed.native_float_add = true;
    addressed.addresses = true;
    EXPECT_EQ(scatter::module_name(addressed), "atomic_f32_fa_ad");
    addressed = PipelineKey{Shader::RadixSort};
    addressed.addresses = true;  // the sort reads scratch through windows in every call
    EXPECT_EQ(scatter::module_name(addressed), "radix_sort");
}

TEST(PipelineKeys, OrderIsStrictAndCoversEveryField) {
    PipelineKey a, b;
    EXPECT_FALSE(a < b);
    EXPECT_FALSE(b < a);
    b.reduction = SCATTER_REDUCTION_ADD;  // the last field still tells keys apart
    EXPECT_TRUE(a < b);
    EXPECT_FALSE(b < a);
    EXPECT_FALSE(a == b);
}

}  // namespace
