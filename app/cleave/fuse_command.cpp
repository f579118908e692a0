// cleave fuse: the kernels a runtime will run for a model, by a fusion rule set.
#include "commands.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/fusion/kernel_type_selection.hpp"
#include "core/input_error.hpp"
#include "model_options.hpp"
#include "output.hpp"

#include <cstdio>
#include <map>

namespace cleave::cli {

namespace {

struct FuseOptions {
    ModelOptions model;
    std::string rules = "ort-cpu";
    std::string gpu_family; // empty: the rule set's default
    bool json = false;
    std::string out;
};

// The GPU family conv kernels were typed for; empty when the method types none by family.
std::string gpu_family_of(const fusion::FusionMethod& method) {
    const auto* rules = std::get_if<fusion::RuleSet>(&method.how);
    return rules && rules->conv_kernel_types ? rules->gpu_family : std::string();
}

nlohmann::ordered_json fuse_json(const graph::Model& model, const fusion::FusionMethod& method,
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
    nlohmann::ordered_json root{{"model", model.file}, {"rules", method.name}};
    if (const auto family = gpu_family_of(method); !family.empty())
        root["gpu_family"] = family;
    root["nodes"] = model.nodes.size();
    root["unmatched_ops"] = fusion::unmatched_ops(model, method);
    root["kernels"] = std::move(list);
    root["edges"] = std::move(edges);
    return root;
}

void print_table(const graph::Model& model, const fusion::FusionMethod& method,
                 const fusion::KernelGraph& kernels) {
    std::size_t fused = 0;
    for (const bool f : kernels.fused)
        fused += f;
    std::printf("model      %s\nrules      %s (%s)\n", model.file.c_str(), method.name.c_str(),
                method.description.c_str());
    if (const auto family = gpu_family_of(method); !family.empty())
        std::printf("gpu family %s\n", family.c_str());
    std::printf("nodes      %zu -> %zu kernels (%zu of %zu edges fused)\n", model.nodes.size(),
                kernels.kernels.size(), fused, kernels.edges.size());
    if (const auto unknown = fusion::unmatched_ops(model, method); !unknown.empty()) {
        std::string list;
        for (const auto& op : unknown)
            list += (list.empty() ? "" : ", ") + op;
        if (std::holds_alternative<fusion::RuleSet>(method.how))
            std::printf("not fused  %s: no rule of %s names these ops; each node is its own "
                        "kernel\n",
                        list.c_str(), method.name.c_str());
        else
            std::printf("unseen     %s: not in the classifier's training; scored by op category "
                        "alone\n",
                        list.c_str());
    }
    std::printf("\n");
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
    auto method = fusion::find_fusion_method(options.rules);
    if (!options.gpu_family.empty()) {
        auto* rules = std::get_if<fusion::RuleSet>(&method.how);
        if (!rules)
            throw InputError("--gpu-family", options.gpu_family,
                             "learned fusion types no kernels by GPU family; use it with "
                             "--rules tflite-gpu");
        fusion::choose_gpu_family(*rules, options.gpu_family);
    }
    const auto model = options.model.load();
    const auto kernels = fusion::detect_kernels(model, method);
    if (options.json || !options.out.empty())
        emit_json(fuse_json(model, method, kernels), options.json, options.out);
    if (!options.json)
        print_table(model, method, kernels);
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
                     "Fusion: ort-cpu, tflite-gpu, tensorrt-like, a rule file (.json), or "
                     "learned:MODEL_FILE (written by fuse-train)")
        ->capture_default_str();
    auto* gpu_family = command->add_option("--gpu-family", options->gpu_family);
    // The families and default come from the shipped set, so the help cannot drift from it; read
    // once the command is named, not at every start of cleave.
    command->preparse_callback([gpu_family](std::size_t) {
        const auto tflite = fusion::find_rule_set("tflite-gpu");
        std::string families;
        for (const auto& family : fusion::gpu_families(tflite))
            families += (families.empty() ? "" : ", ") + family;
        gpu_family->description("GPU family whose Winograd thresholds type conv kernels "
                                "(tflite-gpu): " +
                                families + "; default " + tflite.gpu_family);
    });
    command->add_flag("--json", options->json,
                      "Print kernels in topological order and edge labels as JSON");
    command->add_option("--out", options->out, "Write the JSON document to FILE (atomically)");
    return [options] { return run_fuse(*options); };
}

} // namespace cleave::cli
