// cleave inspect: what a model holds, as a summary table or the JSON document of docs/cli.md.
#include "cli_main.hpp"
#include "commands.hpp"
#include "model_options.hpp"
#include "output.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>

namespace cleave::cli {

namespace {

struct InspectOptions {
    ModelOptions model;
    bool json = false;
    std::string out;
};

nlohmann::ordered_json shape_json(const std::optional<graph::Shape>& shape) {
    if (!shape)
        return nullptr;
    auto dims = nlohmann::ordered_json::array();
    for (const auto d : *shape)
        dims.push_back(d < 0 ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(d));
    return dims;
}

nlohmann::ordered_json value_json(const graph::Tensor& t) {
    return {{"name", t.name}, {"shape", shape_json(t.shape)}, {"dtype", graph::to_string(t.dtype)}};
}

// The symbolic dims bound (name -> value) and the decoder roles found (role -> value).
nlohmann::ordered_json dims_json(const graph::Model& model) {
    auto bound = nlohmann::ordered_json::object();
    for (const auto& [name, value] : model.bound_dims)
        bound[name] = value;
    auto roles = nlohmann::ordered_json::object();
    for (const auto& [role, value] : model.dim_roles)
        roles[role] = value;
    return {{"bound", bound}, {"roles", roles}};
}

nlohmann::ordered_json inspect_json(const graph::Model& model) {
    auto inputs = nlohmann::ordered_json::array();
    for (const int t : model.inputs)
        inputs.push_back(value_json(model.tensors[t]));
    auto outputs = nlohmann::ordered_json::array();
    for (const int t : model.outputs)
        outputs.push_back(value_json(model.tensors[t]));
    auto nodes = nlohmann::ordered_json::array();
    for (const auto& node : model.nodes) {
        auto names = [&](const std::vector<int>& tensors) {
            auto list = nlohmann::ordered_json::array();
            for (const int t : tensors)
                list.push_back(t < 0 ? std::string() : model.tensors[t].name);
            return list;
        };
        auto shapes = nlohmann::ordered_json::array();
        for (const int t : node.outputs)
            shapes.push_back(t < 0 ? nlohmann::ordered_json(nullptr)
                                   : shape_json(model.tensors[t].shape));
        // Member by member: an initializer list would copy every value once more.
        auto& n = nodes.emplace_back(nlohmann::ordered_json::object());
        n["name"] = node.name;
        n["op"] = node.op;
        n["inputs"] = names(node.inputs);
        n["outputs"] = names(node.outputs);
        n["output_shapes"] = std::move(shapes);
        n["weight_parameters"] = node.cost.weight_parameters;
        n["macs"] = node.cost.macs;
        n["flops"] = node.cost.flops;
        n["bytes_in"] = node.cost.bytes_in;
        n["bytes_out"] = node.cost.bytes_out;
    }
    return {{"model",
             {{"file", model.file},
              {"opset", model.opset},
              {"nodes", model.nodes.size()},
              {"weight_parameters", model.weight_parameters},
              {"initializer_elements", model.initializer_elements},
              {"macs", model.macs},
              {"flops", model.flops},
              {"inputs", inputs},
              {"outputs", outputs},
              {"dims", dims_json(model)}}},
            {"nodes", nodes}};
}

void print_table(const graph::Model& model) {
    auto values = [&](const std::vector<int>& tensors) {
        std::string text;
        for (const int t : tensors)
            text += (text.empty() ? "" : ", ") + model.tensors[t].name + " " +
                    std::string(graph::to_string(model.tensors[t].dtype)) + " " +
                    graph::shape_to_string(model.tensors[t].shape);
        return text;
    };
    std::printf("model      %s\n", model.file.c_str());
    std::printf("producer   %s (opset %lld, IR %lld)\n",
                model.producer.empty() ? "-" : model.producer.c_str(),
                static_cast<long long>(model.opset), static_cast<long long>(model.ir_version));
    std::printf("inputs     %s\n", values(model.inputs).c_str());
    std::printf("outputs    %s\n", values(model.outputs).c_str());
    if (!model.dim_roles.empty() || !model.bound_dims.empty()) {
        std::string dims;
        for (const auto& [role, value] : model.dim_roles)
            dims += (dims.empty() ? "" : ", ") + role + " " + std::to_string(value);
        for (const auto& [name, value] : model.bound_dims)
            dims += (dims.empty() ? "" : ", ") + name + "=" + std::to_string(value);
        std::printf("dims       %s\n", dims.c_str());
    }
    std::printf("nodes      %zu\n", model.nodes.size());
    std::printf("weights    %s parameters (%s initializer elements)\n",
                grouped(model.weight_parameters).c_str(),
                grouped(model.initializer_elements).c_str());
    std::printf("MACs       %s   FLOPs %s\n\n", giga(model.macs, 2).c_str(),
                giga(model.flops, 2).c_str());

    struct OpRow {
        int count = 0;
        std::int64_t macs = 0;
        std::int64_t flops = 0;
    };
    std::map<std::string, OpRow> rows;
    for (const auto& node : model.nodes) {
        auto& row = rows[node.domain.empty() ? node.op : node.domain + "." + node.op];
        ++row.count;
        row.macs += node.cost.macs;
        row.flops += node.cost.flops;
    }
    std::vector<std::pair<std::string, OpRow>> sorted(rows.begin(), rows.end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
        return a.second.flops != b.second.flops ? a.second.flops > b.second.flops
                                                : a.second.count > b.second.count;
    });
    std::printf("%-24s %6s %12s %7s %12s\n", "op", "count", "MACs", "share", "FLOPs");
    for (const auto& [op, row] : sorted) {
        const double share =
            model.macs > 0 ? 100.0 * static_cast<double>(row.macs) / static_cast<double>(model.macs)
                           : 0.0;
        std::printf("%-24s %6d %12s %6.1f%% %12s\n", op.c_str(), row.count,
                    giga(row.macs, 3).c_str(), share, giga(row.flops, 3).c_str());
    }
}

int run_inspect(const InspectOptions& options) {
    const auto& model = kept_until_exit(options.model.load());
    if (options.json || !options.out.empty())
        emit_json(kept_until_exit(inspect_json(model)), options.json, options.out);
    if (!options.json)
        print_table(model);
    return 0;
}

} // namespace

Action add_inspect_command(CLI::App& app) {
    auto options = std::make_shared<InspectOptions>();
    auto* command =
        app.add_subcommand("inspect", "Summarise a model: nodes, shapes, weights, MACs and FLOPs");
    options->model.add_to(*command);
    command->add_flag("--json", options->json, "Print the JSON document on stdout");
    command->add_option("--out", options->out, "Write the JSON document to FILE (atomically)");
    return [options] { return run_inspect(*options); };
}

} // namespace cleave::cli
