// VkResult names for messages: every failure of a Vulkan call names the call and its result.
#pragma once

#include <cstdint>

namespace scatter {

// The enumerator's name of a VkResult value ("VK_ERROR_UNKNOWN" for -13), or "an unnamed
// VkResult" for a value no Vulkan header this library knows defines. Pure: no Vulkan include,
// so that it is tested without a device.
const char* vk_result_name(int32_t result);

}  // namespace scatter
