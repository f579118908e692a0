// Benchmark: loading a model (parse + shape inference + costs) as whole processes, `cleave
// inspect` (its table, and apart with --json, which adds writing the whole JSON document) beside
// Python onnx's onnx.load + infer_shapes in the same run, interleaved, with wall time and
// peak RSS; first what every command pays before its work, `cleave --help`, beside an empty
// program (goal: at most 5 ms and 20 MB).
// Usage: import_bench CLEAVE PYTHON MODEL... [--empty PROGRAM] [--repeat N] [--json FILE]
#include "bench_timing.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace {

using Sample = cleave::bench::ProcessSample;
using cleave::bench::median;
using cleave::bench::run_process;

void warm_page_cache(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<char> buffer(1 << 20);
    while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 4) {
        std::cerr << "usage: import_bench CLEAVE PYTHON MODEL... [--empty PROGRAM] [--repeat N] "
                     "[--json FILE]\n";
        return 2;
    }
    const std::string cleave = argv[1];
    const std::string python = argv[2];
    std::vector<std::string> models;
    int repeat = 5;
    std::string json_file, empty_program;
    for (int i = 3; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--empty" && i + 1 < argc)
            empty_program = argv[++i];
        else if (a == "--repeat" && i + 1 < argc)
            repeat = std::stoi(argv[++i]);
        else if (a == "--json" && i + 1 < argc)
            json_file = argv[++i];
        else
            models.push_back(a);
    }
    for (const auto& model : models)
        if (!std::filesystem::is_regular_file(model)) {
            std::cerr << "import_bench: " << model << ": no such file; expected an ONNX model\n";
            return 2;
        }
    const std::string python_load =
        "import onnx, sys; m = onnx.load(sys.argv[1]); onnx.shape_inference.infer_shapes(m)";

    // Start-up: many runs, since each is about a millisecond.
    nlohmann::ordered_json startup = nlohmann::ordered_json::array();
    std::printf("%-16s %10s %10s\n", "start-up", "s", "RSS MB");
    std::vector<std::pair<std::string, std::vector<std::string>>> programs;
    if (!empty_program.empty())
        programs.push_back({"empty program", {empty_program}});
    programs.push_back({"cleave --help", {cleave, "--help"}});
    for (const auto& [name, command] : programs) {
        std::vector<Sample> samples;
        for (int r = 0; r < 4 * repeat; ++r)
            samples.push_back(run_process(command));
        const Sample m = median(samples);
        std::printf("%-16s %10.4f %10.1f\n", name.c_str(), m.seconds, m.peak_rss_mb);
        startup.push_back({{"program", name}, {"s", m.seconds}, {"peak_rss_mb", m.peak_rss_mb}});
    }
    std::printf("\n");

    nlohmann::ordered_json results = nlohmann::ordered_json::array();
    std::printf("%-16s %9s | %10s %10s %8s | %10s %7s | %10s %10s %8s | %7s %9s\n", "model",
                "file MB", "cleave s", "RSS MB", "RSS/file", "--json s", "speedup", "python s",
                "RSS MB", "RSS/file", "speedup", "RSS ratio");
    for (const auto& model : models) {
        const double file_mb =
            static_cast<double>(std::filesystem::file_size(model)) / (1024.0 * 1024.0);
        warm_page_cache(model);
        // Interleaved, so that a change in the machine's load meets all three alike.
        std::vector<Sample> ours, ours_json, theirs;
        for (int r = 0; r < repeat; ++r) {
            ours.push_back(run_process({cleave, "inspect", model}));
            ours_json.push_back(run_process({cleave, "inspect", model, "--json"}));
            if (r % 2 == 0)
                theirs.push_back(run_process({python, "-c", python_load, model}));
        }
        const Sample a = median(ours), j = median(ours_json), b = median(theirs);
        const auto name = std::filesystem::path(model).stem().string();
        std::printf("%-16s %9.1f | %10.4f %10.1f %8.2f | %10.4f %6.1fx | %10.3f %10.1f %8.2f | "
                    "%6.1fx %8.1fx\n",
                    name.c_str(), file_mb, a.seconds, a.peak_rss_mb, a.peak_rss_mb / file_mb,
                    j.seconds, b.seconds / j.seconds, b.seconds, b.peak_rss_mb,
                    b.peak_rss_mb / file_mb, b.seconds / a.seconds, b.peak_rss_mb / a.peak_rss_mb);
        results.push_back({{"model", name},
                           {"file_mb", file_mb},
                           {"cleave_s", a.seconds},
                           {"cleave_peak_rss_mb", a.peak_rss_mb},
                           {"cleave_json_s", j.seconds},
                           {"speedup_json", b.seconds / j.seconds},
                           {"python_onnx_s", b.seconds},
                           {"python_onnx_peak_rss_mb", b.peak_rss_mb},
                           {"speedup", b.seconds / a.seconds},
                           {"cleave_rss_to_file", a.peak_rss_mb / file_mb}});
    }
    if (!json_file.empty())
        std::ofstream(json_file)
            << nlohmann::ordered_json{{"startup", startup}, {"import", results}}.dump(1) << '\n';
    return 0;
}
