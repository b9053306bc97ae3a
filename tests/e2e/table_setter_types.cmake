# table_setter_types.cmake — the setter macros' pointer check: table_setter_types.c compiles with
# the strict flags as is, and is refused (with the compiler's own words for it) when a setter is
# given another record or a const one.
#   cmake -DCC=<compiler> -DSRC=<table_setter_types.c> -DINC="<dir>;<dir>" -P table_setter_types.cmake
set(flags -std=c11 -Wall -Wextra -Wpedantic -Wconversion -Werror -fsyntax-only)
foreach(dir IN LISTS INC)
  list(APPEND flags -I${dir})
endforeach()
execute_process(COMMAND ${CC} ${flags} ${SRC} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the right record is refused:\n${err}")
endif()
foreach(case IN ITEMS WRONG_RECORD CONST_RECORD)
  execute_process(COMMAND ${CC} ${flags} -D${case} ${SRC} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${case}: compiled, but the setter was given the wrong pointer")
  endif()
  if(NOT err MATCHES "incompatible|pointer type mismatch|discards|qualifier")
    message(FATAL_ERROR "${case}: refused, but not for the pointer:\n${err}")
  endif()
endforeach()
message(STATUS "right record accepted; another record and a const one refused")
