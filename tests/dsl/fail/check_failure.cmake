# cmake -DCOMMAND=<compiler;args...> -DSOURCE=<fail/case.cpp> -DCOMPILER=<gnu|clang19|nvcc|...> -DUSER_LINE=<ON|OFF>
#       -P check_failure.cmake
# Passes when COMMAND fails to compile SOURCE and prints the message of SOURCE's "// expected-message: "
# line. Where a compiler quotes the require() call that failed, it prints the message's literal escaped
# (g++: \' and \"; clang: \"): the output is compared with those escapes undone.
# With USER_LINE, the error must also point at SOURCE's own line first:
#  - clang, nvcc: the first line that reports an error is located in SOURCE ("case.cpp:8:23: error: ...",
#    "case.cpp(8): error: ...": a require() fails the constexpr variable's constant expression there);
#  - g++, which reports an error where it happens (in the DSL's headers), names a line of SOURCE before
#    that error ("case.cpp:8:60:   in 'constexpr' expansion of ...").
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
get_filename_component(name "${SOURCE}" NAME)
if(status EQUAL 0)
  message(FATAL_ERROR "${name} compiled, but must fail:\n${out}")
endif()
file(STRINGS "${SOURCE}" expected REGEX "^// expected-message: " LIMIT_COUNT 1)
string(REGEX REPLACE "^// expected-message: " "" expected "${expected}")
string(REPLACE "\\;" ";" expected "${expected}")  # file(STRINGS) escapes a ';' of the line
set(shown "${out}")
string(REPLACE "\\'" "'" shown "${shown}")
string(REPLACE "\\\"" "\"" shown "${shown}")
string(FIND "${shown}" "${expected}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${name}: the output does not contain the message\n  ${expected}\nfull output:\n${out}")
endif()
if(USER_LINE)
  string(REGEX MATCH "[^\n]*error[^\n]*" first "${out}")
  string(REGEX MATCH "^[^:(]*${name}[:(]" located "${first}")
  string(FIND "${out}" "${first}" error_at)
  string(SUBSTRING "${out}" 0 ${error_at} before)
  string(REGEX MATCH "(^|\n)[^\n]*${name}:[0-9]+:[0-9]+:" named_before "${before}")
  # g++ (and nvcc's host pass, which is g++) name the case's line before the error; clang and nvcc's own
  # front end put the error at it.
  if(COMPILER MATCHES "^gnu")
    set(located "${named_before}")
  elseif(COMPILER STREQUAL "nvcc" AND NOT located)
    set(located "${named_before}")
  endif()
  if(NOT located)
    message(FATAL_ERROR "${name}: the first error is not at a line of ${name} but\n  ${first}\nfull output:\n${out}")
  endif()
endif()
message(STATUS "${name}: ${expected}")
