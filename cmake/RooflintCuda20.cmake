# C++20 in CUDA code for targets that link rooflint::dsl (it requires the compile feature cuda_std_20).
#
# CMake 3.25 knows no C++20 dialect flag for nvcc, so a CUDA target that links rooflint::dsl fails at
# generate time ("The compiler feature cuda_std_20 is not known to CUDA compiler"). nvcc accepts
# -std=c++20 from CUDA 12.0 on; rooflint_cuda20_flags() teaches CMake that flag in the calling scope.
# rooflint's top-level CMakeLists, the installed rooflintConfig.cmake and a rooflint subproject call it.

# Sets, in the caller's scope, the C++20 flag CMake lacks for the enabled CUDA compiler. Without an
# enabled CUDA compiler it does nothing. Stops with what to set when it does not know the flag.
macro(rooflint_cuda20_flags)
  if(CMAKE_CUDA_COMPILER_LOADED AND NOT "cuda_std_20" IN_LIST CMAKE_CUDA_COMPILE_FEATURES)
    if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
      if(CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA" AND CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.0)
        set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
      else()
        message(FATAL_ERROR
          "rooflint: rooflint::dsl needs C++20 in CUDA code (compile feature cuda_std_20), and CMake "
          "${CMAKE_VERSION} knows no C++20 flag for the CUDA compiler ${CMAKE_CUDA_COMPILER_ID} "
          "${CMAKE_CUDA_COMPILER_VERSION}. Set CMAKE_CUDA20_STANDARD_COMPILE_OPTION to that compiler's "
          "C++20 flag (nvcc 12 and later: -std=c++20), or use a CMake that knows it.")
      endif()
    endif()
    if(NOT CMAKE_CUDA20_EXTENSION_COMPILE_OPTION)
      set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "${CMAKE_CUDA20_STANDARD_COMPILE_OPTION}")
    endif()
    list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
    set(CMAKE_CUDA20_COMPILE_FEATURES cuda_std_20)
  endif()
endmacro()

# The same four variables in the parent directory's scope (for a rooflint added with add_subdirectory or
# FetchContent, whose variables do not reach the project that added it).
macro(rooflint_cuda20_flags_to_parent)
  foreach(_rooflint_var CMAKE_CUDA20_STANDARD_COMPILE_OPTION CMAKE_CUDA20_EXTENSION_COMPILE_OPTION
                        CMAKE_CUDA_COMPILE_FEATURES CMAKE_CUDA20_COMPILE_FEATURES)
    set(${_rooflint_var} "${${_rooflint_var}}" PARENT_SCOPE)
  endforeach()
  unset(_rooflint_var)
endmacro()

# Scheduled (cmake_language DEFER) at the end of the directory that found or added rooflint before CUDA
# was enabled there: stops with what to do if CUDA came later and still has no C++20 flag.
function(rooflint_cuda20_check_late)
  if(CMAKE_CUDA_COMPILER_LOADED AND NOT "cuda_std_20" IN_LIST CMAKE_CUDA_COMPILE_FEATURES)
    message(FATAL_ERROR
      "rooflint: CUDA was enabled in ${CMAKE_CURRENT_SOURCE_DIR} after rooflint was found or added, and "
      "CMake ${CMAKE_VERSION} knows no C++20 flag for ${CMAKE_CUDA_COMPILER_ID} "
      "${CMAKE_CUDA_COMPILER_VERSION}: CUDA targets linking rooflint::dsl would not build. Enable CUDA "
      "first (project(... LANGUAGES CXX CUDA) before find_package(rooflint) or FetchContent_MakeAvailable), "
      "or configure a fresh build directory with -DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20 "
      "-DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20.")
  endif()
endfunction()
