# Configure-time summary: which parts are built, and why a part is not.
set_property(GLOBAL PROPERTY ROOFLINT_DISABLED_REASONS "")

# Turns a ROOFLINT_BUILD_* option off for this configure and records why.
function(rooflint_disable option reason)
  set(${option} OFF PARENT_SCOPE)
  set_property(GLOBAL APPEND PROPERTY ROOFLINT_DISABLED_REASONS "${option}: ${reason}")
  message(WARNING "rooflint: ${option} is OFF: ${reason}")
endfunction()

function(rooflint_print_summary)
  get_property(reasons GLOBAL PROPERTY ROOFLINT_DISABLED_REASONS)
  message(STATUS "rooflint ${PROJECT_VERSION} configuration:")
  foreach(part ROOFLINT_BUILD_ANALYZER ROOFLINT_BUILD_CUDA ROOFLINT_BUILD_TESTS)
    message(STATUS "  ${part} = ${${part}}")
  endforeach()
  foreach(r IN LISTS reasons)
    message(STATUS "  (${r})")
  endforeach()
endfunction()
