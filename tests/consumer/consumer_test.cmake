# Installs the built project into a fresh prefix and builds a consumer against it twice: with
# find_package(scatter CONFIG) + scatter::scatter, and with pkg-config. Runs both.
#   cmake -DBUILD_DIR=<build> -DWORK_DIR=<scratch> -DPROJECT_DIR=<consumer project>
#         -DC_COMPILER=<cc> [-DSANITIZE_FLAGS=<flags>] -P consumer_test.cmake

foreach(var BUILD_DIR WORK_DIR PROJECT_DIR C_COMPILER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "consumer_test.cmake needs -D${var}=...")
  endif()
endforeach()

function(run_checked what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE error)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${what} failed (${result}):\n${output}\n${error}")
  endif()
  set(last_output "${output}" PARENT_SCOPE)
endfunction()

set(prefix "${WORK_DIR}/prefix")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

run_checked("cmake --install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")

# 0. What the package ships beside the library: both headers, the licence, the changelog.
foreach(file include/scatter/scatter.h include/scatter/scatter.hpp share/doc/scatter/LICENSE
        share/doc/scatter/CHANGELOG.md)
  if(NOT EXISTS "${prefix}/${file}")
    message(FATAL_ERROR "the install prefix has no ${file}")
  endif()
endforeach()

# 1. The installed program starts with no LD_LIBRARY_PATH: its RUNPATH ($ORIGIN/../lib) finds the
# installed library, not the build tree's.
if(HAVE_CLI)
  find_program(READELF readelf)
  if(READELF)
    run_checked("readelf -d bin/scatter" "${READELF}" -d "${prefix}/bin/scatter")
    if(NOT last_output MATCHES "\\[\\$ORIGIN/\\.\\./lib" OR last_output MATCHES "${BUILD_DIR}")
      message(FATAL_ERROR "bin/scatter's run path is not \$ORIGIN/../lib alone:\n${last_output}")
    endif()
  endif()
  run_checked("running the installed bin/scatter version" "${CMAKE_COMMAND}" -E env --unset=LD_LIBRARY_PATH
    "${prefix}/bin/scatter" version)
  string(STRIP "${last_output}" installed_version)
  if(DEFINED EXPECTED_VERSION AND NOT installed_version STREQUAL EXPECTED_VERSION)
    message(FATAL_ERROR "installed bin/scatter version printed '${installed_version}', expected ${EXPECTED_VERSION}")
  endif()
  message(STATUS "installed bin/scatter version: ${installed_version}")
endif()

# 2. CMake package.
set(consumer_build "${WORK_DIR}/cmake-consumer")
run_checked("configuring the CMake consumer" "${CMAKE_COMMAND}" -S "${PROJECT_DIR}"
  -B "${consumer_build}" "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_C_COMPILER=${C_COMPILER}"
  "-DCMAKE_C_FLAGS=${SANITIZE_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${SANITIZE_FLAGS}"
  -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON)
run_checked("building the CMake consumer" "${CMAKE_COMMAND}" --build "${consumer_build}")
run_checked("running the CMake consumer" "${consumer_build}/consumer")
message(STATUS "find_package: ${last_output}")

# 3. pkg-config, from the prefix only.
file(GLOB_RECURSE pc_files "${prefix}/*/scatter.pc")
list(LENGTH pc_files pc_count)
if(NOT pc_count EQUAL 1)
  message(FATAL_ERROR "expected one installed scatter.pc, found: ${pc_files}")
endif()
get_filename_component(pc_dir "${pc_files}" DIRECTORY)
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
set(ENV{PKG_CONFIG_LIBDIR} "${pc_dir}")  # no system .pc files in the way
run_checked("pkg-config --cflags --libs scatter" pkg-config --cflags --libs scatter)
string(STRIP "${last_output}" pc_flags)
message(STATUS "pkg-config: ${pc_flags}")
if(NOT pc_flags MATCHES "-I${prefix}/" OR NOT pc_flags MATCHES "-L${prefix}/")
  message(FATAL_ERROR "pkg-config flags do not point into the install prefix ${prefix}: "
                      "${pc_flags} (is scatter.pc relocatable, e.g. prefix=\${pcfiledir}/../..?)")
endif()
separate_arguments(pc_args UNIX_COMMAND "${pc_flags}")
separate_arguments(sanitize_args UNIX_COMMAND "${SANITIZE_FLAGS}")
set(pc_exe "${WORK_DIR}/pkg-config-consumer")
run_checked("building the pkg-config consumer" "${C_COMPILER}" ${sanitize_args}
  "${PROJECT_DIR}/main.c" -o "${pc_exe}" ${pc_args})
get_filename_component(lib_dir "${pc_dir}" DIRECTORY)
set(ENV{LD_LIBRARY_PATH} "${lib_dir}")
run_checked("running the pkg-config consumer" "${pc_exe}")
message(STATUS "pkg-config consumer: ${last_output}")
