// cleave fuse: the kernels a runtime will run for a model, by a fusion rule set.
#include "commands.hpp"
#include "core/fusion/rule_engine.hpp"
#include "model_options.hpp"
#include "output.hpp"

#include <cstdio>
#include <map>

namespace cleave::cli {

namespace {

struct FuseOptions {
    ModelOptions model;
    std::string rules = "ort-cpu";
    bool json = false;
    std::string out;
};

nlohmann::ordered_json fuse_json(const graph::Model& model, const fusion::RuleSet& rules,
                                 const fusion::KernelGraph& kernels) {
    auto list = nlohmann::ordered_json::array();
    for (const auto& k : kernels.kernels) {
        auto nodes = nlohmann::ordered_json::array();
        for (const int n : k.nodes)
            nodes.push_back(model.nodes[static_cast<std::size_t>(n)].name);
        list.push_back({{"name", k.name},
                        {"type", k.type},
                        {"nodes", nodes},
                        {"macs", k.macs},
                        {"flops", k.flops},
                        {"bytes_in", k.bytes_in},
                        {"bytes_out", k.bytes_out},
                        {"weight_bytes", k.weight_bytes},
                        {"launches", k.launches}});
    }
    auto edges = nlohmann::ordered_json::array();
    for (std::size_t e = 0; e < kernels.edges.size(); ++e) {
        const auto& edge = kernels.edges[e];
        edges.push_back({{"from", model.nodes[static_cast<std::size_t>(edge.from)].name},
                         {"to", model.nodes[static_cast<std::size_t>(edge.to)].name},
                         {"tensor", model.tensors[static_cast<std::size_t>(edge.tensor)].name},
                         {"fused", static_cast<bool>(kernels.fused[e])}});
    }
    return {{"model", model.file},
            {"rules", rules.name},
            {"nodes", model.nodes.size()},
            {"kernels", list},
            {"edges", edges}};
}

void print_table(const graph::Model& model, const fusion::RuleSet& rules,
                 const fusion::KernelGraph& kernels) {
    std::size_t fused = 0;
    for (const bool f : kernels.fused)
        fused += f;
    std::printf("model      %s\nrules      %s (%s)\n", model.file.c_str(), rules.name.c_str(),
                rules.runtime.c_str());
    std::printf("nodes      %zu -> %zu kernels (%zu of %zu edges fused)\n\n", model.nodes.size(),
                kernels.kernels.size(), fused, kernels.edges.size());
    std::map<std::string, std::pair<int, std::int64_t>> types;
    for (const auto& k : kernels.kernels) {
        types[k.type].first += 1;
        types[k.type].second += k.macs;
    }
    std::printf("%-28s %7s %12s\n", "kernel type", "count", "MACs");
    for (const auto& [type, row] : types)
        std::printf("%-28s %7d %12s\n", type.c_str(), row.first, giga(row.second, 3).c_str());
    std::printf("\n%5s  %-24s %-40s %s\n", "#", "type", "kernel", "nodes");
    for (std::size_t i = 0; i < kernels.kernels.size(); ++i) {
        const auto& k = kernels.kernels[i];
        std::string ops;
        for (const int n : k.nodes)
            ops += (ops.empty() ? "" : "+") + model.nodes[static_cast<std::size_t>(n)].op;
        std::printf("%5zu  %-24s %-40s %s\n", i, k.type.c_str(), k.name.c_str(), ops.c_str());
    }
}

int run_fuse(const FuseOptions& options) {
    const auto rules = fusion::find_rule_set(options.rules);
    const auto model = options.model.load();
    const auto kernels = fusion::fuse_with_rules(model, rules);
    if (options.json || !options.out.empty())
        emit_json(fuse_json(model, rules, kernels), options.json, options.out);
    if (!options.json)
        print_table(model, rules, kernels);
    return 0;
}

} // namespace

Action add_fuse_command(CLI::App& app) {
    auto options = std::make_shared<FuseOptions>();
    auto* command =
        app.add_subcommand("fuse", "Group a model's nodes into the kernels a runtime will run");
    options->model.add_to(*command);
    command
        ->add_option("--rules", options->rules,
                     "Fusion rule set: ort-cpu, tflite-gpu, tensorrt-like, or a rule file (.json)")
        ->capture_default_str();
    command->add_flag("--json", options->json,
                      "Print kernels in topological order and edge labels as JSON");
    command->add_option("--out", options->out, "Write the JSON document to FILE (atomically)");
    return [options] { return run_fuse(*options); };
}

} // namespace cleave::cli
