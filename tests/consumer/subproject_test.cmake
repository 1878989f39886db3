# Builds tests/consumer/engine, a parent project that takes libscatter from source, twice:
#   1. add_subdirectory(<source tree>), parent build type Debug, Vulkan backend on, with the
#      shader modules of the build tree that runs the test (SCATTER_SHADERS_FROM_BUILD, an option
#      a parent may set too: glslang took 200 of this test's 274 s; the top-level builds compile
#      them from source);
#   2. FetchContent from a tarball of the source tree (a local file: no network), no parent
#      build type, CPU-only (SCATTER_ENABLE_VULKAN=OFF set by the parent).
# Each time: GoogleTest, CLI11, nlohmann_json and Python are hidden from find_package (a library
# build must not look for them), the parent's build type stays as it was, the only targets
# besides the engine's are libscatter's own (scatter*, no gtest), and the engine runs.
#   cmake -DSOURCE_DIR=<libscatter> -DWORK_DIR=<scratch> -DENGINE_DIR=<engine project>
#         -DC_COMPILER=<cc> -DCXX_COMPILER=<c++> -DSHADERS_FROM_BUILD=<build tree>
#         [-DSANITIZE_FLAGS=<flags>] -P subproject_test.cmake

cmake_policy(VERSION 3.20)

foreach(var SOURCE_DIR WORK_DIR ENGINE_DIR C_COMPILER CXX_COMPILER SHADERS_FROM_BUILD)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "subproject_test.cmake needs -D${var}=...")
  endif()
endforeach()

function(run_checked what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE error)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${what} failed (${result}):\n${output}\n${error}")
  endif()
  set(last_output "${output}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

# A release-like tarball of the source tree: everything but build trees and git metadata.
file(GLOB entries RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/*")
list(FILTER entries EXCLUDE REGEX "^(build.*|\\.git.*)$")
set(tarball "${WORK_DIR}/scatter-src.tar.gz")
execute_process(COMMAND "${CMAKE_COMMAND}" -E tar czf "${tarball}" -- ${entries}
  WORKING_DIRECTORY "${SOURCE_DIR}" RESULT_VARIABLE tar_result)
if(NOT tar_result EQUAL 0)
  message(FATAL_ERROR "could not pack ${SOURCE_DIR} into ${tarball}")
endif()

set(hidden_packages -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_CLI11=ON
    -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON -DCMAKE_DISABLE_FIND_PACKAGE_Python3=ON
    -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON)

foreach(mode add_subdirectory FetchContent)
  set(build "${WORK_DIR}/${mode}")
  if(mode STREQUAL "add_subdirectory")
    set(mode_args -DENGINE_SCATTER_FROM=add_subdirectory "-DENGINE_SCATTER_SOURCE=${SOURCE_DIR}"
        -DCMAKE_BUILD_TYPE=Debug "-DSCATTER_SHADERS_FROM_BUILD=${SHADERS_FROM_BUILD}")
    set(expected_build_type Debug)
    set(engine_args "")
  else()
    set(mode_args -DENGINE_SCATTER_FROM=FetchContent "-DENGINE_SCATTER_URL=${tarball}"
        -DSCATTER_ENABLE_VULKAN=OFF)
    set(expected_build_type "")
    set(engine_args --no-vulkan)  # and the Vulkan functions answer BACKEND_UNAVAILABLE
  endif()
  run_checked("configuring the engine (${mode})" "${CMAKE_COMMAND}" -G "Unix Makefiles"
    -S "${ENGINE_DIR}" -B "${build}" ${mode_args} ${hidden_packages}
    "-DCMAKE_C_COMPILER=${C_COMPILER}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
    "-DCMAKE_C_FLAGS=${SANITIZE_FLAGS}" "-DCMAKE_CXX_FLAGS=${SANITIZE_FLAGS}"
    "-DCMAKE_EXE_LINKER_FLAGS=${SANITIZE_FLAGS}" "-DCMAKE_SHARED_LINKER_FLAGS=${SANITIZE_FLAGS}")

  # The build type in the parent's cache is the one the parent gave (none: still none).
  file(STRINGS "${build}/CMakeCache.txt" build_type_line REGEX "^CMAKE_BUILD_TYPE:")
  string(REGEX REPLACE "^CMAKE_BUILD_TYPE:[A-Z]*=" "" build_type "${build_type_line}")
  if(NOT build_type STREQUAL expected_build_type)
    message(FATAL_ERROR "${mode}: the parent's CMAKE_BUILD_TYPE is '${build_type}', expected '${expected_build_type}'")
  endif()

  # Every target of the build tree: the engine's and libscatter's own, nothing else.
  run_checked("listing targets (${mode})" "${CMAKE_COMMAND}" --build "${build}" --target help)
  string(REGEX MATCHALL "\\.\\.\\. [^ \n]+" listed "${last_output}")
  set(foreign "")
  set(scatter_targets "")
  foreach(item ${listed})
    string(REPLACE "... " "" target "${item}")
    if(target MATCHES "^scatter")
      list(APPEND scatter_targets ${target})
    elseif(NOT target MATCHES "^(all|clean|depend|edit_cache|rebuild_cache|engine|install.*|list_install_components|test)$"
           AND NOT target MATCHES "\\.(o|i|s)$")
      list(APPEND foreign ${target})
    endif()
  endforeach()
  if(foreign)
    message(FATAL_ERROR "${mode}: targets that are neither the engine's nor libscatter's: ${foreign}")
  endif()
  foreach(unwanted scatter_cli scatter_demo scatter_npy scatter_unit_tests)
    if(unwanted IN_LIST scatter_targets)
      message(FATAL_ERROR "${mode}: libscatter as a subproject defines ${unwanted}")
    endif()
  endforeach()
  message(STATUS "${mode}: libscatter targets: ${scatter_targets}")

  # No test of libscatter's is registered in the parent.
  file(GLOB_RECURSE test_files "${build}/CTestTestfile.cmake")
  foreach(test_file ${test_files})
    file(STRINGS "${test_file}" added REGEX "add_test")
    if(added)
      message(FATAL_ERROR "${mode}: libscatter registered tests in the parent (${test_file})")
    endif()
  endforeach()

  # Both cores: ctest starts this test first (COST), and the rest of the long tier is shorter.
  run_checked("building the engine (${mode})" "${CMAKE_COMMAND}" --build "${build}" --parallel 2)
  run_checked("running the engine (${mode})" "${build}/engine" ${engine_args})
  message(STATUS "${mode}: ${last_output}")
endforeach()
