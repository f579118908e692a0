// Errors caused by what a user gave us (a file, a flag, a mapping): they carry the file, the
// place inside it and what was expected, so every front end can print one precise message.
#pragma once

#include <stdexcept>
#include <string>

namespace cleave {

class InputError : public std::runtime_error {
public:
    // file: the path as the user gave it (may be empty for flags); place: a line, JSON
    // pointer, node or tensor name, byte offset; problem: what is wrong and what was expected.
    InputError(std::string file, std::string place, std::string problem);

    const std::string& file() const { return file_; }
    const std::string& place() const { return place_; }
    const std::string& problem() const { return problem_; }

private:
    std::string file_;
    std::string place_;
    std::string problem_;
};

} // namespace cleave
