# Compiles the GLSL compute shaders of shaders/ to SPIR-V at build time, validates every module
# with spirv-val, and embeds them as uint32_t arrays behind a generated registry
# (scatter::find_shader_code, declared in src/vulkan/shader_registry.h). One GLSL source per
# algorithm; variants are produced by -D defines listed here, never by copied sources.

find_program(SCATTER_GLSLANG glslangValidator REQUIRED)
# spirv-val checks every module where it is installed; the tests require it, a library-only
# build (a subproject, make demo) does without.
if(SCATTER_BUILD_TESTS)
  find_program(SCATTER_SPIRV_VAL spirv-val REQUIRED)
else()
  find_program(SCATTER_SPIRV_VAL spirv-val)
endif()

set(SCATTER_SHADER_DIR ${PROJECT_SOURCE_DIR}/shaders)

# The scatter pass has one variant per element type: the value of scatter_dtype, or 0 for
# `none` (a byte copy that serves every dtype, opaque included).
set(SCATTER_SCATTER_VARIANTS
  raw:0 f16:1 bf16:2 f32:3 f64:4 i8:5 i16:6 i32:7 i64:8 u8:9 u16:10 u32:11 u64:12
  bool:13 c64:14 c128:15)

# scatter_compile_shader(<out-var> NAME <name> SOURCE <file.comp> [DEFINES -D...]): glslang once
# to <name>.spv (validated), then the module embedded as the array scatter_spirv_<name> in <name>.h.
function(scatter_compile_shader out_var)
  cmake_parse_arguments(ARG "" "NAME;SOURCE" "DEFINES" ${ARGN})
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/shaders)
  set(spv ${dir}/${ARG_NAME}.spv)
  set(header ${dir}/${ARG_NAME}.h)
  set(validate)
  if(SCATTER_SPIRV_VAL)
    set(validate COMMAND ${SCATTER_SPIRV_VAL} --target-env vulkan1.1 ${spv})
  endif()
  add_custom_command(
    OUTPUT ${spv}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    # The depfile names the OUTPUT (the module), so included files rebuild it when they change.
    COMMAND ${SCATTER_GLSLANG} --target-env vulkan1.1 -I${SCATTER_SHADER_DIR} ${ARG_DEFINES}
            --depfile ${dir}/${ARG_NAME}.d -o ${spv} ${SCATTER_SHADER_DIR}/${ARG_SOURCE} > ${dir}/${ARG_NAME}.log
    ${validate}
    DEPENDS ${SCATTER_SHADER_DIR}/${ARG_SOURCE}
    DEPFILE ${dir}/${ARG_NAME}.d
    COMMENT "GLSL -> SPIR-V ${ARG_NAME}"
    VERBATIM)
  add_custom_command(
    OUTPUT ${header}
    COMMAND ${CMAKE_COMMAND} -DSPV=${spv} -DHEADER=${header} -DNAME=scatter_spirv_${ARG_NAME}
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_spirv.cmake
    DEPENDS ${spv} ${PROJECT_SOURCE_DIR}/cmake/embed_spirv.cmake
    VERBATIM)
  set(${out_var} ${${out_var}} ${header} PARENT_SCOPE)
endfunction()

# scatter_embed_shaders(<target>): compiles every module and adds the registry to <target>.
function(scatter_embed_shaders target)
  set(headers)
  set(names index copy buckets)
  scatter_compile_shader(headers NAME index SOURCE index.comp)
  scatter_compile_shader(headers NAME buckets SOURCE buckets.comp)
  # The same with ALLOCATE's workgroup scan in subgroup operations, for devices that have them.
  scatter_compile_shader(headers NAME buckets_sg SOURCE buckets.comp DEFINES -DSCATTER_SUBGROUPS=1)
  list(APPEND names buckets_sg)
  scatter_compile_shader(headers NAME copy SOURCE copy.comp)
  # The stable radix sort of (32-bit key, payload) pairs (src/vulkan/vk_radix_sort.h), 8-bit
  # digits; `_d4` the same with 4-bit digits.
  scatter_compile_shader(headers NAME radix_sort SOURCE radix_sort.comp)
  scatter_compile_shader(headers NAME radix_sort_d4 SOURCE radix_sort.comp DEFINES -DRADIX_SORT_DIGIT_BITS=4)
  list(APPEND names radix_sort radix_sort_d4)
  # `_ss` variants store 1- and 2-byte pieces of out directly (8/16-bit storage, where the device
  # has it) instead of with two atomics on the word: SCATTER_SMALL_STORES = 1 bytes, 2 halves, 3 both.
  scatter_compile_shader(headers NAME copy_ss SOURCE copy.comp DEFINES -DSCATTER_SMALL_STORES=3)
  list(APPEND names copy_ss)
  foreach(variant ${SCATTER_SCATTER_VARIANTS})
    string(REPLACE ":" ";" parts ${variant})
    list(GET parts 0 suffix)
    list(GET parts 1 value)
    scatter_compile_shader(headers NAME scatter_${suffix} SOURCE scatter.comp DEFINES -DSCATTER_DTYPE=${value})
    list(APPEND names scatter_${suffix})
    set(small "")
    if(suffix STREQUAL "raw")
      set(small 3)
    elseif(suffix MATCHES "^(i8|u8|bool)$")
      set(small 1)
    elseif(suffix MATCHES "^(f16|bf16|i16|u16)$")
      set(small 2)
    endif()
    if(small)
      scatter_compile_shader(headers NAME scatter_${suffix}_ss SOURCE scatter.comp
        DEFINES -DSCATTER_DTYPE=${value} -DSCATTER_SMALL_STORES=${small})
      list(APPEND names scatter_${suffix}_ss)
    endif()
    if(suffix MATCHES "^(f16|bf16|f32|f64|c64|c128)$")
      # The same with subnormals preserved (SPV_KHR_float_controls), for devices that allow it.
      scatter_compile_shader(headers NAME scatter_${suffix}_dp SOURCE scatter.comp
        DEFINES -DSCATTER_DTYPE=${value} -DSCATTER_DENORM_PRESERVE=1)
      list(APPEND names scatter_${suffix}_dp)
      if(small)
        scatter_compile_shader(headers NAME scatter_${suffix}_dp_ss SOURCE scatter.comp
          DEFINES -DSCATTER_DTYPE=${value} -DSCATTER_DENORM_PRESERVE=1 -DSCATTER_SMALL_STORES=${small})
        list(APPEND names scatter_${suffix}_dp_ss)
      endif()
    endif()
    if(NOT suffix MATCHES "^(raw|c128)$")
      # The atomic path (atomic.comp): no raw variant (`none` never takes it), and no 16-byte
      # element has an atomic wide enough.
      scatter_compile_shader(headers NAME atomic_${suffix} SOURCE atomic.comp DEFINES -DSCATTER_DTYPE=${value})
      list(APPEND names atomic_${suffix})
      if(suffix STREQUAL "f32")
        # f32 add/sub with the device's float atomicAdd (allowed non-determinism only).
        scatter_compile_shader(headers NAME atomic_f32_fa SOURCE atomic.comp
          DEFINES -DSCATTER_DTYPE=${value} -DATOMIC_FLOAT_ADD=1)
        list(APPEND names atomic_f32_fa)
      endif()
    endif()
  endforeach()

  set(includes "")
  set(entries "")
  foreach(name ${names})
    string(APPEND includes "#include \"shaders/${name}.h\"\n")
    string(APPEND entries "    {\"${name}\", scatter_spirv_${name}, sizeof(scatter_spirv_${name})},\n")
  endforeach()
  set(registry ${CMAKE_CURRENT_BINARY_DIR}/shader_registry.cpp)
  file(CONFIGURE OUTPUT ${registry} CONTENT "// Generated by cmake/shaders.cmake: every embedded SPIR-V module.
#include \"vulkan/shader_registry.h\"

#include <cstdint>
#include <cstring>

namespace {
${includes}
const scatter::ShaderCode kModules[] = {
${entries}};
}  // namespace

namespace scatter {

const ShaderCode* find_shader_code(const char* name) {
    for (const ShaderCode& module : kModules)
        if (std::strcmp(module.name, name) == 0) return &module;
    return nullptr;
}

}  // namespace scatter
" @ONLY)
  # The custom commands belong to this directory; a target here runs them before <target>.
  add_custom_target(${target}_shaders DEPENDS ${headers})
  add_dependencies(${target} ${target}_shaders)
  target_sources(${target} PRIVATE ${registry})
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_BINARY_DIR} ${SCATTER_SHADER_DIR})
endfunction()
