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

} // namespace cleave::device
