// libFuzzer target: the manifest reader of rooflint-summary (analyzer/tool/RooflintSummary.cpp, built
// into this target with its main() renamed rooflint_summary_main) on arbitrary bytes as a manifest
// file. It must print a table or exit 3 with an error, never crash, throw out of main, hang or leak.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <streambuf>
#include <string>

int rooflint_summary_main(int argc, char **argv);

namespace {
std::string manifest_path;

/// Takes every character: the tables and error lines are not the fuzzer's output, and a stream whose
/// writes fail would make rooflint-summary report a failed output (exit 5).
struct discarding_buffer : std::streambuf {
  int overflow(int c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};
discarding_buffer discard;
}  // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  char path[] = "/tmp/rooflint-fuzz-manifest-XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) std::abort();
  close(fd);
  manifest_path = path;
  std::atexit([] { unlink(manifest_path.c_str()); });
  std::cout.rdbuf(&discard);
  std::cerr.rdbuf(&discard);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  std::FILE *f = std::fopen(manifest_path.c_str(), "wb");
  if (!f) std::abort();
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  std::string arg0 = "rooflint-summary", arg1 = manifest_path;
  char *argv[] = {arg0.data(), arg1.data(), nullptr};
  const int status = rooflint_summary_main(2, argv);
  if (status != 0 && status != 3) {
    std::fprintf(stderr, "fuzz_manifest: rooflint-summary exited %d (0 or 3 expected)\n", status);
    std::abort();
  }
  return 0;
}
