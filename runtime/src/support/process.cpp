#include "support/process.h"

#include <algorithm>
#include <fstream>
#include <iterator>

namespace rooflint::runtime {

std::string command_line_of(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
  std::string cmd((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!cmd.empty() && cmd.back() == '\0') cmd.pop_back();
  std::replace(cmd.begin(), cmd.end(), '\0', ' ');
  return cmd;
}

}  // namespace rooflint::runtime
