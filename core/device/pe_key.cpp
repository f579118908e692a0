#include "pe_key.hpp"

#include <algorithm>
#include <stdexcept>

namespace cleave::device {

namespace {
bool digits_form(const std::vector<int>& sorted) {
    return sorted.size() < 10 && (sorted.empty() || sorted.back() < 10);
}

bool consecutive(const std::vector<int>& sorted) {
    for (std::size_t i = 1; i < sorted.size(); ++i)
        if (sorted[i] != sorted[i - 1] + 1)
            return false;
    return true;
}
} // namespace

bool core_ids_nameable(std::vector<int> ids) {
    std::sort(ids.begin(), ids.end());
    return !ids.empty() && (digits_form(ids) || consecutive(ids));
}

std::string pe_resource(const ProcessingElement& pe) {
    if (pe.kind == PeKind::gpu)
        return "gpu";
    std::vector<int> ids = pe.core_ids;
    std::sort(ids.begin(), ids.end());
    if (ids.empty() || !core_ids_nameable(ids))
        throw std::invalid_argument("CPU PE \"" + pe.name + "\" has core numbers with no name");
    std::string resource = pe.arch == "arm" ? "arm" : "cpu";
    if (digits_form(ids)) {
        for (const int id : ids)
            resource += std::to_string(id);
        return resource;
    }
    return resource + std::to_string(ids.front()) + "-" + std::to_string(ids.back());
}

std::string pe_key(const std::string& host, const ProcessingElement& pe) {
    return host + "_" + pe_resource(pe);
}

std::optional<int> key_core_count(const std::string& key) {
    const auto underscore = key.rfind('_');
    const std::string resource = key.substr(underscore == std::string::npos ? 0 : underscore + 1);
    if (!resource.starts_with("cpu") && !resource.starts_with("arm"))
        return std::nullopt;
    const std::string cores = resource.substr(3);
    if (cores.empty() || !std::all_of(cores.begin(), cores.end(),
                                      [](char c) { return (c >= '0' && c <= '9') || c == '-'; }))
        return std::nullopt;
    if (const auto dash = cores.find('-'); dash != std::string::npos) {
        if (dash == 0 || dash > 4 || cores.size() - dash - 1 > 4 || dash + 1 == cores.size() ||
            cores.find('-', dash + 1) != std::string::npos)
            return std::nullopt;
        const int first = std::stoi(cores.substr(0, dash)),
                  last = std::stoi(cores.substr(dash + 1));
        return last >= first ? std::optional<int>(last - first + 1) : std::nullopt;
    }
    return static_cast<int>(cores.size());
}

} // namespace cleave::device
