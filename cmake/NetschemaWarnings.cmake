# NetschemaWarnings.cmake — the warning flags netschema's own targets build with.
# ns_target_warnings(<target>) applies -Wall -Wextra -Wpedantic (+ -Werror when NETSCHEMA_WERROR).
function(ns_target_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes
                         -Wmissing-prototypes)
  if(NETSCHEMA_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# ns_generated_warnings(<target>): the strict flags users compile generated code with; the test
# suite holds every generated file to them.
function(ns_generated_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wconversion -Wshadow -Werror
                         $<$<COMPILE_LANGUAGE:C>:-Wstrict-prototypes>)
endfunction()
