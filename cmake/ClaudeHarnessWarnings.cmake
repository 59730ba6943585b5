# claude_harness_warnings(TARGET): the warning set every project target compiles with.
function(claude_harness_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion -Werror=return-type)
endfunction()
