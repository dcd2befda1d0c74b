// libFuzzer target: the ceilings-file reader (dsl/src/ceilings_file.cpp, docs/ceilings-schema.md) on
// arbitrary bytes. It must return a file or an error, never crash, hang or leak (ASan, UBSan); and a
// file it accepts must survive its own writer: to_json() of it parses again.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "rooflint/files/ceilings_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);
  std::string error;
  const auto file = rooflint::ceilings::from_json(text, error);
  if (!file) {
    if (error.empty()) {
      std::fprintf(stderr, "fuzz_ceilings_file: rejected without an error message\n");
      std::abort();
    }
    return 0;
  }
  (void)file->peaks();
  std::string again;
  if (!rooflint::ceilings::from_json(rooflint::ceilings::to_json(*file), again)) {
    std::fprintf(stderr, "fuzz_ceilings_file: an accepted file does not read back after to_json: %s\n", again.c_str());
    std::abort();
  }
  return 0;
}
