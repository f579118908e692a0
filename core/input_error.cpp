#include "input_error.hpp"

namespace cleave {

namespace {
std::string compose(const std::string& file, const std::string& place, const std::string& problem) {
    std::string message;
    if (!file.empty())
        message += file;
    if (!place.empty())
        message += (message.empty() ? "" : ": ") + place;
    return message.empty() ? problem : message + ": " + problem;
}
} // namespace

InputError::InputError(std::string file, std::string place, std::string problem)
    : std::runtime_error(compose(file, place, problem)), file_(std::move(file)),
      place_(std::move(place)), problem_(std::move(problem)) {}

} // namespace cleave
