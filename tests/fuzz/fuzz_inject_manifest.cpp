// libFuzzer target: the manifest reader of rooflint-verify and its injection library, through its
// public entry read_manifest (rooflint/runtime/inject.h), on arbitrary bytes as a manifest file. It must
// return the kernels or an error, never crash, throw, hang or leak; and a kernel it returns must be
// usable as the injection library uses it: a launch's values read at its parameter layout and its sizes
// bound, with every argument 0 and then 1.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "rooflint/runtime/inject.h"

using namespace rooflint::runtime::inject;

namespace {
std::string manifest_path;
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  char path[] = "/tmp/rooflint-fuzz-inject-manifest-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) std::abort();
  close(fd);
  manifest_path = path;
  std::atexit([] { unlink(manifest_path.c_str()); });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::FILE* f = std::fopen(manifest_path.c_str(), "wb");
  if (!f) std::abort();
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  const auto kernels = read_manifest(manifest_path);
  if (!kernels) return 0;
  for (const manifest_kernel& k : *kernels) {
    for (const std::uint8_t fill : {0, 1}) {
      // The packed form of a launch's parameters (the driver's 'extra' buffer), as large as the layout says.
      std::vector<std::uint8_t> packed(4096, fill);
      const launch_shape shape{{fill + 1, 1, 1}, {fill + 1, 1, 1}};
      const auto values = launch_values_from(k, nullptr, packed.data(), packed.size(), shape);
      const auto bound = k.spec.bind_launch(values);
      if (bound.ok()) sizes_text(k.spec, bound.bound);
    }
  }
  return 0;
}
