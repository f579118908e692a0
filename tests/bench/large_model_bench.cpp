// Benchmark: large models as whole processes. Writes GPT-2 decoder stacks (cleave
// generate-models --decoder-layers) of about 2.5k, 10k, 50k and 100k nodes, then times on each
// cleave inspect, fuse, predict, dse (its defaults, on a cluster) and render graph (the studio's
// layout and scene, drawn to a PNG), wall time and peak RSS, and gives each step's growth exponent:
// the least-squares slope of log time over log nodes (1: linear).
// Usage: large_model_bench CLEAVE CLUSTER [--layers 53,213,1064,2128] [--json FILE]
#include "bench_timing.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Step {
    const char* name;
    std::vector<std::string> arguments; // after "cleave"; MODEL and OUT are replaced
};

double slope(const std::vector<double>& x, const std::vector<double>& y) {
    double mx = 0, my = 0;
    for (std::size_t i = 0; i < x.size(); ++i)
        mx += std::log(x[i]) / static_cast<double>(x.size()),
            my += std::log(y[i]) / static_cast<double>(y.size());
    double sxy = 0, sxx = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sxy += (std::log(x[i]) - mx) * (std::log(y[i]) - my);
        sxx += (std::log(x[i]) - mx) * (std::log(x[i]) - mx);
    }
    return sxx > 0 ? sxy / sxx : 0;
}

} // namespace

int main(int argc, char** argv) try {
    if (argc < 3) {
        std::cerr << "usage: large_model_bench CLEAVE CLUSTER [--layers 53,213,1064,2128] "
                     "[--json FILE]\n";
        return 2;
    }
    const std::string cleave = argv[1], cluster = argv[2];
    std::string layers = "53,213,1064,2128", json_file;
    for (int i = 3; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--layers")
            layers = argv[i + 1];
        else if (a == "--json")
            json_file = argv[i + 1];
    }
    const auto folder = std::filesystem::temp_directory_path() /
                        ("cleave-large-model-bench-" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder);
    cleave::bench::run_process({cleave, "generate-models", "--decoder-layers", layers, "--width",
                                "32", "--out", folder.string()},
                               true);

    const std::vector<Step> steps{
        {"inspect", {"inspect", "MODEL"}},
        {"fuse", {"fuse", "MODEL", "--json"}},
        {"predict", {"predict", "MODEL", "--device", "xeon-ort-1t", "--json"}},
        {"dse", {"dse", "MODEL", "--cluster", cluster, "--json"}},
        {"render graph", {"render", "graph", "MODEL", "--out", "OUT"}},
    };
    std::printf("%-20s %7s", "model", "nodes");
    for (const auto& step : steps)
        std::printf(" | %-12s %7s", step.name, "MB");
    std::printf("\n");
    std::vector<double> nodes;
    std::vector<std::vector<double>> seconds(steps.size());
    nlohmann::ordered_json models = nlohmann::ordered_json::array();
    std::stringstream list(layers);
    for (std::string count; std::getline(list, count, ',');) {
        const auto name = "decoder_l" + count + "_d32";
        const auto model = (folder / (name + ".onnx")).string();
        const double n = 47.0 * std::stod(count) + 10;
        nodes.push_back(n);
        std::printf("%-20s %7.0f", name.c_str(), n);
        nlohmann::ordered_json row{{"model", name}, {"nodes", n}};
        for (std::size_t s = 0; s < steps.size(); ++s) {
            std::vector<std::string> command{cleave};
            for (const auto& a : steps[s].arguments)
                command.push_back(a == "MODEL" ? model
                                  : a == "OUT" ? (folder / (name + ".png")).string()
                                               : a);
            const auto sample = cleave::bench::run_process(command, true);
            seconds[s].push_back(sample.seconds);
            std::printf(" | %10.2f s %7.0f", sample.seconds, sample.peak_rss_mb);
            std::fflush(stdout);
            row[steps[s].name] = {{"seconds", sample.seconds}, {"peak_rss_mb", sample.peak_rss_mb}};
        }
        std::printf("\n");
        models.push_back(row);
    }
    std::printf("%-28s", "growth exponent");
    nlohmann::ordered_json exponents;
    for (std::size_t s = 0; s < steps.size(); ++s) {
        const double e = slope(nodes, seconds[s]);
        exponents[steps[s].name] = e;
        std::printf(" | %20.2f", e);
    }
    std::printf("\n");
    std::filesystem::remove_all(folder);
    if (!json_file.empty())
        std::ofstream(json_file)
            << nlohmann::ordered_json{{"models", models}, {"growth_exponents", exponents}}.dump(1)
            << '\n';
    return 0;
} catch (const std::exception& e) {
    std::cerr << "large_model_bench: " << e.what() << '\n';
    return 1;
}
