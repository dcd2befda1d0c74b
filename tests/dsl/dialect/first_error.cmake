# cmake -DCOMMAND=<compiler;args...> -DEXPECTED=<text> -P first_error.cmake
# Passes when COMMAND fails and the first error it prints contains EXPECTED (later errors, from the
# user's code that follows the header, may come after it).
execute_process(COMMAND ${COMMAND} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(status EQUAL 0)
  message(FATAL_ERROR "compiled, but must stop with \"${EXPECTED}\":\n${out}")
endif()
string(REGEX MATCH "[^\n]*error[^\n]*" first "${out}")
string(FIND "${first}" "${EXPECTED}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the first error is not \"${EXPECTED}\" but\n  ${first}\nfull output:\n${out}")
endif()
message(STATUS "first error: ${first}")
