# scatter_add_static_library(<target> <object library>): the static library of the object
# library's objects.
#
# The static library holds one prelinked object in which every symbol but scatter_* is local,
# so that it exports exactly what the shared library exports (an archive of the plain objects
# would leave every internal C++ symbol global and free to clash with the application's).
# The COMDAT groups are dissolved first: a localized copy of, say, an inline std::string
# constructor must not be discarded in favour of the application's copy of the same group.
# Windows (PE/COFF) marks COMDAT on the sections themselves, with no .group to dissolve, so a
# localized copy would still displace the C++ runtime's definition: there the static library is
# a plain archive of the objects, whose internal C++ symbols stay global.
# Mach-O has neither COMDAT groups nor an objcopy that localizes symbols: there (and wherever no
# objcopy was found) the same plain archive.
function(scatter_add_static_library target objects)
  if(WIN32 OR APPLE OR NOT CMAKE_OBJCOPY)
    add_library(${target} STATIC $<TARGET_OBJECTS:${objects}>)
  else()
    set(prelinked ${CMAKE_CURRENT_BINARY_DIR}/${target}_prelinked.o)
    add_custom_command(OUTPUT ${prelinked}
      COMMAND ${CMAKE_LINKER} -r -o ${target}_combined.o $<TARGET_OBJECTS:${objects}>
      COMMAND ${CMAKE_OBJCOPY} --remove-section=.group --wildcard --keep-global-symbol=scatter_* ${target}_combined.o ${prelinked}
      DEPENDS ${objects} $<TARGET_OBJECTS:${objects}>
      COMMAND_EXPAND_LISTS VERBATIM
      COMMENT "Prelinking the static library's objects")
    set_source_files_properties(${prelinked} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
    add_library(${target} STATIC ${prelinked})
  endif()
endfunction()
