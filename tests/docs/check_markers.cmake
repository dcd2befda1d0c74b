# cmake -DDOCS=<file.md;...> -P check_markers.cmake: fails on a fence that mentions "compile" but is not
# one of the markers (```cpp compile, ```cuda compile), which would drop its block from the test silently.
include(${CMAKE_CURRENT_LIST_DIR}/snippets.cmake)
set(problems)
foreach(doc IN LISTS DOCS)
  rooflint_doc_unknown_markers(${doc} bad)
  foreach(b IN LISTS bad)
    list(APPEND problems "${doc}:${b}")
  endforeach()
endforeach()
if(problems)
  list(JOIN problems "\n  " shown)
  message(FATAL_ERROR "fences that are no marker (use ```cpp compile or ```cuda compile):\n  ${shown}")
endif()
