// What a test reads of an InputError: its three parts on one line.
#pragma once

#include "core/input_error.hpp"

#include <functional>
#include <string>

namespace cleave::test {

// What an InputError thrown by `f` says, as "file | place | problem"; "no error" without one.
inline std::string input_error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.file() + " | " + e.place() + " | " + e.problem();
    }
    return "no error";
}

// The same as "place: problem", for tests of calls that have no file.
inline std::string place_and_problem_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.place() + ": " + e.problem();
    }
    return "no error";
}

} // namespace cleave::test
