# Install rules, the relocatable CMake package (find_package(rooflint CONFIG)) and the packages (CPack).
#
#   <prefix>/bin/rooflint, rooflint-ceilings, rooflint-verify, rooflint-summary (those that are built)
#   <prefix>/lib/rooflint/librooflint-inject.so  the CUPTI injection library rooflint-verify loads into a
#                                                program; rooflint-verify finds it from its own path
#   <prefix>/include/rooflint/...            public headers: model, dsl, files, process, runtime
#   <prefix>/lib/librooflint_*.a             rooflint::files, rooflint::process, rooflint::runtime
#   <prefix>/lib/cmake/rooflint/             rooflintConfig.cmake, rooflintConfigVersion.cmake, the
#                                            exported targets, RooflintAnalyze.cmake, RooflintCuda20.cmake
#   <prefix>/share/doc/rooflint/             README.md, LICENSE, CHANGELOG.md, CONTRIBUTING.md, docs/ (the
#                                            reference pages, the measurement logs), examples/ (the files
#                                            the pages link to)
#
# Two install components: rooflint_tools (the executables, the injection library, the docs, and the
# export of the analyzer's imported target, which names its executable) and rooflint_dev (headers,
# libraries, the rest of the CMake package): `cmake --install build --component rooflint_tools`.
# The installed executables, libraries and the injection library carry no debug information
# (ROOFLINT_INSTALL_STRIP: `strip --strip-debug` after the copy; their symbols stay, so backtraces keep
# function names); the build tree keeps it.
#
# Three export sets, so that each part asks only for what it needs when found (see rooflintConfig.cmake.in):
#   rooflintTargets          rooflint::model, rooflint::dsl (header-only, std only), rooflint::files (the
#                            manifest, the ceilings file, the writer of every output; static, no dependency),
#                            rooflint::process (child processes; static, no dependency: the static
#                            rooflint::runtime links it)
#   rooflintRuntimeTargets   rooflint::runtime (needs the CUDA toolkit: find_dependency(CUDAToolkit))
#   rooflintAnalyzerTargets  rooflint::analyzer (an imported executable)
# Paths inside are relative to the prefix (install(EXPORT) computes _IMPORT_PREFIX), so the prefix can move.
include(CMakePackageConfigHelpers)

set(ROOFLINT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/rooflint CACHE STRING
    "Where the rooflint CMake package is installed, relative to the prefix")
set(rooflint_package_files ${CMAKE_CURRENT_LIST_DIR}/RooflintAnalyze.cmake ${CMAKE_CURRENT_LIST_DIR}/RooflintCuda20.cmake)
option(ROOFLINT_INSTALL_STRIP "Remove debug information from the installed executables and libraries" ON)

# rooflint_install_strip(<component> <destination> <file name>...): after the install of a component's
# files, `strip --strip-debug` each (executables, shared libraries and static archives alike; the symbol
# tables stay, so static archives still link). Runs at install time, so DESTDIR (CPack) is honoured.
function(rooflint_install_strip component destination)
  if(NOT ROOFLINT_INSTALL_STRIP OR NOT CMAKE_STRIP)
    return()
  endif()
  if(IS_ABSOLUTE "${destination}")
    set(dir "\$ENV{DESTDIR}${destination}")
  else()
    set(dir "\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${destination}")
  endif()
  foreach(name IN LISTS ARGN)
    install(CODE "execute_process(COMMAND \"${CMAKE_STRIP}\" --strip-debug \"${dir}/${name}\" RESULT_VARIABLE rooflint_strip_status)
if(NOT rooflint_strip_status EQUAL 0)
  message(WARNING \"rooflint: could not strip debug information from ${dir}/${name}\")
endif()" COMPONENT ${component})
  endforeach()
endfunction()

foreach(part model dsl files process)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${part}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT rooflint_dev)
endforeach()
set_target_properties(rooflint_model PROPERTIES EXPORT_NAME model)
set_target_properties(rooflint_dsl PROPERTIES EXPORT_NAME dsl)
set_target_properties(rooflint_files PROPERTIES EXPORT_NAME files)
set_target_properties(rooflint_process PROPERTIES EXPORT_NAME process)
install(TARGETS rooflint_model rooflint_dsl rooflint_files rooflint_process EXPORT rooflintTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT rooflint_dev)
rooflint_install_strip(rooflint_dev ${CMAKE_INSTALL_LIBDIR}
  $<TARGET_FILE_NAME:rooflint_files> $<TARGET_FILE_NAME:rooflint_process>)
install(EXPORT rooflintTargets NAMESPACE rooflint:: DESTINATION ${ROOFLINT_INSTALL_CMAKEDIR} COMPONENT rooflint_dev)

set(ROOFLINT_PACKAGE_HAS_RUNTIME OFF)
if(TARGET rooflint_runtime)
  set(ROOFLINT_PACKAGE_HAS_RUNTIME ON)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT rooflint_dev)
  set_target_properties(rooflint_runtime PROPERTIES EXPORT_NAME runtime)
  install(TARGETS rooflint_runtime EXPORT rooflintRuntimeTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT rooflint_dev)
  rooflint_install_strip(rooflint_dev ${CMAKE_INSTALL_LIBDIR} $<TARGET_FILE_NAME:rooflint_runtime>)
  install(EXPORT rooflintRuntimeTargets NAMESPACE rooflint:: DESTINATION ${ROOFLINT_INSTALL_CMAKEDIR}
          COMPONENT rooflint_dev)
endif()

# The analyzer is installed when it is built here (not when ROOFLINT_ANALYZER_EXECUTABLE names one).
set(ROOFLINT_PACKAGE_HAS_ANALYZER OFF)
if(TARGET rooflint)
  set(ROOFLINT_PACKAGE_HAS_ANALYZER ON)
  install(TARGETS rooflint EXPORT rooflintAnalyzerTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT rooflint_tools)
  rooflint_install_strip(rooflint_tools ${CMAKE_INSTALL_BINDIR} $<TARGET_FILE_NAME:rooflint>)
  # With the executable it names: the package of rooflint_dev alone has no analyzer to import.
  install(EXPORT rooflintAnalyzerTargets NAMESPACE rooflint:: DESTINATION ${ROOFLINT_INSTALL_CMAKEDIR}
          COMPONENT rooflint_tools)
endif()

foreach(tool rooflint-ceilings rooflint-verify rooflint-summary)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT rooflint_tools)
    rooflint_install_strip(rooflint_tools ${CMAKE_INSTALL_BINDIR} $<TARGET_FILE_NAME:${tool}>)
  endif()
endforeach()
# The injection library, where the installed rooflint-verify looks for it: ROOFLINT_INJECT_INSTALL_DIR,
# relative to the executable's directory (runtime/CMakeLists.txt), so the prefix can move.
if(TARGET rooflint-inject)
  install(TARGETS rooflint-inject LIBRARY DESTINATION ${ROOFLINT_INJECT_INSTALL_DIR} COMPONENT rooflint_tools)
  rooflint_install_strip(rooflint_tools ${ROOFLINT_INJECT_INSTALL_DIR} $<TARGET_FILE_NAME:rooflint-inject>)
endif()
# The documentation, at the same relative paths as in the source tree, so that every relative link in it
# resolves (tests/docs/installed_links_test.py checks an install): the pages (docs/quickstart.md,
# docs/diagnostics/...), the measurement logs docs/results.md cites (docs/measurements/, text and two
# plots, about 8 MB), and the example files the pages link to.
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CHANGELOG.md
              ${PROJECT_SOURCE_DIR}/CONTRIBUTING.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT rooflint_tools)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs COMPONENT rooflint_tools
        FILES_MATCHING PATTERN "*.md" PATTERN "*.txt" PATTERN "*.json" PATTERN "*.csv" PATTERN "*.log" PATTERN "*.xml"
                       PATTERN "*.png" PATTERN "*.svg" PATTERN ".*" EXCLUDE)
install(FILES ${PROJECT_SOURCE_DIR}/examples/ci/github-actions.yml
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples/ci COMPONENT rooflint_tools)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/torch_extension/
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples/torch_extension COMPONENT rooflint_tools
        FILES_MATCHING PATTERN "*.md" PATTERN "*.py" PATTERN "*.cu" PATTERN "*.cpp" PATTERN "*.h" PATTERN "*.txt"
                       PATTERN "__pycache__" EXCLUDE PATTERN ".*" EXCLUDE)

configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/rooflintConfig.cmake.in
  ${PROJECT_BINARY_DIR}/rooflintConfig.cmake
  INSTALL_DESTINATION ${ROOFLINT_INSTALL_CMAKEDIR}
  NO_SET_AND_CHECK_MACRO)
# 0.x: a minor version may break the interface (semantic versioning), so only the same minor matches.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/rooflintConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/rooflintConfig.cmake ${PROJECT_BINARY_DIR}/rooflintConfigVersion.cmake
              ${rooflint_package_files}
        DESTINATION ${ROOFLINT_INSTALL_CMAKEDIR} COMPONENT rooflint_dev)

# Packages of the install above, for a CI machine to install in one step (docs/ci.md):
#   cpack --config build/CPackConfig.cmake -G TGZ   rooflint-<version>-Linux-<arch>.tar.gz: unpack anywhere
#                                                   (the prefix is relocatable), then add its bin/ to PATH
#   cpack --config build/CPackConfig.cmake -G DEB   rooflint-<version>-Linux-<arch>.deb: apt installs it
#                                                   under /usr with the LLVM 19 libraries it needs
# The CUDA 13 libraries the runtime tools need (cudart, CUPTI, cuBLASLt) are not package dependencies:
# the toolkit comes from NVIDIA's installers, repositories or wheels, under names no one package knows.
if(PROJECT_IS_TOP_LEVEL)
  set(CPACK_PACKAGE_NAME rooflint)
  set(CPACK_PACKAGE_VENDOR rooflint)
  set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
  set(CPACK_PACKAGE_DESCRIPTION "State a CUDA kernel's tensors and operation in C++20 next to the kernel; rooflint \
derives its ideal FLOPs, compulsory bytes and roofline verdict at build time (a Clang 19 tool), and measures \
the kernel's traffic and time on the GPU against them (CUPTI).")
  # include(CPack) sets CPACK_PACKAGE_FILE_NAME to the source package's name in this scope: the tests
  # (tests/consumer) read the binary packages' name from ROOFLINT_PACKAGE_FILE_NAME.
  set(ROOFLINT_PACKAGE_FILE_NAME rooflint-${PROJECT_VERSION}-Linux-${CMAKE_SYSTEM_PROCESSOR})
  set(CPACK_PACKAGE_FILE_NAME ${ROOFLINT_PACKAGE_FILE_NAME})
  set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
  set(CPACK_RESOURCE_FILE_README ${PROJECT_SOURCE_DIR}/README.md)
  set(CPACK_GENERATOR TGZ DEB)
  set(CPACK_PACKAGE_CHECKSUM SHA256)
  set(CPACK_DEBIAN_PACKAGE_MAINTAINER "rooflint maintainers")
  set(CPACK_DEBIAN_PACKAGE_SECTION devel)
  # The analyzer links libclang-cpp and libLLVM 19 and reads clang's resource directory (its built-in
  # headers) at run time: Debian 12's packages of LLVM 19.
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libclang-cpp19, libllvm19, libclang-common-19-dev")
  include(CPack)
endif()
