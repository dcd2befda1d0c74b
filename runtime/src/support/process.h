#pragma once
// What a process is, as /proc shows it: used to name the processes of a program in reports and the
// process that holds a GPU's counters.

#include <string>

namespace rooflint::runtime {

/// The command line of process @p pid, its arguments separated by spaces; empty when /proc has none.
std::string command_line_of(long pid);

}  // namespace rooflint::runtime
