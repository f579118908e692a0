// Commands whose work needs a heavy library run in a program of their own, installed beside
// cleave, so that every other command starts without loading it: render runs cleave-render (Qt
// Widgets), dse runs cleave-dse (pagmo2, with TBB and Boost). The program replaces this process,
// so its output, exit code and signal handling are the command's.
#pragma once

#include <string>
#include <vector>

namespace cleave::cli {

// Replaces this process by <this program's folder>/<program> with `arguments` as its argv
// (argv[0] included). Returns only by throwing: an InputError on the program's path saying
// `missing` when it is not there, else a runtime_error.
[[noreturn]] void run_sibling(const std::string& program, std::vector<std::string> arguments,
                              const std::string& missing);

} // namespace cleave::cli
