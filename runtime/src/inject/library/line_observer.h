#pragma once
// The injection library's lines mode, for a per-line rerun of rooflint-verify -- program
// (inject/program_lines.h; inject.h's env_lines_*). CUPTI's SASS metrics collect in the first window of
// a process only, neither after the range profiler nor with the activity API, so in this mode the
// library does nothing else with CUPTI: it captures the cubins of loaded modules from its start (before
// any module loads), and wraps the first launch of the one kernel at the one set of sizes asked for in
// one SASS-metrics window (cupti::sass_window: begun at the launch API's entry, ended at its exit),
// then appends the observation (measure/lines.h, one JSON line) to the file asked for. Every other launch
// passes untouched.

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "rooflint/runtime/inject.h"

namespace rooflint::runtime::inject {

/// What a rerun asks the library to observe, and where it writes the observation.
struct lines_request {
  std::string mangled_name;  ///< env_lines_kernel
  std::string sizes;         ///< env_lines_sizes: sizes_text() of the launch to observe
  std::string out_path;      ///< env_lines_out
};

/// @return The request in the environment: present when env_lines_kernel is set and not empty.
inline std::optional<lines_request> lines_request_from_environment() {
  const char* kernel = std::getenv(env_lines_kernel);
  if (!kernel || !*kernel) return std::nullopt;
  const char* sizes = std::getenv(env_lines_sizes);
  const char* out = std::getenv(env_lines_out);
  return lines_request{kernel, sizes ? sizes : "", out ? out : ""};
}

/// @return Whether a launch of @p symbol whose sizes are @p sizes (sizes_text; empty when they did not
/// bind) is the one @p request asks for.
inline bool is_requested_launch(const lines_request& request, const std::string& symbol, const std::string& sizes) {
  return symbol == request.mangled_name && !sizes.empty() && sizes == request.sizes;
}

/// Starts the lines mode: one CUPTI subscriber (the process's one) for the module-loaded callback and the
/// kernel launch APIs, nothing else. @p kernels: the manifests' kernels, whose entry of the requested
/// one binds a launch's sizes. @return 0; 1 when CUPTI cannot be subscribed to (said on stderr).
int start_line_observer(const lines_request& request, std::vector<manifest_kernel> kernels);

}  // namespace rooflint::runtime::inject
