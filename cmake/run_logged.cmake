# Runs COMMAND (a ;-list), its output kept in LOG; on failure prints that output and fails, so a
# shader's compile errors show in the build instead of only in its log file.
# usage: cmake -DLOG=file "-DCOMMAND=prog;arg;..." -P run_logged.cmake
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output)
file(WRITE ${LOG} "${output}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${output}")
endif()
