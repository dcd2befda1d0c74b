# Runs one step of the consumer test (tests/consumer/CMakeLists.txt) with the CMake that runs it:
#   cmake -DSTEP=<install|package|tools|deb|fetchcontent|no-analyzer|late-cuda|nolint> -DWORK=<dir> ... -P run_consumer.cmake
# Inputs: ROOFLINT_BUILD_DIR (the build tree under test), ROOFLINT_SOURCE_DIR, ANALYZER (its rooflint),
# CPACK (the cpack of this CMake), PACKAGE_FILE_NAME (the package's name without extension), READELF
# (may be empty), GENERATOR, CXX_COMPILER, CUDA_COMPILER, CUDA_ARCHITECTURES, CXX_LAUNCHER, CUDA_LAUNCHER
# (may be empty), HAS_RUNTIME.
# Each step writes its logs under WORK and fails with what it expected and what it saw.
cmake_minimum_required(VERSION 3.25)

set(root ${WORK}/root)                      # the scratch root the .tar.gz is unpacked into
set(prefix ${root}/${PACKAGE_FILE_NAME})    # the package's top directory: the installed prefix
set(project ${CMAKE_CURRENT_LIST_DIR}/project)

# run(<log name> <command...>): runs the command, output to WORK/<log name>.log; OUTPUT and STATUS set.
macro(run name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE STATUS OUTPUT_VARIABLE OUTPUT ERROR_VARIABLE OUTPUT)
  file(WRITE ${WORK}/${name}.log "${OUTPUT}")
endmacro()

function(fail what)
  message(FATAL_ERROR "${what}")
endfunction()

function(expect_in name text)
  string(FIND "${OUTPUT}" "${text}" at)
  if(at EQUAL -1)
    fail("${name}: expected\n  ${text}\nin ${WORK}/${name}.log:\n${OUTPUT}")
  endif()
endfunction()

function(expect_not_in name text)
  string(FIND "${OUTPUT}" "${text}" at)
  if(NOT at EQUAL -1)
    fail("${name}: did not expect\n  ${text}\nin ${WORK}/${name}.log:\n${OUTPUT}")
  endif()
endfunction()

function(expect_status name expected)
  if(NOT STATUS EQUAL expected)
    fail("${name}: exit status ${STATUS}, expected ${expected} (${WORK}/${name}.log):\n${OUTPUT}")
  endif()
endfunction()

# The consumer's configure flags: the same compilers, generator and compiler launcher as the tree under test.
set(configure_flags -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
    -DCMAKE_CUDA_COMPILER=${CUDA_COMPILER} -DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHITECTURES})
if(CXX_LAUNCHER)
  list(APPEND configure_flags -DCMAKE_CXX_COMPILER_LAUNCHER=${CXX_LAUNCHER})
endif()
if(CUDA_LAUNCHER)
  list(APPEND configure_flags -DCMAKE_CUDA_COMPILER_LAUNCHER=${CUDA_LAUNCHER})
endif()

# What the analyzer must print for kernels.cu (by hand in kernels.h: 0.167 FLOP/byte against the ridge
# 13.9, floor 201,326,592 B at 4.8 TB/s = 41.9 us; the flagged read is x[i * 33 + 2], stride 33).
set(verdict "remark: kernel 'consumer_saxpy' is memory-bound (arithmetic intensity 0.167 FLOP/byte, ridge 13.9 FLOP/byte on H200 FP32, datasheet peaks)")
set(flagged "kernels.cu:14:")

function(build_consumer name)
  file(REMOVE_RECURSE ${WORK}/${name})
  run(${name}.configure ${CMAKE_COMMAND} -S ${project} -B ${WORK}/${name} ${configure_flags} ${ARGN})
  if(NOT STATUS EQUAL 0)
    fail("${name}: configure failed (${WORK}/${name}.configure.log):\n${OUTPUT}")
  endif()
  run(${name}.build ${CMAKE_COMMAND} --build ${WORK}/${name})
  if(NOT STATUS EQUAL 0)
    fail("${name}: build failed (${WORK}/${name}.build.log):\n${OUTPUT}")
  endif()
  expect_in(${name}.build "${verdict}")
  expect_in(${name}.build "${flagged}")
  expect_in(${name}.build "[rooflint-uncoalesced]")
  set(OUTPUT "${OUTPUT}" PARENT_SCOPE)
endfunction()

if(STEP STREQUAL "install")
  # The .tar.gz a CI job downloads, made by CPack from this build tree and unpacked into a scratch root:
  # every file in place, no absolute build or source path in the CMake package (the prefix moved: CPack
  # installed it elsewhere), and no debug information in what was installed.
  file(REMOVE_RECURSE ${WORK})
  file(MAKE_DIRECTORY ${WORK}/cpack ${root})
  run(install.cpack ${CPACK} -G TGZ --config ${ROOFLINT_BUILD_DIR}/CPackConfig.cmake -B ${WORK}/cpack)
  expect_status(install.cpack 0)
  set(archive ${WORK}/cpack/${PACKAGE_FILE_NAME}.tar.gz)
  if(NOT EXISTS ${archive})
    fail("cpack wrote no ${archive} (${WORK}/install.cpack.log)")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E tar xzf ${archive} WORKING_DIRECTORY ${root} RESULT_VARIABLE STATUS)
  if(NOT STATUS EQUAL 0)
    fail("cannot unpack ${archive}")
  endif()
  set(installed include/rooflint/dsl.h include/rooflint/files/ceilings_file.h include/rooflint/process/child.h
      lib/librooflint_process.a bin/rooflint bin/rooflint-summary
      lib/cmake/rooflint/rooflintConfig.cmake lib/cmake/rooflint/rooflintConfigVersion.cmake
      lib/cmake/rooflint/RooflintAnalyze.cmake share/doc/rooflint/LICENSE share/doc/rooflint/README.md
      share/doc/rooflint/docs/quickstart.md share/doc/rooflint/docs/diagnostics/rooflint-uncoalesced.md)
  if(HAS_RUNTIME)
    list(APPEND installed include/rooflint/runtime/verify.h bin/rooflint-ceilings bin/rooflint-verify
         lib/rooflint/librooflint-inject.so lib/librooflint_runtime.a)
  endif()
  foreach(file IN LISTS installed)
    if(NOT EXISTS ${prefix}/${file})
      fail("not in the package: ${file} (${archive})")
    endif()
  endforeach()
  file(GLOB package_files ${prefix}/lib/cmake/rooflint/*.cmake)
  foreach(file IN LISTS package_files)
    file(READ ${file} text)
    foreach(path ${ROOFLINT_BUILD_DIR} ${ROOFLINT_SOURCE_DIR})
      string(FIND "${text}" "${path}" at)
      if(NOT at EQUAL -1)
        fail("${file} names the absolute path ${path}: the package is not relocatable")
      endif()
    endforeach()
  endforeach()
  # Debug information stays in the build tree (ROOFLINT_INSTALL_STRIP): no .debug_info section in any
  # installed executable, library or archive member.
  if(READELF)
    file(GLOB binaries ${prefix}/bin/* ${prefix}/lib/*.a ${prefix}/lib/rooflint/*.so)
    foreach(binary IN LISTS binaries)
      execute_process(COMMAND ${READELF} -S -W ${binary} OUTPUT_VARIABLE sections ERROR_QUIET)
      string(FIND "${sections}" ".debug_info" at)
      if(NOT at EQUAL -1)
        fail("${binary} was installed with debug information (.debug_info)")
      endif()
    endforeach()
  endif()
  message(STATUS "packaged and unpacked into ${prefix}")

elseif(STEP STREQUAL "package")
  build_consumer(package -DCMAKE_PREFIX_PATH=${prefix})
  if(HAS_RUNTIME AND NOT EXISTS ${WORK}/package/consumer_verify)
    fail("package: consumer_verify (linked with the installed rooflint::runtime) was not built")
  endif()
  file(READ ${WORK}/package/consumer_kernels.rooflint.json manifest)
  string(JSON kernel GET "${manifest}" kernels 0 name)
  if(NOT kernel STREQUAL "consumer_saxpy")
    fail("package: the manifest's first kernel is '${kernel}', not 'consumer_saxpy'")
  endif()
  # The SARIF a CI job would upload: SARIF 2.1.0's schema and GitHub code scanning's rules (relative URIs
  # under the consumer's source directory, rule help), checked by the analyzer tests' validator.
  find_program(python3 python3)
  if(python3)
    run(package.sarif ${python3} ${ROOFLINT_SOURCE_DIR}/tests/analyzer/check_sarif.py
        ${ROOFLINT_SOURCE_DIR}/third_party/sarif-2.1.0/sarif-schema-2.1.0.json
        ${WORK}/package/consumer_kernels.sarif --root ${project})
    if(NOT STATUS EQUAL 0)
      fail("package: the SARIF does not pass the schema or GitHub's rules:\n${OUTPUT}")
    endif()
  endif()

elseif(STEP STREQUAL "tools")
  # The installed tools, as a CI job runs them from the package's bin/.
  # The analyzer on a file, with the flags a compiler gets (no compilation database).
  run(tools.analyzer ${prefix}/bin/rooflint --quiet --no-pch-cache ${project}/kernels.cu -- -std=c++20 -I${prefix}/include)
  expect_status(tools.analyzer 0)
  expect_in(tools.analyzer "${verdict}")
  expect_in(tools.analyzer "${flagged}")
  # The table of verdicts from the package step's manifest; the SARIF beside it is no manifest (exit 3).
  run(tools.summary ${prefix}/bin/rooflint-summary ${WORK}/package/consumer_kernels.rooflint.json)
  expect_status(tools.summary 0)
  expect_in(tools.summary "consumer_saxpy")
  run(tools.summary-sarif ${prefix}/bin/rooflint-summary ${WORK}/package/consumer_kernels.sarif)
  expect_status(tools.summary-sarif 3)
  expect_in(tools.summary-sarif "not a rooflint manifest")
  if(NOT HAS_RUNTIME)
    return()
  endif()
  # The verifier over the consumer's plain program, the build directory searched for its manifest
  # (*.rooflint.json). It must find its injection library in the package; without a GPU it says there
  # is no device and exits 3 (could not measure; the program itself exits 0, as a skipping test does).
  run(tools.verify ${prefix}/bin/rooflint-verify --manifest ${WORK}/package -- ${WORK}/package/consumer_program)
  expect_not_in(tools.verify "was not found")
  execute_process(COMMAND nvidia-smi -L RESULT_VARIABLE no_gpu OUTPUT_QUIET ERROR_QUIET)
  if(no_gpu)
    expect_status(tools.verify 3)
    expect_in(tools.verify "consumer_program: no CUDA device")
    expect_in(tools.verify "nothing was measured (exit code 3): no ")
    expect_in(tools.verify "CUDA device")
  else()
    expect_in(tools.verify "consumer_saxpy [N=1048576]")
    expect_in(tools.verify "consumer_program: no error")
  endif()

elseif(STEP STREQUAL "deb")
  # The .deb: the same files under /usr, and the LLVM 19 packages the analyzer needs as dependencies.
  find_program(dpkg_deb dpkg-deb)
  if(NOT dpkg_deb)
    message(STATUS "no dpkg-deb here: the .deb is not checked")
    return()
  endif()
  file(REMOVE_RECURSE ${WORK}/deb)
  run(deb.cpack ${CPACK} -G DEB --config ${ROOFLINT_BUILD_DIR}/CPackConfig.cmake -B ${WORK}/deb)
  expect_status(deb.cpack 0)
  set(deb ${WORK}/deb/${PACKAGE_FILE_NAME}.deb)
  run(deb.contents ${dpkg_deb} --contents ${deb})
  expect_status(deb.contents 0)
  expect_in(deb.contents "./usr/bin/rooflint\n")
  expect_in(deb.contents "./usr/lib/cmake/rooflint/rooflintConfig.cmake")
  if(HAS_RUNTIME)
    expect_in(deb.contents "./usr/bin/rooflint-verify")
    expect_in(deb.contents "./usr/lib/rooflint/librooflint-inject.so")
  endif()
  run(deb.depends ${dpkg_deb} --field ${deb} Depends)
  expect_in(deb.depends "libclang-cpp19, libllvm19, libclang-common-19-dev")

elseif(STEP STREQUAL "fetchcontent")
  # rooflint from its source tree, with the analyzer of the tree under test (not built again) and no CUDA
  # runtime: nothing of rooflint's own (examples, tests, analyzer) may be built or analysed.
  build_consumer(fetchcontent -DROOFLINT_CONSUMER_MODE=fetchcontent -DROOFLINT_SOURCE_DIR=${ROOFLINT_SOURCE_DIR}
                 -DROOFLINT_ANALYZER_EXECUTABLE=${ANALYZER} -DROOFLINT_BUILD_CUDA=OFF -DFETCHCONTENT_QUIET=ON)
  foreach(unwanted "examples/" "rooflint_dsl_tests" "Linking CXX executable _deps/rooflint-build/analyzer/rooflint")
    expect_not_in(fetchcontent.build "${unwanted}")
  endforeach()
  # (analyzer/tool, rooflint-summary, is host-only and built; the analyzer's own directory is not.)
  foreach(dir analyzer/CMakeFiles examples tests)
    if(EXISTS ${WORK}/fetchcontent/_deps/rooflint-build/${dir})
      fail("fetchcontent: rooflint's ${dir}/ was configured in the consumer's build")
    endif()
  endforeach()

elseif(STEP STREQUAL "no-analyzer")
  # Only the dsl component: no analyzer, so rooflint_analyze() warns, or stops under ROOFLINT_REQUIRE_ANALYZER.
  set(expected "rooflint_analyze(TARGET consumer_kernels): no rooflint analyzer")
  file(REMOVE_RECURSE ${WORK}/no-analyzer)
  run(no-analyzer.warn ${CMAKE_COMMAND} -S ${project} -B ${WORK}/no-analyzer ${configure_flags}
      -DCMAKE_PREFIX_PATH=${prefix} -DROOFLINT_CONSUMER_MODE=dsl-only)
  if(NOT STATUS EQUAL 0)
    fail("no-analyzer: configure failed, but a missing analyzer is only a warning:\n${OUTPUT}")
  endif()
  expect_in(no-analyzer.warn "CMake Warning")
  expect_in(no-analyzer.warn "${expected}")
  expect_in(no-analyzer.warn "ROOFLINT_ANALYZER_EXECUTABLE")
  run(no-analyzer.require ${CMAKE_COMMAND} ${WORK}/no-analyzer -DROOFLINT_REQUIRE_ANALYZER=ON)
  if(STATUS EQUAL 0)
    fail("no-analyzer: configure passed with ROOFLINT_REQUIRE_ANALYZER=ON and no analyzer:\n${OUTPUT}")
  endif()
  expect_in(no-analyzer.require "CMake Error")
  expect_in(no-analyzer.require "${expected}")
  # The rooflint_dev component alone (headers, libraries, the CMake package; the tools not installed):
  # find_package without components loads what is there, and rooflint_analyze() warns as above.
  file(REMOVE_RECURSE ${WORK}/dev-only ${WORK}/dev-only-build)
  run(no-analyzer.dev-install ${CMAKE_COMMAND} --install ${ROOFLINT_BUILD_DIR} --prefix ${WORK}/dev-only --component rooflint_dev)
  expect_status(no-analyzer.dev-install 0)
  run(no-analyzer.dev-only ${CMAKE_COMMAND} -S ${project} -B ${WORK}/dev-only-build ${configure_flags}
      -DCMAKE_PREFIX_PATH=${WORK}/dev-only)
  expect_status(no-analyzer.dev-only 0)
  expect_in(no-analyzer.dev-only "${expected}")
  # Asking for the analyzer there fails, saying what to install.
  set(src ${WORK}/dev-only-analyzer-src)
  file(REMOVE_RECURSE ${src} ${WORK}/dev-only-analyzer)
  file(WRITE ${src}/CMakeLists.txt "cmake_minimum_required(VERSION 3.25)\nproject(a LANGUAGES CXX)\n"
       "find_package(rooflint CONFIG REQUIRED COMPONENTS analyzer)\n")
  run(no-analyzer.dev-only-analyzer ${CMAKE_COMMAND} -S ${src} -B ${WORK}/dev-only-analyzer -DCMAKE_PREFIX_PATH=${WORK}/dev-only)
  if(STATUS EQUAL 0)
    fail("no-analyzer: COMPONENTS analyzer found in a prefix of rooflint_dev alone:\n${OUTPUT}")
  endif()
  expect_in(no-analyzer.dev-only-analyzer "no rooflint analyzer in this prefix")

elseif(STEP STREQUAL "late-cuda")
  # CUDA enabled after find_package(rooflint): CMake 3.25 cannot give nvcc C++20 then, and configure must
  # stop saying what to do; with the flags it names, a fresh configure passes. (Where CMake knows nvcc's
  # C++20 flag itself, the first configure passes too: then there is nothing to check.)
  set(src ${WORK}/late-cuda-src)
  file(REMOVE_RECURSE ${src} ${WORK}/late-cuda ${WORK}/late-cuda-fixed)
  file(WRITE ${src}/CMakeLists.txt "cmake_minimum_required(VERSION 3.25)\nproject(late LANGUAGES CXX)\n"
       "find_package(rooflint CONFIG REQUIRED COMPONENTS dsl)\nenable_language(CUDA)\n"
       "add_library(k STATIC k.cu)\ntarget_link_libraries(k PUBLIC rooflint::dsl)\n")
  file(WRITE ${src}/k.cu "#include <rooflint/dsl.h>\n__global__ void k() {}\n")
  run(late-cuda ${CMAKE_COMMAND} -S ${src} -B ${WORK}/late-cuda ${configure_flags} -DCMAKE_PREFIX_PATH=${prefix})
  if(STATUS EQUAL 0)
    string(FIND "${OUTPUT}" "rooflint:" at)
    if(NOT at EQUAL -1)
      fail("late-cuda: configure passed but printed a rooflint message:\n${OUTPUT}")
    endif()
    message(STATUS "late-cuda: this CMake knows nvcc's C++20 flag; nothing to check")
    return()
  endif()
  expect_in(late-cuda "rooflint: CUDA was enabled in")
  expect_in(late-cuda "-DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20")
  run(late-cuda-fixed ${CMAKE_COMMAND} -S ${src} -B ${WORK}/late-cuda-fixed ${configure_flags} -DCMAKE_PREFIX_PATH=${prefix}
      -DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20 -DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20)
  if(NOT STATUS EQUAL 0)
    fail("late-cuda: configure with the flags the message names still failed:\n${OUTPUT}")
  endif()

elseif(STEP STREQUAL "nolint")
  # Reads the package step's build log: the line with NOLINT (13) and the one after NOLINTNEXTLINE (16)
  # are silent; the same read between them (14) still warns.
  file(READ ${WORK}/package.build.log OUTPUT)
  expect_not_in(package.build "kernels.cu:13:")
  expect_not_in(package.build "kernels.cu:16:")
  expect_in(package.build "${flagged}")

else()
  fail("unknown STEP '${STEP}'")
endif()
