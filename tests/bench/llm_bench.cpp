// Benchmark: a language model of Llama-3.1-8B's shape (generate-models --llm, weights a sparse
// file of zeros) in both forms, Optimum-style fp32 and ONNX Runtime GenAI int4, as whole `cleave`
// processes: inspect, fuse and predict (a trained predictor and a roofline) at a decode step after
// 1,024 cached tokens and a prefill of 512. Wall time and peak RSS, median of --repeat runs.
// Goal (issue 41): inspect in under 0.5 s and 200 MB.
// Usage: llm_bench CLEAVE [--llm NAME] [--repeat N] [--json FILE]
#include "bench_timing.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using cleave::bench::median;
using cleave::bench::ProcessSample;
using cleave::bench::run_process;

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::cerr << "usage: llm_bench CLEAVE [--llm NAME] [--repeat N] [--json FILE]\n";
        return 2;
    }
    const std::string cleave = argv[1];
    std::string llm = "llama-3.1-8b", json_file;
    int repeat = 5;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--llm")
            llm = argv[i + 1];
        else if (a == "--repeat")
            repeat = std::max(1, std::atoi(argv[i + 1]));
        else if (a == "--json")
            json_file = argv[i + 1];
    }
    namespace fs = std::filesystem;
    char pattern[] = "/tmp/cleave-llm-bench-XXXXXX";
    if (!::mkdtemp(pattern)) {
        std::cerr << "llm_bench: cannot make a temporary folder\n";
        return 1;
    }
    const fs::path folder = pattern;
    struct Form {
        std::string name, precision, form;
    };
    const std::vector<Form> forms{{"onnx fp32", "fp32", "onnx"}, {"genai int4", "int4", "genai"}};
    const std::vector<std::pair<std::string, std::vector<std::string>>> phases{
        {"decode 1024", {"--decode", "1024"}}, {"prefill 512", {"--prefill", "512"}}};
    const std::vector<std::pair<std::string, std::vector<std::string>>> commands{
        {"inspect", {"inspect", "--json"}},
        {"fuse", {"fuse", "--rules", "ort-cpu", "--json"}},
        {"predict (gbdt)", {"predict", "--device", "xeon-ort-1t", "--json"}},
        {"predict (roofline)", {"predict", "--device", "jetson-orin-nano", "--json"}}};

    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    std::printf("%s, weights a sparse file of zeros; median of %d runs\n\n", llm.c_str(), repeat);
    std::printf("%-11s %-12s %-19s %9s %9s\n", "form", "phase", "command", "s", "RSS MB");
    int status = 0;
    for (const auto& form : forms) {
        const fs::path out = folder / form.form;
        run_process({cleave, "generate-models", "--llm", llm, "--precision", form.precision,
                     "--form", form.form, "--out", out.string()},
                    true);
        const std::string model = (out / (llm + ".onnx")).string();
        for (const auto& [phase, flags] : phases)
            for (const auto& [name, args] : commands) {
                std::vector<std::string> argv_run{cleave, args[0], model};
                argv_run.insert(argv_run.end(), args.begin() + 1, args.end());
                argv_run.insert(argv_run.end(), flags.begin(), flags.end());
                std::vector<ProcessSample> samples;
                for (int r = 0; r < repeat; ++r)
                    samples.push_back(run_process(argv_run, true));
                const auto m = median(samples);
                const bool goal = name != "inspect" || (m.seconds < 0.5 && m.peak_rss_mb < 200);
                status |= goal ? 0 : 1;
                std::printf("%-11s %-12s %-19s %9.3f %9.1f%s\n", form.name.c_str(), phase.c_str(),
                            name.c_str(), m.seconds, m.peak_rss_mb, goal ? "" : "   over the goal");
                rows.push_back({{"form", form.name},
                                {"phase", phase},
                                {"command", name},
                                {"s", m.seconds},
                                {"peak_rss_mb", m.peak_rss_mb}});
            }
    }
    fs::remove_all(folder);
    if (!json_file.empty())
        std::ofstream(json_file) << nlohmann::ordered_json{{"model", llm}, {"runs", rows}}.dump(1)
                                 << '\n';
    return status;
}
