# rooflint_analyze(TARGET t [GPU name] [CEILINGS file] [MANIFEST out.rooflint.json] [SARIF out.sarif] [ALLOW_PARSE_ERRORS]
#                  [OPTIONS ...])
#
# Defined by rooflint's top-level CMakeLists (rooflint built here, or added with add_subdirectory or
# FetchContent) and by find_package(rooflint). Runs the rooflint analyzer over the CUDA (.cu) and C++
# sources of target t as part of the build: a custom command that depends on the sources, the headers
# they include (a depfile) and the analyzer, with t's include directories, compile definitions and C++
# standard. Its diagnostics (the bound remarks, warnings) appear in the build log; it writes the manifest
# (default: ${CMAKE_CURRENT_BINARY_DIR}/t.rooflint.json: each spec, its kernel and its values,
# docs/analyzer.md; tests/examples checks the examples' verdicts from it). A custom target t_rooflint
# is built by `all`.
#   GPU       datasheet peaks to classify against (default: the rooflint default, H200)
#   CEILINGS  a ceilings file from rooflint-ceilings (measured peaks; preferred over GPU)
#   ALLOW_PARSE_ERRORS  a file clang 19 cannot parse is a warning, not an error: the build goes on
#             (rooflint --allow-parse-errors)
#   OPTIONS   more rooflint options, e.g. --warnings-as-errors or -Wno-rooflint-bound
# The analyzer keeps the CUDA headers every file starts with precompiled in ${CMAKE_BINARY_DIR}/rooflint-pch
# (docs/analyzer.md, "The PCH cache"); OPTIONS --pch-cache-dir DIR puts them elsewhere, --no-pch-cache turns it off.
#
# The analyzer is, in this order: ROOFLINT_ANALYZER_EXECUTABLE (a prebuilt `rooflint`), else the target
# rooflint::analyzer (built in the tree, or imported by find_package(rooflint)). Without either it warns
# once at configure time, naming what to install or set, and adds nothing; with ROOFLINT_REQUIRE_ANALYZER
# (for CI) that is a configure error.
option(ROOFLINT_REQUIRE_ANALYZER "rooflint_analyze() without an analyzer is a configure error, not a warning" OFF)

function(rooflint_analyze)
  cmake_parse_arguments(ARG "ALLOW_PARSE_ERRORS" "TARGET;GPU;CEILINGS;MANIFEST;SARIF" "OPTIONS" ${ARGN})
  if(NOT ARG_TARGET)
    message(FATAL_ERROR "rooflint_analyze: TARGET is required")
  endif()
  if(NOT TARGET ${ARG_TARGET})
    message(FATAL_ERROR "rooflint_analyze: '${ARG_TARGET}' is not a target")
  endif()
  _rooflint_analyzer_command(analyzer analyzer_depends)
  if(NOT analyzer)
    _rooflint_analyzer_missing(${ARG_TARGET})
    return()
  endif()
  if(NOT ARG_MANIFEST)
    set(ARG_MANIFEST ${CMAKE_CURRENT_BINARY_DIR}/${ARG_TARGET}.rooflint.json)
  elseif(NOT ARG_MANIFEST MATCHES "\\.rooflint\\.json$")
    # rooflint-verify --manifest DIR reads only *.rooflint.json below DIR.
    message(WARNING "rooflint_analyze(${ARG_TARGET}): MANIFEST '${ARG_MANIFEST}' does not end in .rooflint.json: "
                    "rooflint-verify --manifest DIR will not find it (name it <name>.rooflint.json, or pass the file itself)")
  endif()

  get_target_property(sources ${ARG_TARGET} SOURCES)
  get_target_property(source_dir ${ARG_TARGET} SOURCE_DIR)
  set(files)
  foreach(src IN LISTS sources)
    if(src MATCHES "\\.(cu|cpp|cc|cxx)$")
      if(NOT IS_ABSOLUTE ${src})
        set(src ${source_dir}/${src})
      endif()
      list(APPEND files ${src})
    endif()
  endforeach()
  if(NOT files)
    message(WARNING "rooflint_analyze: target '${ARG_TARGET}' has no .cu or C++ sources to analyse")
    return()
  endif()

  set(options)
  if(ARG_CEILINGS)
    list(APPEND options --ceilings ${ARG_CEILINGS})
  elseif(ARG_GPU)
    list(APPEND options --gpu ${ARG_GPU})
  endif()
  list(APPEND options --manifest ${ARG_MANIFEST} --depfile ${ARG_MANIFEST}.d)
  set(outputs ${ARG_MANIFEST})
  if(ARG_SARIF)
    # URIs relative to the top-level source directory (GitHub code scanning wants them relative).
    list(APPEND options --sarif ${ARG_SARIF} --sarif-root ${CMAKE_SOURCE_DIR})
    list(APPEND outputs ${ARG_SARIF})
  endif()
  if(ARG_ALLOW_PARSE_ERRORS)
    list(APPEND options --allow-parse-errors)
  endif()
  # The precompiled CUDA headers (docs/analyzer.md, "Cost") in this build tree, unless OPTIONS say where.
  if(NOT ARG_OPTIONS MATCHES "pch-cache")
    list(APPEND options --pch-cache-dir ${CMAKE_BINARY_DIR}/rooflint-pch)
  endif()
  list(APPEND options ${ARG_OPTIONS})

  # The target's flags, transitive usage requirements (rooflint::dsl's include directory) included.
  # System and CUDA toolkit directories are left to clang (it adds the toolkit itself, as a system
  # directory): -I/usr/include breaks libstdc++'s #include_next.
  # Each once: a directory the target names itself and gets from rooflint::dsl too came twice.
  set(includes "$<REMOVE_DUPLICATES:$<FILTER:$<TARGET_PROPERTY:${ARG_TARGET},INCLUDE_DIRECTORIES>,EXCLUDE,^/usr/(local/)?include/?$|/cuda[^/]*/(targets/[^/]+/)?include/?$>>")
  set(defines "$<TARGET_PROPERTY:${ARG_TARGET},COMPILE_DEFINITIONS>")
  set(standard "$<TARGET_PROPERTY:${ARG_TARGET},CUDA_STANDARD>")
  # Quoted in COMMAND (not through a list variable), so the ';' of each JOIN becomes argument breaks
  # only under COMMAND_EXPAND_LISTS.
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND ${analyzer} ${options} ${files} --
            "$<IF:$<BOOL:${standard}>,-std=c++${standard},-std=c++20>"
            "$<$<BOOL:${includes}>:-I$<JOIN:${includes},;-I>>"
            "$<$<BOOL:${defines}>:-D$<JOIN:${defines},;-D>>"
    DEPENDS ${files} ${analyzer_depends}
    DEPFILE ${ARG_MANIFEST}.d
    COMMENT "rooflint: analysing ${ARG_TARGET}"
    VERBATIM COMMAND_EXPAND_LISTS)
  add_custom_target(${ARG_TARGET}_rooflint ALL DEPENDS ${outputs})
endfunction()

# The analyzer's command line (out_command) and what the custom command depends on (out_depends): the
# target itself when it is built here (a target-level dependency), else its file. Empty when there is none.
function(_rooflint_analyzer_command out_command out_depends)
  set(command "")
  set(depends "")
  if(ROOFLINT_ANALYZER_EXECUTABLE)
    set(command "${ROOFLINT_ANALYZER_EXECUTABLE}")
    set(depends "${ROOFLINT_ANALYZER_EXECUTABLE}")
  elseif(TARGET rooflint::analyzer)
    set(command "$<TARGET_FILE:rooflint::analyzer>")
    get_target_property(imported rooflint::analyzer IMPORTED)
    if(imported)
      set(depends "$<TARGET_FILE:rooflint::analyzer>")
    else()
      get_target_property(depends rooflint::analyzer ALIASED_TARGET)
    endif()
  endif()
  set(${out_command} "${command}" PARENT_SCOPE)
  set(${out_depends} "${depends}" PARENT_SCOPE)
endfunction()

function(_rooflint_analyzer_missing target)
  set(message "rooflint_analyze(TARGET ${target}): no rooflint analyzer, so this build shows no roofline "
              "verdicts. Install rooflint with its analyzer (it needs Clang 19 LibTooling: Debian's "
              "libclang-19-dev) and find_package(rooflint) from that prefix, or set "
              "ROOFLINT_ANALYZER_EXECUTABLE to a prebuilt 'rooflint' executable.")
  if(ROOFLINT_REQUIRE_ANALYZER)
    message(FATAL_ERROR ${message} " (an error because ROOFLINT_REQUIRE_ANALYZER is ON)")
  endif()
  get_property(warned GLOBAL PROPERTY _ROOFLINT_WARNED_NO_ANALYZER)
  if(NOT warned)
    set_property(GLOBAL PROPERTY _ROOFLINT_WARNED_NO_ANALYZER TRUE)
    message(WARNING ${message} " Set ROOFLINT_REQUIRE_ANALYZER=ON to make this an error.")
  endif()
endfunction()
