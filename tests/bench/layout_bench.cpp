// Benchmark: the studio's graph layout (core/layout, Graphviz dot) per model, nodes only and with
// the ort-cpu kernels as dot clusters; the median of a few runs, the model already loaded.
// Usage: layout_bench MODEL... [--repeat N] [--json FILE]
#include "bench_timing.hpp"
#include "core/fusion/rule_engine.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/layout/graph_layout.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

int main(int argc, char** argv) try {
    std::vector<std::string> models;
    int repeat = 5;
    std::string json_file;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--repeat" && i + 1 < argc)
            repeat = std::max(1, std::stoi(argv[++i]));
        else if (a == "--json" && i + 1 < argc)
            json_file = argv[++i];
        else
            models.push_back(a);
    }
    if (models.empty()) {
        std::cerr << "usage: layout_bench MODEL... [--repeat N] [--json FILE]\n";
        return 2;
    }

    const auto& rules = cleave::fusion::find_rule_set("ort-cpu");
    nlohmann::ordered_json results = nlohmann::ordered_json::array();
    std::printf("%-16s %6s %6s %8s | %10s %12s %12s\n", "model", "nodes", "edges", "kernels",
                "nodes s", "clusters s", "boxes s");
    for (const auto& file : models) {
        const auto model = cleave::graph::load_model(file);
        const auto kernels = cleave::fusion::fuse_with_rules(model, rules);
        cleave::layout::LayoutOptions plain;
        cleave::layout::LayoutOptions clustered;
        clustered.kernels = &kernels;
        cleave::layout::LayoutOptions boxes = clustered;
        boxes.kernel_clusters = false;
        const double plain_s =
            cleave::bench::median_seconds(repeat, [&] { cleave::layout::layout_graph(model, plain); });
        const double clustered_s =
            cleave::bench::median_seconds(repeat, [&] { cleave::layout::layout_graph(model, clustered); });
        const double boxes_s =
            cleave::bench::median_seconds(repeat, [&] { cleave::layout::layout_graph(model, boxes); });
        const auto name = std::filesystem::path(file).stem().string();
        std::printf("%-16s %6zu %6zu %8zu | %10.3f %12.3f %12.3f\n", name.c_str(),
                    model.nodes.size(), kernels.edges.size(), kernels.kernels.size(), plain_s,
                    clustered_s, boxes_s);
        std::fflush(stdout);
        results.push_back({{"model", name},
                           {"nodes", model.nodes.size()},
                           {"edges", kernels.edges.size()},
                           {"kernels", kernels.kernels.size()},
                           {"repeat", repeat},
                           {"nodes_only_s", plain_s},
                           {"kernel_clusters_s", clustered_s},
                           {"kernel_boxes_s", boxes_s}});
    }
    if (!json_file.empty())
        std::ofstream(json_file) << results.dump(1) << '\n';
    return 0;
} catch (const std::exception& e) {
    std::cerr << "layout_bench: " << e.what() << '\n';
    return 1;
}
