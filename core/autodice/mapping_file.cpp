#include "mapping_file.hpp"

#include "core/atomic_file.hpp"
#include "core/graph/autodice_names.hpp"
#include "core/input_error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <unordered_map>

namespace cleave::autodice {

namespace {

constexpr const char* kExpected =
    "an AutoDiCE mapping.json: one object whose keys are PE keys of the cluster (nx01_gpu, "
    "nx01_arm012345) and whose values list ONNX node names";

// Up to `shown` items, then how many more.
std::string listed(const std::vector<std::string>& items, std::size_t shown = 10) {
    std::string text;
    for (std::size_t i = 0; i < items.size() && i < shown; ++i)
        text += (i ? ", " : "") + items[i];
    if (items.size() > shown)
        text += " and " + std::to_string(items.size() - shown) + " more";
    return text;
}

std::vector<int> check_mapping(const nlohmann::json& root, const std::string& file,
                               const graph::Model& model, const device::Cluster& cluster) {
    if (!root.is_object())
        throw InputError(file, "", std::string("expected ") + kExpected);
    std::unordered_map<std::string, int> own;
    std::unordered_map<std::string, int> autodice;
    for (std::size_t n = 0; n < model.nodes.size(); ++n) {
        own.emplace(model.nodes[n].name, static_cast<int>(n));
        autodice.emplace(graph::autodice_name(model, model.nodes[n]), static_cast<int>(n));
    }
    std::vector<int> pe_of_node(model.nodes.size(), -1);
    std::vector<std::string> where(model.nodes.size());
    std::vector<std::string> unknown_keys, unknown_nodes, repeated;
    std::string first_place;
    const auto note_place = [&](const std::string& place) {
        if (first_place.empty())
            first_place = place;
    };
    for (const auto& [key, value] : root.items()) {
        const std::string key_place = child_pointer("", key);
        const auto* pe = cluster.find_pe(key);
        if (!pe) {
            unknown_keys.push_back(key);
            note_place(key_place);
        }
        if (!value.is_array())
            throw InputError(file, key_place, "expected a list of ONNX node names");
        for (std::size_t i = 0; i < value.size(); ++i) {
            const std::string place = key_place + "/" + std::to_string(i);
            if (!value[i].is_string())
                throw InputError(file, place, "expected an ONNX node name (a string)");
            const auto name = value[i].get<std::string>();
            auto found = own.find(name);
            if (found == own.end())
                found = autodice.find(name);
            if (found == autodice.end()) {
                unknown_nodes.push_back(name);
                note_place(place);
                continue;
            }
            const auto n = static_cast<std::size_t>(found->second);
            if (!where[n].empty()) {
                repeated.push_back(name + " (" + where[n] + " and " + place + ")");
                note_place(place);
                continue;
            }
            where[n] = place;
            if (pe)
                pe_of_node[n] = static_cast<int>(pe - cluster.pes.data());
        }
    }
    std::vector<std::string> missing;
    for (std::size_t n = 0; n < model.nodes.size(); ++n)
        if (where[n].empty())
            missing.push_back(model.nodes[n].name);
    if (!missing.empty())
        note_place("");
    std::string problem;
    const auto add = [&](const std::string& what, const std::vector<std::string>& items) {
        if (!items.empty())
            problem += (problem.empty() ? "" : "; ") + what + " (" + std::to_string(items.size()) +
                       "): " + listed(items);
    };
    if (!unknown_keys.empty()) {
        std::vector<std::string> keys;
        for (const auto& pe : cluster.pes)
            keys.push_back(pe.key);
        add("keys that are not PEs of the cluster " + cluster.file + " (its PEs: " +
                listed(keys, keys.size()) + ")",
            unknown_keys);
    }
    add("nodes not in the model " + model.file, unknown_nodes);
    add("nodes mapped more than once", repeated);
    add("nodes of the model mapped to no PE", missing);
    if (!problem.empty())
        throw InputError(file, first_place,
                         problem + "; every node of the model must be mapped exactly once");
    return pe_of_node;
}

} // namespace

std::vector<int> parse_mapping_file(const std::string& json_text, const std::string& file,
                                    const graph::Model& model, const device::Cluster& cluster) {
    return check_mapping(JsonReader(file).parse(json_text, kExpected), file, model, cluster);
}

std::vector<int> read_mapping_file(const std::string& path, const graph::Model& model,
                                   const device::Cluster& cluster) {
    return check_mapping(read_json_file(path, kExpected), path, model, cluster);
}

std::vector<std::string> kernel_cuts(const std::vector<int>& pe_of_node, const graph::Model& model,
                                     const fusion::KernelGraph& kernels,
                                     const device::Cluster& cluster) {
    std::vector<std::string> cuts;
    const auto pe_of = [&](int node) { return pe_of_node[static_cast<std::size_t>(node)]; };
    for (const auto& kernel : kernels.kernels) {
        // The kernel's nodes per PE, PEs in the order its nodes first reach them.
        std::vector<std::pair<int, std::vector<std::string>>> parts;
        for (const int n : kernel.nodes) {
            auto part = std::find_if(parts.begin(), parts.end(),
                                     [&](const auto& p) { return p.first == pe_of(n); });
            if (part == parts.end())
                part = parts.insert(parts.end(), {pe_of(n), {}});
            part->second.push_back(model.nodes[static_cast<std::size_t>(n)].name);
        }
        if (parts.size() < 2)
            continue;
        std::string where;
        for (const auto& [pe, names] : parts)
            where += (where.empty() ? "" : "; ") + listed(names, 4) + " on " +
                     cluster.pes[static_cast<std::size_t>(pe)].key;
        cuts.push_back("the mapping cuts kernel " + kernel.name + " (" + kernel.type + ", " +
                       std::to_string(kernel.nodes.size()) + " nodes): " + where +
                       "; each PE fuses and runs its part as a kernel of its own");
    }
    return cuts;
}

partition::KernelAssignment kernel_assignment(const std::vector<int>& pe_of_node,
                                              const fusion::KernelGraph& kernels) {
    partition::KernelAssignment assignment;
    for (const auto& kernel : kernels.kernels)
        assignment.pe_of_kernel.push_back(pe_of_node[static_cast<std::size_t>(kernel.nodes.front())]);
    return assignment;
}

MappedKernels mapped_kernels(const std::vector<int>& pe_of_node, const graph::Model& model,
                             const fusion::KernelGraph& kernels,
                             const fusion::FusionMethod& method, const device::Cluster& cluster) {
    MappedKernels mapped;
    mapped.cut = kernel_cuts(pe_of_node, model, kernels, cluster);
    mapped.kernels =
        mapped.cut.empty() ? kernels : fusion::detect_kernels(model, method, pe_of_node);
    mapped.assignment = kernel_assignment(pe_of_node, mapped.kernels);
    return mapped;
}

std::string mapping_file_json(const graph::Model& model, const fusion::KernelGraph& kernels,
                              const partition::KernelAssignment& assignment,
                              const device::Cluster& cluster) {
    std::vector<std::vector<std::string>> names(cluster.pes.size());
    for (std::size_t n = 0; n < model.nodes.size(); ++n) {
        const int k = kernels.kernel_of_node[n];
        const int pe = assignment.pe_of_kernel[static_cast<std::size_t>(k)];
        names[static_cast<std::size_t>(pe)].push_back(graph::autodice_name(model, model.nodes[n]));
    }
    nlohmann::ordered_json root = nlohmann::ordered_json::object();
    for (std::size_t pe = 0; pe < cluster.pes.size(); ++pe)
        if (!names[pe].empty())
            root[cluster.pes[pe].key] = names[pe];
    return root.dump(2) + "\n";
}

void save_mapping_file(const graph::Model& model, const fusion::KernelGraph& kernels,
                       const partition::KernelAssignment& assignment,
                       const device::Cluster& cluster, const std::filesystem::path& path) {
    write_file_atomically(path, mapping_file_json(model, kernels, assignment, cluster));
}

MappingSegments mapping_segments(const partition::KernelAssignment& assignment,
                                 const device::Cluster& cluster,
                                 const std::vector<std::string>& pe_errors,
                                 const std::string& file, const std::string& place) {
    MappingSegments segments;
    segments.mapping = partition::runs_of(assignment);
    const auto& pes = segments.mapping.pes;
    const auto key = [&](int pe) { return cluster.pes[static_cast<std::size_t>(pe)].key; };
    for (const int pe : pes) {
        const auto& error = pe_errors[static_cast<std::size_t>(pe)];
        if (!error.empty())
            throw InputError(file, place,
                             key(pe) + " runs kernels, but it has no predicted latencies, so the "
                                       "mapping cannot be evaluated: " +
                                 error);
    }
    for (std::size_t s = 0; s < pes.size(); ++s) {
        const auto first = std::find(pes.begin(), pes.end(), pes[s]);
        const auto runs = std::count(pes.begin(), pes.end(), pes[s]);
        if (runs > 1 && first == pes.begin() + static_cast<std::ptrdiff_t>(s))
            segments.scattered.push_back(key(pes[s]) + " runs " + std::to_string(runs) +
                                         " separate stretches of kernels");
    }
    return segments;
}

} // namespace cleave::autodice
