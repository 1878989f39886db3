#include "vulkan/vk_pipelines.h"

#include "vulkan/shader_registry.h"
#include "vulkan/vk_result.h"

#include "scatter_shared.h"

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace scatter {
namespace {

// One stderr line per executable of `pipeline`: what the driver reports of it (register count,
// shared memory, spills...), for GPU sessions that ask why a pass is slow (vk_switches.h).
void print_pipeline_statistics(const VulkanDevice& device, VkPipeline pipeline, const std::string& name,
                               const PipelineKey& key) {
    if (device.vk.vkGetPipelineExecutablePropertiesKHR == nullptr ||
        device.vk.vkGetPipelineExecutableStatisticsKHR == nullptr)
        return;
    auto pipeline_info = vk_struct<VkPipelineInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR);
    pipeline_info.pipeline = pipeline;
    uint32_t executables = 0;
    if (device.vk.vkGetPipelineExecutablePropertiesKHR(device.device, &pipeline_info, &executables, nullptr) != VK_SUCCESS)
        return;
    for (uint32_t e = 0; e < executables; ++e) {
        auto executable = vk_struct<VkPipelineExecutableInfoKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR);
        executable.pipeline = pipeline;
        executable.executableIndex = e;
        uint32_t count = 0;
        if (device.vk.vkGetPipelineExecutableStatisticsKHR(device.device, &executable, &count, nullptr) != VK_SUCCESS)
            continue;
        std::vector<VkPipelineExecutableStatisticKHR> stats(
            count, vk_struct<VkPipelineExecutableStatisticKHR>(VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR));
        if (device.vk.vkGetPipelineExecutableStatisticsKHR(device.device, &executable, &count, stats.data()) < 0)
            continue;
        std::string line = "scatter pipeline " + name + " reduction=" + std::to_string(key.reduction) +
                           " slab_words=" + std::to_string(key.slab_words) + " mode=" + std::to_string(key.mode) + ":";
        for (uint32_t i = 0; i < count; ++i) {
            const VkPipelineExecutableStatisticKHR& st = stats[i];
            std::string value;
            switch (st.format) {
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: value = st.value.b32 ? "true" : "false"; break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: value = std::to_string(st.value.i64); break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: value = std::to_string(st.value.u64); break;
                case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: value = std::to_string(st.value.f64); break;
                default: value = "?";
            }
            line += std::string(" ") + st.name + "=" + value + ";";
        }
        std::fprintf(stderr, "%s\n", line.c_str());
    }
}

}  // namespace

PipelineSet::~PipelineSet() {
    for (auto& entry : pipelines_) device_.vk.vkDestroyPipeline(device_.device, entry.second, nullptr);
    if (cache_ != VK_NULL_HANDLE) device_.vk.vkDestroyPipelineCache(device_.device, cache_, nullptr);
    if (layout_ != VK_NULL_HANDLE) device_.vk.vkDestroyPipelineLayout(device_.device, layout_, nullptr);
    if (set_layout_ != VK_NULL_HANDLE) device_.vk.vkDestroyDescriptorSetLayout(device_.device, set_layout_, nullptr);
}

Status PipelineSet::init(const void* initial_cache, size_t initial_cache_size) {
    VkDescriptorSetLayoutBinding bindings[SCATTER_BINDING_COUNT] = {};
    for (uint32_t b = 0; b < SCATTER_BINDING_COUNT; ++b) {
        bindings[b].binding = b;
        bindings[b].descriptorType =
            b == SCATTER_BINDING_PARAMS ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        bindings[b].descriptorCount = b < SCATTER_BINDING_OUT ? 1 : SCATTER_WINDOWS;
        bindings[b].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    auto set_info = vk_struct<VkDescriptorSetLayoutCreateInfo>(VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
    set_info.bindingCount = SCATTER_BINDING_COUNT;
    set_info.pBindings = bindings;
    SCATTER_VK_CHECK(device_.vk.vkCreateDescriptorSetLayout(device_.device, &set_info, nullptr, &set_layout_),
                     "vkCreateDescriptorSetLayout");
    VkPushConstantRange push{VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(PushConstants)};
    auto layout_info = vk_struct<VkPipelineLayoutCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
    layout_info.setLayoutCount = 1;
    layout_info.pSetLayouts = &set_layout_;
    layout_info.pushConstantRangeCount = 1;
    layout_info.pPushConstantRanges = &push;
    SCATTER_VK_CHECK(device_.vk.vkCreatePipelineLayout(device_.device, &layout_info, nullptr, &layout_),
                     "vkCreatePipelineLayout");
    auto cache_info = vk_struct<VkPipelineCacheCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
    cache_info.initialDataSize = initial_cache_size;
    cache_info.pInitialData = initial_cache_size > 0 ? initial_cache : nullptr;
    SCATTER_VK_CHECK(device_.vk.vkCreatePipelineCache(device_.device, &cache_info, nullptr, &cache_),
                     "vkCreatePipelineCache");
    return Status();
}

namespace {

// Running out of memory and a lost device are the call's own failures (tried again next call);
// any other failure to create a module or pipeline is the driver refusing this one.
bool refusal_result(VkResult r) {
    return r != VK_SUCCESS && r != VK_ERROR_OUT_OF_HOST_MEMORY && r != VK_ERROR_OUT_OF_DEVICE_MEMORY &&
           r != VK_ERROR_DEVICE_LOST;
}

}  // namespace

Status PipelineSet::refuse(const PipelineKey& key, const std::string& name, int32_t result, const char* call) {
    refused_[key] = result;
    if (result == VK_SUCCESS)
        return make_error(SCATTER_ERROR_UNSUPPORTED,
                          "the Vulkan driver refused the pipeline of shader %s (%s returned VK_SUCCESS and a null "
                          "handle), so this device's later calls avoid it",
                          name.c_str(), call);
    return make_error(SCATTER_ERROR_UNSUPPORTED,
                      "the Vulkan driver refused the pipeline of shader %s (%s returned %s), so this device's later "
                      "calls avoid it",
                      name.c_str(), call, vk_result_name(result));
}

Status PipelineSet::get(const PipelineKey& key, VkPipeline* out) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = pipelines_.find(key);
    if (found != pipelines_.end()) {
        *out = found->second;
        return Status();
    }
    const std::string name = module_name(key);
    auto refused = refused_.find(key);
    if (refused != refused_.end())
        return make_error(SCATTER_ERROR_UNSUPPORTED,
                          "the Vulkan driver refused the pipeline of shader %s earlier on this device (%s), and it "
                          "is not asked again",
                          name.c_str(), refused->second == VK_SUCCESS ? "a null handle" : vk_result_name(refused->second));
    const ShaderCode* code = find_shader_code(name.c_str());
    if (code == nullptr) return make_error(SCATTER_ERROR_INTERNAL, "no embedded shader named %s", name.c_str());
    const InjectedRefusal injected = injected_refusal(device_.refuse_pipelines, name.c_str());
    auto module_info = vk_struct<VkShaderModuleCreateInfo>(VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
    module_info.codeSize = code->size_bytes;
    module_info.pCode = code->words;
    VkShaderModule module = VK_NULL_HANDLE;
    const VkResult module_result = device_.vk.vkCreateShaderModule(device_.device, &module_info, nullptr, &module);
    if (refusal_result(module_result)) return refuse(key, name, module_result, "vkCreateShaderModule");
    SCATTER_VK_CHECK(module_result, "vkCreateShaderModule");
    if (module == VK_NULL_HANDLE) return refuse(key, name, VK_SUCCESS, "vkCreateShaderModule");
    auto info = vk_struct<VkComputePipelineCreateInfo>(VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
    info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module;
    info.stage.pName = "main";
    // Constant 2 (common.glsl OPAQUE_PARAM_OFFSETS): on llvmpipe, parameter offsets it cannot
    // inline (it would compile, and leak, a shader variant at every bind).
    const bool llvmpipe = std::strncmp(device_.info.name, "llvmpipe", 8) == 0;
    const struct {
        VkBool32 one_window;
        VkBool32 opaque_param_offsets;
        int32_t reduction;
        VkBool32 looping_tiles;
        VkBool32 ordered_writes;
        int32_t mode;
        uint32_t slab_words;
    } values = {key.one_window ? VK_TRUE : VK_FALSE, llvmpipe ? VK_TRUE : VK_FALSE, key.reduction,
                device_.looping_groups != 0 ? VK_TRUE : VK_FALSE, key.ordered_writes ? VK_TRUE : VK_FALSE,
                key.mode, key.slab_words};
    // (Constants 3 and 4 exist in the modules that include common.glsl, 5 in radix_sort.comp,
    // 6 in scatter.comp; the others ignore them.)
    // Constant 4 (common.glsl LOOPING_TILES): the passes loop over tiles where the host caps
    // their grid; uncapped (a driver with a loop limit), each workgroup runs its one tile.
    const VkSpecializationMapEntry entries[7] = {
        {0, offsetof(decltype(values), one_window), sizeof(VkBool32)},
        {2, offsetof(decltype(values), opaque_param_offsets), sizeof(VkBool32)},
        {3, offsetof(decltype(values), reduction), sizeof(int32_t)},
        {4, offsetof(decltype(values), looping_tiles), sizeof(VkBool32)},
        {5, offsetof(decltype(values), ordered_writes), sizeof(VkBool32)},
        {6, offsetof(decltype(values), mode), sizeof(int32_t)},
        {1, offsetof(decltype(values), slab_words), sizeof(uint32_t)}};
    VkSpecializationInfo specialization{key.slab_words != 0 ? 7u : 6u, entries, sizeof values, &values};
    info.stage.pSpecializationInfo = &specialization;
    info.layout = layout_;
    if (device_.pipeline_stats) info.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkResult r = VK_ERROR_UNKNOWN;  // the test switch's refusal (vk_switches.h), in the driver's place
    if (injected == InjectedRefusal::None)
        r = device_.vk.vkCreateComputePipelines(device_.device, cache_, 1, &info, nullptr, &pipeline);
    else if (injected == InjectedRefusal::NullHandle)
        r = VK_SUCCESS;
    device_.vk.vkDestroyShaderModule(device_.device, module, nullptr);
    if (refusal_result(r)) {
        if (pipeline != VK_NULL_HANDLE) device_.vk.vkDestroyPipeline(device_.device, pipeline, nullptr);
        return refuse(key, name, r, "vkCreateComputePipelines");
    }
    if (r != VK_SUCCESS) return vk_error(r, "vkCreateComputePipelines");
    if (pipeline == VK_NULL_HANDLE) return refuse(key, name, VK_SUCCESS, "vkCreateComputePipelines");
    if (device_.pipeline_stats) print_pipeline_statistics(device_, pipeline, name, key);
    pipelines_[key] = pipeline;
    *out = pipeline;
    return Status();
}

Status PipelineSet::export_cache(std::vector<uint8_t>* out) {
    std::lock_guard<std::mutex> lock(mutex_);
    size_t size = 0;
    SCATTER_VK_CHECK(device_.vk.vkGetPipelineCacheData(device_.device, cache_, &size, nullptr), "vkGetPipelineCacheData");
    out->resize(size);
    SCATTER_VK_CHECK(device_.vk.vkGetPipelineCacheData(device_.device, cache_, &size, out->data()),
                     "vkGetPipelineCacheData");
    out->resize(size);
    return Status();
}

}  // namespace scatter
