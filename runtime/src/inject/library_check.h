#pragma once
// rooflint-verify's check of --inject-library before the program runs: the CUDA driver loads the file
// named by CUDA_INJECTION64_PATH into the program and, when it cannot, says nothing, so a wrong path or
// file would cost a whole run that measures nothing. The check reads the file; it does not load it
// (loading needs the driver's libcuda.so.1, which a machine without a GPU lacks).

#include <optional>
#include <string>

namespace rooflint::runtime::inject {

/// @return Why @p path is not a CUDA injection library the driver could load into this machine's
/// programs, or std::nullopt: not a readable regular file, not ELF, not 64-bit, not a shared library,
/// another machine's, or no exported InitializeInjection (the function the driver calls).
std::optional<std::string> injection_library_problem(const std::string& path);

}  // namespace rooflint::runtime::inject
