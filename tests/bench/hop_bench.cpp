// Benchmark: what a decode state's hop costs in a split run (issue 43's goal: at most 0.5 ms).
// SmolLM2-135M (generate-models --llm smollm2-135m --form onnx --random-weights) split in 2 runs
// `mpirun -np 2 cleave run-partition --prompt-tokens 16 --generate 64 --no-reference`; a hop is
// the time per output token less the engines' own, over the 2 hops of a step (run-summary.json's
// hop_ms): a worker's output through its rank, across MPI and through the next rank into its
// worker. Beside it, measured in the same run, its floor: a round trip of one byte over two pipes
// between two processes, the two pipe crossings a hop makes with nothing else done. Median of
// --repeat runs.
// Usage: hop_bench CLEAVE MPIRUN [--repeat N] [--json FILE]
#include "bench_timing.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

// Microseconds of one round trip of a byte between this process and a child over two pipes.
double pipe_round_trip_us(int trips) {
    int there[2], back[2];
    if (::pipe(there) != 0 || ::pipe(back) != 0)
        throw std::runtime_error("pipe failed");
    char c = 'x';
    const pid_t child = ::fork();
    if (child == 0) {
        for (int i = 0; i < trips; ++i)
            if (::read(there[0], &c, 1) != 1 || ::write(back[1], &c, 1) != 1)
                _exit(1);
        _exit(0);
    }
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < trips; ++i)
        if (::write(there[1], &c, 1) != 1 || ::read(back[0], &c, 1) != 1)
            throw std::runtime_error("pipe round trip failed");
    const double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count() /
        trips;
    ::waitpid(child, nullptr, 0);
    for (const int fd : {there[0], there[1], back[0], back[1]})
        ::close(fd);
    return us;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: hop_bench CLEAVE MPIRUN [--repeat N] [--json FILE]\n";
        return 2;
    }
    const std::string cleave = argv[1], mpirun = argv[2];
    std::string json_file;
    int repeat = 3;
    for (int i = 3; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--repeat")
            repeat = std::max(1, std::atoi(argv[i + 1]));
        else if (a == "--json")
            json_file = argv[i + 1];
    }
    // Containers run as root, which Open MPI refuses unless told.
    ::setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
    ::setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
    ::setenv("OMPI_MCA_btl_vader_single_copy_mechanism", "none", 0);
    namespace fs = std::filesystem;
    char pattern[] = "/tmp/cleave-hop-bench-XXXXXX";
    if (!::mkdtemp(pattern)) {
        std::cerr << "hop_bench: cannot make a temporary folder\n";
        return 1;
    }
    const fs::path folder = pattern;
    try {
        cleave::bench::run_process({cleave, "generate-models", "--llm", "smollm2-135m", "--form",
                                    "onnx", "--random-weights", "--out", (folder / "model").string()});
        const auto model = (folder / "model" / "smollm2-135m.onnx").string();
        const auto package = (folder / "split").string();
        cleave::bench::run_process({cleave, "split", model, "--decode", "128", "--parts", "2",
                                    "--pes", "h1_cpu0,h2_cpu0", "--out", package},
                                   true);
        std::vector<nlohmann::json> runs;
        for (int r = 0; r < repeat; ++r) {
            cleave::bench::run_process({mpirun, "-np", "2", "--oversubscribe", "--bind-to", "none",
                                        cleave, "run-partition", package, "--model", model,
                                        "--prompt-tokens", "16", "--generate", "64",
                                        "--no-reference"},
                                       true);
            std::ifstream in(fs::path(package) / "run-summary.json");
            runs.push_back(nlohmann::json::parse(in).at("decode"));
        }
        std::sort(runs.begin(), runs.end(), [](const auto& a, const auto& b) {
            return a.at("hop_ms").template get<double>() < b.at("hop_ms").template get<double>();
        });
        const auto& median = runs[runs.size() / 2];
        const double hop = median.at("hop_ms").get<double>();
        const double floor_ms = pipe_round_trip_us(5000) / 1000.0;
        std::printf("SmolLM2-135M in 2 ranks, 64 tokens, median of %d runs:\n", repeat);
        std::printf("  time per output token %.2f ms, the engines' own %.2f ms\n",
                    median.at("tpot_ms").get<double>(),
                    median.at("engines_ms_per_token").get<double>());
        std::printf("  a hop %.3f ms (goal 0.5 ms); its floor, two pipe crossings, %.3f ms: %.1fx\n",
                    hop, floor_ms, hop / floor_ms);
        if (!json_file.empty())
            std::ofstream(json_file) << nlohmann::json{{"model", "smollm2-135m"},
                                                       {"ranks", 2},
                                                       {"runs", repeat},
                                                       {"hop_ms", hop},
                                                       {"floor_ms", floor_ms},
                                                       {"hop_over_floor", hop / floor_ms},
                                                       {"goal_ms", 0.5},
                                                       {"tpot_ms", median.at("tpot_ms")}}
                                                    .dump(2)
                                     << "\n";
    } catch (const std::exception& e) {
        std::cerr << "hop_bench: " << e.what() << "\n";
        fs::remove_all(folder);
        return 1;
    }
    fs::remove_all(folder);
    return 0;
}
