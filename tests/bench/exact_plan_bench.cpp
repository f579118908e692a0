// Benchmark: `cleave dse --exact` on a decoder of Llama-3.1-70B's shape (80 layers, fp16, weights
// a sparse file of zeros) over 8 heterogeneous hosts (two AGX Orin 64GB, two AGX Orin 32GB, two
// Orin NX 16GB, an RTX 4090 desktop, a Raspberry Pi 5 16GB), links all alike and, with a slower
// pair, differing. Whole-process wall time (model import, prediction of both phases, both exact
// plans and the three rules) and the plans' own seconds from the JSON, median of --repeat runs.
// Goal (issue 42): under 1 s for 80 layers over 8 devices.
// Usage: exact_plan_bench CLEAVE [--repeat N] [--json FILE]
#include "bench_timing.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using cleave::bench::ProcessSample;
using cleave::bench::run_process;

std::string cluster_json(bool differing) {
    nlohmann::ordered_json hosts = nlohmann::ordered_json::array();
    const std::vector<std::pair<std::string, std::string>> list{
        {"agx1", "jetson-agx-orin-64gb"}, {"agx2", "jetson-agx-orin-64gb"},
        {"agx3", "jetson-agx-orin-32gb"}, {"agx4", "jetson-agx-orin-32gb"},
        {"nx1", "jetson-orin-nx-16gb"},   {"nx2", "jetson-orin-nx-16gb"},
        {"pc1", "rtx-4090-desktop"},      {"pi1", "raspberry-pi-5-16gb"}};
    for (const auto& [host, device] : list)
        hosts.push_back({{"host", host}, {"device", device}});
    nlohmann::ordered_json links{{"default", {{"bandwidth_gbps", 1.0}, {"latency_us", 100}}}};
    if (differing)
        links["pairs"] = {
            {{"a", "pi1"}, {"b", "pc1"}, {"bandwidth_gbps", 0.3}, {"latency_us", 2000}},
            {{"a", "agx1"}, {"b", "agx2"}, {"bandwidth_gbps", 10}, {"latency_us", 20}}};
    return nlohmann::ordered_json{{"version", 1}, {"hosts", hosts}, {"links", links}}.dump(1);
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: exact_plan_bench CLEAVE [--repeat N] [--json FILE]\n";
        return 2;
    }
    const std::string cleave = argv[1];
    std::string json_file;
    int repeat = 5;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--repeat")
            repeat = std::max(1, std::atoi(argv[i + 1]));
        else if (a == "--json")
            json_file = argv[i + 1];
    }
    namespace fs = std::filesystem;
    char pattern[] = "/tmp/cleave-exact-bench-XXXXXX";
    if (!::mkdtemp(pattern)) {
        std::cerr << "exact_plan_bench: cannot make a temporary folder\n";
        return 1;
    }
    const fs::path folder = pattern;
    run_process({cleave, "generate-models", "--llm", "llama-3.1-70b", "--precision", "fp16",
                 "--out", folder.string()},
                true);
    const std::string model = (folder / "llama-3.1-70b.onnx").string();
    std::printf("llama-3.1-70b fp16 (80 layers), 8 hosts, context 8192, prompt 512; median of %d "
                "runs\n\n%-16s %10s %10s %9s\n",
                repeat, "links", "process s", "plans s", "RSS MB");
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    int status = 0;
    for (const bool differing : {false, true}) {
        const fs::path cluster = folder / (differing ? "pairs.cluster.json" : "alike.cluster.json");
        std::ofstream(cluster) << cluster_json(differing);
        const fs::path out = folder / "plans.json";
        std::vector<ProcessSample> samples;
        std::vector<double> plan_seconds;
        for (int r = 0; r < repeat; ++r) {
            samples.push_back(run_process({cleave, "--quiet", "dse", model, "--cluster",
                                           cluster.string(), "--exact", "--context", "8192",
                                           "--prompt-tokens", "512", "--out", out.string()},
                                          true));
            std::ifstream in(out);
            plan_seconds.push_back(nlohmann::json::parse(in).at("seconds").get<double>());
        }
        std::sort(plan_seconds.begin(), plan_seconds.end());
        const auto m = cleave::bench::median(samples);
        const double plans = plan_seconds[plan_seconds.size() / 2];
        const bool goal = m.seconds < 1.0;
        status |= goal ? 0 : 1;
        const char* name = differing ? "two pairs apart" : "all alike";
        std::printf("%-16s %10.3f %10.4f %9.1f%s\n", name, m.seconds, plans, m.peak_rss_mb,
                    goal ? "" : "   over the goal");
        rows.push_back({{"links", name},
                        {"process_s", m.seconds},
                        {"plans_s", plans},
                        {"peak_rss_mb", m.peak_rss_mb}});
    }
    fs::remove_all(folder);
    if (!json_file.empty())
        std::ofstream(json_file) << nlohmann::ordered_json{{"runs", rows}}.dump(1) << '\n';
    return status;
}
