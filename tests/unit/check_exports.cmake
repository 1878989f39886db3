# Checks that a library exports exactly the scatter_* functions of the public header.
#   cmake -DLIBRARY=<path> -DKIND=shared|static|dll -DEXPECTED=<exported_symbols.txt>
#         -DHEADER=<scatter.h> -DNM=<nm> [-DOBJDUMP=<objdump>] -P check_exports.cmake
# shared: every symbol `nm -D --defined-only` lists.
# static: every external symbol `nm --defined-only -g` lists: the functions (T) must be exactly the
#         list, and nothing else may be global (no C++, volk or data symbols).
# dll:    (Windows) every name of the export table that `objdump -p` prints.

foreach(var LIBRARY KIND EXPECTED HEADER NM)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_exports.cmake needs -D${var}=...")
  endif()
endforeach()

file(STRINGS "${EXPECTED}" expected)
list(SORT expected)

# The committed list must be the header's SCATTER_API functions, so neither can drift.
file(STRINGS "${HEADER}" api_lines REGEX "^SCATTER_API ")
set(declared "")
foreach(line IN LISTS api_lines)
  if(line MATCHES "[ *](scatter_[a-z0-9_]+)\\(")
    list(APPEND declared "${CMAKE_MATCH_1}")
  endif()
endforeach()
list(SORT declared)
if(NOT declared STREQUAL expected)
  message(FATAL_ERROR "exported_symbols.txt differs from the SCATTER_API functions of the header\n"
                      "  header: ${declared}\n  list:   ${expected}")
endif()

if(KIND STREQUAL "dll")
  execute_process(COMMAND "${OBJDUMP}" -p "${LIBRARY}"
    OUTPUT_VARIABLE dump RESULT_VARIABLE dump_result ERROR_VARIABLE dump_error)
  if(NOT dump_result EQUAL 0)
    message(FATAL_ERROR "${OBJDUMP} -p failed on ${LIBRARY}: ${dump_error}")
  endif()
  # The names follow "[Ordinal/Name Pointer] Table", one "\t[   i] name" line each.
  string(REPLACE "\n" ";" dump_lines "${dump}")
  set(functions "")
  set(in_table FALSE)
  foreach(line IN LISTS dump_lines)
    if(line MATCHES "^\\[Ordinal/Name Pointer\\] Table")
      set(in_table TRUE)
    elseif(in_table AND line MATCHES "^[ \t]*\\[ *[0-9]+\\] ([A-Za-z0-9_@?$]+)$")
      list(APPEND functions "${CMAKE_MATCH_1}")
    elseif(in_table)
      set(in_table FALSE)
    endif()
  endforeach()
  list(SORT functions)
  if(NOT functions STREQUAL expected)
    set(missing ${expected})
    list(REMOVE_ITEM missing ${functions})
    set(extra ${functions})
    list(REMOVE_ITEM extra ${expected})
    message(FATAL_ERROR "DLL ${LIBRARY}: exported names differ from the list\n"
            "  missing: ${missing}\n  unexpected: ${extra}")
  endif()
  list(LENGTH functions count)
  message(STATUS "DLL exports exactly the ${count} functions of the list")
  return()
endif()

if(KIND STREQUAL "shared")
  set(nm_args -D --defined-only)
else()
  set(nm_args --defined-only -g)
endif()
execute_process(COMMAND "${NM}" ${nm_args} "${LIBRARY}"
  OUTPUT_VARIABLE nm_output RESULT_VARIABLE nm_result ERROR_VARIABLE nm_error)
if(NOT nm_result EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${LIBRARY}: ${nm_error}")
endif()

string(REPLACE "\n" ";" nm_lines "${nm_output}")
set(functions "")
set(others "")
foreach(line IN LISTS nm_lines)
  # "<address> <type> <name>"; archive member headers ("file.o:") and blank lines are skipped.
  if(line MATCHES "^[0-9a-fA-F]* ([A-Za-z]) (.+)$")
    set(type "${CMAKE_MATCH_1}")
    set(name "${CMAKE_MATCH_2}")
    if(type STREQUAL "T")
      list(APPEND functions "${name}")
    else()
      list(APPEND others "${type} ${name}")
    endif()
  endif()
endforeach()
list(REMOVE_DUPLICATES functions)
list(SORT functions)

set(failed FALSE)
if(NOT functions STREQUAL expected)
  set(missing ${expected})
  list(REMOVE_ITEM missing ${functions})
  set(extra ${functions})
  list(REMOVE_ITEM extra ${expected})
  list(LENGTH extra extra_count)
  list(SUBLIST extra 0 20 extra_head)
  message(SEVERE_ERROR "${KIND} library ${LIBRARY}: exported functions differ from the list\n"
          "  missing: ${missing}\n  unexpected (${extra_count}, first 20): ${extra_head}")
  set(failed TRUE)
endif()
if(others)
  list(LENGTH others others_count)
  list(SUBLIST others 0 20 others_head)
  message(SEVERE_ERROR "${KIND} library ${LIBRARY}: ${others_count} other exported symbol(s), "
          "first 20: ${others_head}")
  set(failed TRUE)
endif()
if(failed)
  if(KIND STREQUAL "static")
    message(SEVERE_ERROR "hidden symbols stay global in an archive's objects; localize them, e.g. "
            "`ld -r` all objects into one and run `objcopy --localize-hidden` on it")
  endif()
  message(FATAL_ERROR "export check failed")
endif()
list(LENGTH functions count)
message(STATUS "${KIND} library exports exactly the ${count} functions of the list")
