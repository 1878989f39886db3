// The SPIR-V modules embedded at build time (cmake/shaders.cmake generates the definition).
#pragma once

#include <cstddef>
#include <cstdint>

namespace scatter {

struct ShaderCode {
    const char* name;  // "index", "copy", "scatter_raw", "scatter_f32", ...
    const uint32_t* words;
    size_t size_bytes;
};

// The module called `name`, or nullptr.
const ShaderCode* find_shader_code(const char* name);

}  // namespace scatter
