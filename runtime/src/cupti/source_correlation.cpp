// PC -> file:line through CUPTI's source correlation, and a cubin's CRC (cupti/source_correlation.h).

#include "cupti/source_correlation.h"

#include <cupti_pcsampling.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "cupti/cupti.h"
#include "cupti/cupti_check.h"
#include "cupti/inlined_calls.h"

namespace rooflint::runtime::cupti {

result<std::uint64_t> cubin_crc(const std::vector<char>& cubin) {
  if (cubin.empty()) return error{error_code::invalid_argument, "cuptiGetCubinCrc: the cubin is empty"};
  CUpti_GetCubinCrcParams p{CUpti_GetCubinCrcParamsSize};
  p.cubin = cubin.data();
  p.cubinSize = cubin.size();
  ROOFLINT_TRY_CUPTI(cuptiGetCubinCrc(&p));
  return p.cubinCrc;
}

correlate_fn correlation_of(std::shared_ptr<const std::vector<char>> cubin) {
  // The cubin's own line table gives the calls CUPTI's innermost line was inlined at; a cubin whose table
  // cannot be read keeps CUPTI's lines.
  auto parsed = inlined_calls::parse(*cubin);
  auto calls = std::make_shared<const inlined_calls>(parsed ? std::move(*parsed) : inlined_calls{});
  return [cubin = std::move(cubin), calls](const std::string& function, std::uint32_t pc) -> result<source_location> {
    CUpti_GetSassToSourceCorrelationParams p{CUpti_GetSassToSourceCorrelationParamsSize};
    p.cubin = cubin->data();
    p.cubinSize = cubin->size();
    p.functionName = function.c_str();
    p.pcOffset = pc;
    const CUptiResult r = cuptiGetSassToSourceCorrelation(&p);
    // CUPTI allocates the names; the caller frees them (cupti_pcsampling.h).
    const std::string file = p.fileName ? p.fileName : "", dir = p.dirName ? p.dirName : "";
    std::free(p.fileName);
    std::free(p.dirName);
    if (r != CUPTI_SUCCESS)
      return error{r == CUPTI_ERROR_INVALID_PARAMETER ? error_code::invalid_argument : error_code::internal,
                   "cuptiGetSassToSourceCorrelation('" + function + "', pc " + std::to_string(pc) + ") failed: " + describe(r) +
                       (r == CUPTI_ERROR_INVALID_PARAMETER ? "; the cubin has no such function" : "")};
    source_location where;
    if (file.empty()) return where;  // no line information for this PC
    where.file = std::filesystem::path(file).is_absolute() || dir.empty() ? file : (std::filesystem::path(dir) / file).string();
    where.line = p.lineNumber;
    return user_line(where, calls->chain(function, pc));
  };
}

}  // namespace rooflint::runtime::cupti
