# Netschema.cmake — netschema_generate(): run netschemac at build time and build the generated C.
#
#   netschema_generate(TARGET <name> SCHEMAS <file>...
#                      [IMPORT_DIRS <dir>...] [OUT_DIR <dir>] [OPTIONS <netschemac option>...]
#                      [AUTO_INLINE] [CODEC_TABLE] [SPLIT <n>])
#
# Creates a static library <name> from <stem>.ns.c of every schema, linked to netschema::runtime,
# with OUT_DIR (default: ${CMAKE_CURRENT_BINARY_DIR}/<name>_gen) as a public include directory.
# Each schema is compiled by its own custom command whose DEPFILE (written by netschemac
# --depfile) lists every schema it imports, so editing an imported schema regenerates exactly the
# schemas that import it. Works with the Makefile and Ninja generators (CMake >= 3.20).
#
# AUTO_INLINE builds the generated C with NS_CODEC_AUTO_INLINE: the codec's primitives are plain
# static inline and the compiler decides what to inline, instead of forcing it. The bytes on the
# wire are the same; a large schema builds about 2.3 times faster at -O2, at some cost in
# encode and decode speed (README.md, "Measured"; netschema/bits.h).
#
# CODEC_TABLE runs netschemac with --codec table: _write and _read call the runtime's
# descriptor-driven functions instead of straight-line code (docs/generated-api.md, "Table
# mode"). The same API and the same bytes on the wire; much less C to compile, slower codecs.
#
# SPLIT <n> runs netschemac with --split <n>: each schema's records are spread over n sources
# (<stem>.ns.c, <stem>.ns.2.c ... <stem>.ns.<n>.c), which the build compiles in parallel. The
# same code and the same bytes on the wire; a record's calls to the structs it holds may cross
# sources and so are not inlined.
#
# NETSCHEMA_GENERATED_COMPILE_OPTIONS, when set in the calling scope, adds its options to the
# generated sources only (netschema's own sanitizer build sets -O0 there: CMakeLists.txt).
include_guard(GLOBAL)

# Fails at configure time when a listed schema does not exist (rather than with "No rule to make
# target" at build time), saying where it looked; a schema found in an IMPORT_DIRS directory is
# suggested, since SCHEMAS are relative to the current source directory, not to IMPORT_DIRS.
# Schemas that another rule generates (the GENERATED source property) are not checked.
function(_netschema_check_schema target schema import_dirs)
  get_filename_component(path "${schema}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(EXISTS "${path}")
    return()
  endif()
  get_source_file_property(generated "${path}" GENERATED)
  if(generated)
    return()
  endif()
  set(hint "")
  foreach(dir IN LISTS import_dirs)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(EXISTS "${dir}/${schema}")
      file(RELATIVE_PATH rel "${CMAKE_CURRENT_SOURCE_DIR}" "${dir}/${schema}")
      set(hint " It exists in the IMPORT_DIRS directory ${dir}: write ${rel}.")
      break()
    endif()
  endforeach()
  message(FATAL_ERROR "netschema_generate(TARGET ${target}): the schema '${schema}' does not exist: looked for ${path}"
                      " (SCHEMAS are relative to ${CMAKE_CURRENT_SOURCE_DIR}).${hint}")
endfunction()

function(netschema_generate)
  cmake_parse_arguments(NSG "AUTO_INLINE;CODEC_TABLE" "TARGET;OUT_DIR;SPLIT" "SCHEMAS;IMPORT_DIRS;OPTIONS" ${ARGN})
  if(NOT NSG_TARGET OR NOT NSG_SCHEMAS)
    message(FATAL_ERROR "netschema_generate: TARGET and SCHEMAS are required")
  endif()
  if(NOT TARGET netschema::netschemac)
    message(FATAL_ERROR "netschema_generate: netschema::netschemac is not defined (find_package(netschema) first)")
  endif()
  if(NOT NSG_OUT_DIR)
    set(NSG_OUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/${NSG_TARGET}_gen")
  endif()
  get_filename_component(NSG_OUT_DIR "${NSG_OUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  file(MAKE_DIRECTORY "${NSG_OUT_DIR}")

  set(include_args)
  if(NSG_CODEC_TABLE)
    list(APPEND include_args --codec table)
  endif()
  if(NOT NSG_SPLIT)
    set(NSG_SPLIT 1)
  elseif(NOT NSG_SPLIT MATCHES "^[1-9][0-9]?$" OR NSG_SPLIT GREATER 64)
    message(FATAL_ERROR "netschema_generate(TARGET ${NSG_TARGET}): SPLIT takes a number from 1 to 64, not '${NSG_SPLIT}'")
  elseif(NSG_SPLIT GREATER 1)
    list(APPEND include_args --split ${NSG_SPLIT})
  endif()
  foreach(dir IN LISTS NSG_IMPORT_DIRS)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND include_args -I "${dir}")
  endforeach()

  set(sources)
  set(headers)
  foreach(schema IN LISTS NSG_SCHEMAS)
    _netschema_check_schema("${NSG_TARGET}" "${schema}" "${NSG_IMPORT_DIRS}")
    get_filename_component(schema "${schema}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(name "${schema}" NAME)
    string(REGEX REPLACE "\\.netschema$" "" stem "${name}")
    set(out_h "${NSG_OUT_DIR}/${stem}.ns.h")
    set(out_c "${NSG_OUT_DIR}/${stem}.ns.c")
    if(NSG_SPLIT GREATER 1)
      foreach(k RANGE 2 ${NSG_SPLIT})
        list(APPEND out_c "${NSG_OUT_DIR}/${stem}.ns.${k}.c")
      endforeach()
    endif()
    set(depfile "${NSG_OUT_DIR}/${stem}.ns.d")
    add_custom_command(
      OUTPUT "${out_h}" ${out_c}
      COMMAND netschema::netschemac -o "${NSG_OUT_DIR}" --depfile "${depfile}" ${include_args} ${NSG_OPTIONS}
              "${schema}"
      DEPENDS "${schema}" netschema::netschemac
      DEPFILE "${depfile}"
      COMMENT "netschemac ${name}"
      VERBATIM)
    list(APPEND sources ${out_c})
    list(APPEND headers "${out_h}")
  endforeach()

  add_library(${NSG_TARGET} STATIC ${sources} ${headers})
  target_include_directories(${NSG_TARGET} PUBLIC "$<BUILD_INTERFACE:${NSG_OUT_DIR}>")
  target_link_libraries(${NSG_TARGET} PUBLIC netschema::runtime)
  set_target_properties(${NSG_TARGET} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  if(NSG_AUTO_INLINE)
    target_compile_definitions(${NSG_TARGET} PRIVATE NS_CODEC_AUTO_INLINE)
  endif()
  if(NETSCHEMA_GENERATED_COMPILE_OPTIONS)
    target_compile_options(${NSG_TARGET} PRIVATE ${NETSCHEMA_GENERATED_COMPILE_OPTIONS})
  endif()
endfunction()
