#include "mapping.hpp"

#include "core/input_error.hpp"

#include <charconv>
#include <sstream>

namespace cleave::partition {

namespace {

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> items;
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, ','))
        items.push_back(item);
    return items;
}

} // namespace

void check_mapping(const Mapping& mapping, int kernel_count, int pe_count,
                   const std::string& place) {
    int previous = 0;
    for (const int point : mapping.points) {
        if (point <= previous || point >= kernel_count)
            throw InputError("", place,
                             "split point " + std::to_string(point) +
                                 ": points must ascend strictly and lie between 1 and " +
                                 std::to_string(kernel_count - 1) + " (the model has " +
                                 std::to_string(kernel_count) + " kernels)");
        previous = point;
    }
    if (mapping.pes.size() != mapping.points.size() + 1)
        throw InputError("", "--pes",
                         std::to_string(mapping.points.size()) + " split points make " +
                             std::to_string(mapping.points.size() + 1) + " segments, but " +
                             std::to_string(mapping.pes.size()) + " PEs were given");
    for (const int pe : mapping.pes)
        if (pe < 0 || pe >= pe_count)
            throw InputError("", "--pes", "PE index " + std::to_string(pe) + " is not in the cluster");
}

KernelAssignment assignment_of(const Mapping& mapping, int kernel_count) {
    KernelAssignment assignment;
    assignment.pe_of_kernel.resize(static_cast<std::size_t>(kernel_count));
    std::size_t segment = 0;
    for (int k = 0; k < kernel_count; ++k) {
        while (segment < mapping.points.size() && k >= mapping.points[segment])
            ++segment;
        assignment.pe_of_kernel[static_cast<std::size_t>(k)] = mapping.pes[segment];
    }
    return assignment;
}

Mapping runs_of(const KernelAssignment& assignment) {
    Mapping mapping;
    const auto& pes = assignment.pe_of_kernel;
    for (std::size_t k = 0; k < pes.size(); ++k) {
        if (k > 0 && pes[k] == pes[k - 1])
            continue;
        if (k > 0)
            mapping.points.push_back(static_cast<int>(k));
        mapping.pes.push_back(pes[k]);
    }
    return mapping;
}

Mapping parse_mapping(const std::string& points, const std::string& pes,
                      const device::Cluster& cluster, int kernel_count) {
    Mapping mapping;
    if (!points.empty())
        for (const auto& item : split_list(points)) {
            int value = 0;
            const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), value);
            if (error != std::errc() || end != item.data() + item.size())
                throw InputError("", "--points",
                                 "'" + item + "' is not a kernel count; expected comma-separated "
                                              "integers such as 12,40");
            mapping.points.push_back(value);
        }
    for (const auto& key : split_list(pes)) {
        const auto* pe = cluster.find_pe(key);
        if (!pe) {
            std::string known;
            for (const auto& p : cluster.pes)
                known += (known.empty() ? "" : ", ") + p.key;
            throw InputError(cluster.file, "--pes",
                             "no PE '" + key + "' in the cluster; its PEs are " + known);
        }
        mapping.pes.push_back(static_cast<int>(pe - cluster.pes.data()));
    }
    check_mapping(mapping, kernel_count, static_cast<int>(cluster.pes.size()));
    return mapping;
}

} // namespace cleave::partition
