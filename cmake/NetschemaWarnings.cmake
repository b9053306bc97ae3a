# NetschemaWarnings.cmake — the warning flags netschema's own targets build with.
# ns_target_warnings(<target>) applies -Wall -Wextra -Wpedantic (+ -Werror when NETSCHEMA_WERROR).
function(ns_target_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes
                         -Wmissing-prototypes)
  if(NETSCHEMA_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
