// Benchmark: level-1 evaluations through the DSE's pagmo problem (pagmo::problem::fitness: gene
// decoding, MappingCosts, the per-device sums, normalisation), on a model and cluster, for SPE
// and naive genes; level-2 (replay) evaluations; and one whole one-stage NSGA-II run of the
// paper's size (population 100, 400 generations). Goal: 40,000 SPE evaluations of resnet101 on
// the eight Jetson Xavier NX in under 1 s.
// Usage: dse_bench MODEL.onnx CLUSTER.json [--evaluations N] [--json FILE]
#include "bench_timing.hpp"
#include "core/device/cluster.hpp"
#include "core/dse/exploration_inputs.hpp"
#include "core/dse/mapping_problem.hpp"
#include "core/dse/nsga2_search.hpp"
#include "core/graph/onnx_import.hpp"

#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <nlohmann/json.hpp>
#include <pagmo/problem.hpp>
#include <random>
#include <string>
#include <vector>

using namespace cleave;

namespace {

// Seconds to evaluate every gene vector once through pagmo's type-erased problem.
double fitness_seconds(const pagmo::problem& problem, const std::vector<std::vector<double>>& genes,
                       double& checksum) {
    const auto start = std::chrono::steady_clock::now();
    for (const auto& x : genes)
        checksum += problem.fitness(x)[0];
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int main(int argc, char** argv) try {
    if (argc < 3) {
        std::fprintf(stderr,
                     "usage: dse_bench MODEL.onnx CLUSTER.json [--evaluations N] [--json FILE]\n");
        return 2;
    }
    const std::string model_file = argv[1], cluster_file = argv[2];
    int evaluations = 40000;
    std::string json_file;
    for (int i = 3; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--evaluations")
            evaluations = std::stoi(argv[i + 1]);
        else if (flag == "--json")
            json_file = argv[i + 1];
    }
    double prepare_s = 0;
    std::unique_ptr<dse::ExplorationInputs> inputs;
    {
        const auto start = std::chrono::steady_clock::now();
        inputs = dse::prepare_exploration(graph::load_model(model_file),
                                          device::load_cluster(cluster_file), {});
        prepare_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    const auto& space = *inputs->space;
    const int K = space.costs().kernel_count();
    const int N = static_cast<int>(space.pes().size());
    for (const auto& note : inputs->notes)
        std::printf("note: %s\n", note.c_str());

    std::mt19937 random(1);
    const auto run = [&](dse::Encoding encoding, dse::Level level, int count) {
        const dse::GeneLayout layout{encoding, K, N, true};
        std::vector<std::vector<double>> genes;
        for (int i = 0; i < count; ++i)
            genes.push_back(dse::random_genes(layout, random));
        const pagmo::problem problem{dse::MappingProblem(space, layout, space.pes(), level)};
        double checksum = 0;
        const double seconds = fitness_seconds(problem, genes, checksum);
        return std::pair{seconds, checksum};
    };
    const auto [spe_s, spe_sum] = run(dse::Encoding::spe, dse::Level::analytical, evaluations);
    const auto [naive_s, naive_sum] = run(dse::Encoding::naive, dse::Level::analytical, evaluations);
    const int replay_count = std::max(1, evaluations / 40);
    const auto [replay_s, replay_sum] = run(dse::Encoding::spe, dse::Level::replay, replay_count);

    dse::SearchSettings settings; // the paper's: population 100, 400 generations
    settings.stages = 1;
    settings.levels = 1;
    const double search_s = bench::median_seconds(3, [&] { (void)dse::run_search(space, settings); });
    const auto search = dse::run_search(space, settings);

    std::printf("%s on %s: %d kernels, %d PEs, setup (import, kernels, predictors, costs) %.3f s\n",
                model_file.c_str(), cluster_file.c_str(), K, N, prepare_s);
    std::printf("  level 1, SPE:   %d evaluations in %.3f s, %.0f /s (goal: 40,000 in < 1 s)\n",
                evaluations, spe_s, evaluations / spe_s);
    std::printf("  level 1, naive: %d evaluations in %.3f s, %.0f /s\n", evaluations, naive_s,
                evaluations / naive_s);
    std::printf("  level 2 (replay of %d inputs), SPE: %d evaluations in %.3f s, %.0f /s\n",
                space.replay_inputs(), replay_count, replay_s, replay_count / replay_s);
    std::printf("  NSGA-II, one stage, level 1, population 100 x 400 generations: %lld evaluations "
                "in %.3f s (median of 3), front %zu (checksum %.3g)\n",
                static_cast<long long>(search.evaluations), search_s, search.front.size(),
                spe_sum + naive_sum + replay_sum);
    const double per_40k_s = spe_s * 40000.0 / evaluations;
    if (!json_file.empty()) {
        const nlohmann::ordered_json document{
            {"model", model_file},
            {"cluster", cluster_file},
            {"kernels", K},
            {"pes", N},
            {"setup_s", prepare_s},
            {"evaluations", evaluations},
            {"spe_s", spe_s},
            {"spe_per_s", evaluations / spe_s},
            {"naive_s", naive_s},
            {"naive_per_s", evaluations / naive_s},
            {"replay_evaluations", replay_count},
            {"replay_per_s", replay_count / replay_s},
            {"nsga2_evaluations", search.evaluations},
            {"nsga2_s", search_s},
            {"goal_s_per_40000", 1.0}};
        std::ofstream(json_file) << document.dump(2) << '\n';
    }
    return per_40k_s < 1.0 ? 0 : 1;
} catch (const std::exception& e) {
    std::fprintf(stderr, "dse_bench: %s\n", e.what());
    return 2;
}
