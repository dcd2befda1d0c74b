# Install rules and the relocatable CMake package (find_package(rooflint CONFIG)).
#
#   <prefix>/include/rooflint/...            public headers: model, dsl, files, runtime
#   <prefix>/lib/librooflint_*.a             rooflint::files, rooflint::runtime
#   <prefix>/bin/rooflint, rooflint-ceilings, rooflint-verify, rooflint-summary (those that are built)
#   <prefix>/lib/cmake/rooflint/             rooflintConfig.cmake, rooflintConfigVersion.cmake, the
#                                            exported targets, RooflintAnalyze.cmake, RooflintCuda20.cmake
#
# Three export sets, so that each part asks only for what it needs when found (see rooflintConfig.cmake.in):
#   rooflintTargets          rooflint::model, rooflint::dsl (header-only, std only), rooflint::files (the
#                            manifest, the ceilings file, the writer of every output; static, no dependency)
#   rooflintRuntimeTargets   rooflint::runtime (needs the CUDA toolkit: find_dependency(CUDAToolkit))
#   rooflintAnalyzerTargets  rooflint::analyzer (an imported executable)
# Paths inside are relative to the prefix (install(EXPORT) computes _IMPORT_PREFIX), so the prefix can move.
include(CMakePackageConfigHelpers)

set(ROOFLINT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/rooflint CACHE STRING
    "Where the rooflint CMake package is installed, relative to the prefix")
set(rooflint_package_files ${CMAKE_CURRENT_LIST_DIR}/RooflintAnalyze.cmake ${CMAKE_CURRENT_LIST_DIR}/RooflintCuda20.cmake)

foreach(part model dsl files)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${part}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT rooflint_dev)
endforeach()
set_target_properties(rooflint_model PROPERTIES EXPORT_NAME model)
set_target_properties(rooflint_dsl PROPERTIES EXPORT_NAME dsl)
set_target_properties(rooflint_files PROPERTIES EXPORT_NAME files)
install(TARGETS rooflint_model rooflint_dsl rooflint_files EXPORT rooflintTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT rooflint_dev)
install(EXPORT rooflintTargets NAMESPACE rooflint:: DESTINATION ${ROOFLINT_INSTALL_CMAKEDIR} COMPONENT rooflint_dev)

set(ROOFLINT_PACKAGE_HAS_RUNTIME OFF)
if(TARGET rooflint_runtime)
  set(ROOFLINT_PACKAGE_HAS_RUNTIME ON)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT rooflint_dev)
  set_target_properties(rooflint_runtime PROPERTIES EXPORT_NAME runtime)
  install(TARGETS rooflint_runtime EXPORT rooflintRuntimeTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT rooflint_dev)
  install(EXPORT rooflintRuntimeTargets NAMESPACE rooflint:: DESTINATION ${ROOFLINT_INSTALL_CMAKEDIR}
          COMPONENT rooflint_dev)
endif()

# The analyzer is installed when it is built here (not when ROOFLINT_ANALYZER_EXECUTABLE names one).
set(ROOFLINT_PACKAGE_HAS_ANALYZER OFF)
if(TARGET rooflint)
  set(ROOFLINT_PACKAGE_HAS_ANALYZER ON)
  install(TARGETS rooflint EXPORT rooflintAnalyzerTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT rooflint_tools)
  install(EXPORT rooflintAnalyzerTargets NAMESPACE rooflint:: DESTINATION ${ROOFLINT_INSTALL_CMAKEDIR}
          COMPONENT rooflint_dev)
endif()

foreach(tool rooflint-ceilings rooflint-verify rooflint-summary)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT rooflint_tools)
  endif()
endforeach()

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
