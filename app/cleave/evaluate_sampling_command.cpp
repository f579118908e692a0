// cleave evaluate-sampling: does choosing the kernels to profile by KMeans (sample-kernels)
// train a better predictor than as many kernels chosen at random? On one device's measured
// runs: per budget, a predictor trained on the chosen kernels alone (one sample each, its median
// time), scored on every other kernel of the runs and end to end on every run.
#include "commands.hpp"
#include "core/atomic_file.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/predict/profiled_kernels.hpp"
#include "output.hpp"
#include "predictor_runs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <random>

namespace cleave::cli {

namespace {

struct EvaluateSamplingOptions {
    std::vector<std::string> data;
    std::string models;
    std::string device;
    std::string rules = "ort-cpu";
    std::string kind = "gbdt";
    std::vector<int> budgets{25, 50, 100, 200};
    int seeds = 5;
    bool json = false;
    std::string out;
};

struct Score {
    double kernel_mape = 0;
    double e2e_mape = 0;
};

struct Spread {
    double mean = 0;
    double sd = 0; // over the seeds
};

Spread spread(const std::vector<Score>& scores, double Score::*field) {
    Spread s;
    for (const auto& x : scores)
        s.mean += x.*field / static_cast<double>(scores.size());
    for (const auto& x : scores)
        s.sd += (x.*field - s.mean) * (x.*field - s.mean) / static_cast<double>(scores.size());
    s.sd = std::sqrt(s.sd);
    return s;
}

int run_evaluate_sampling(const EvaluateSamplingOptions& options) {
    if (!options.out.empty())
        check_file_can_be_written(options.out);
    const auto method = fusion::find_fusion_method(options.rules);
    const auto loaded =
        load_predictor_runs(options.data, options.models, run_selection(options.device));
    const auto profiled = predict::ProfiledKernels::of(loaded.runs);
    const auto& distinct = profiled.kernels;
    const auto& candidates = profiled.candidates;
    std::vector<fusion::KernelGraph> kernel_graphs;
    std::vector<const predict::RunData*> run_pointers;
    for (const auto& run : loaded.runs) {
        kernel_graphs.push_back(fusion::detect_kernels(*run.model, method));
        run_pointers.push_back(&run);
    }

    auto score = [&](const std::vector<int>& chosen, unsigned seed) {
        predict::PredictorTrainingOptions training;
        training.device = options.device;
        training.kind = options.kind;
        training.rules = options.rules;
        training.seed = seed;
        const auto predictor = predict::train_predictor_on_samples(profiled.samples(chosen),
                                                                   run_pointers, training);
        const auto scored =
            predict::score_on_runs(predictor, profiled, chosen, run_pointers, kernel_graphs);
        return Score{scored.kernels.mape, scored.e2e.mape};
    };

    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    if (!options.json)
        std::printf("%s, %s: %zu runs, %zu timed kernels, %zu distinct; mean of %d seeds\n"
                    "  %6s %14s %14s %14s %14s\n",
                    options.device.c_str(), options.kind.c_str(), loaded.runs.size(),
                    candidates.size(), distinct.size(), options.seeds, "budget", "kmeans kernel",
                    "random kernel", "kmeans e2e", "random e2e");
    for (const int budget : options.budgets) {
        std::vector<Score> by_kmeans_scores, at_random_scores;
        for (int s = 1; s <= options.seeds; ++s) {
            const unsigned seed = static_cast<unsigned>(s);
            const auto by_kmeans = profiled.choose_by_kmeans(budget, seed);
            std::vector<int> at_random(distinct.size());
            std::iota(at_random.begin(), at_random.end(), 0);
            std::mt19937_64 rng(seed);
            std::shuffle(at_random.begin(), at_random.end(), rng);
            at_random.resize(std::min<std::size_t>(budget, at_random.size()));
            by_kmeans_scores.push_back(score(by_kmeans, seed));
            at_random_scores.push_back(score(at_random, seed));
        }
        const Spread km_kernel = spread(by_kmeans_scores, &Score::kernel_mape),
                     km_e2e = spread(by_kmeans_scores, &Score::e2e_mape),
                     rn_kernel = spread(at_random_scores, &Score::kernel_mape),
                     rn_e2e = spread(at_random_scores, &Score::e2e_mape);
        rows.push_back({{"budget", budget},
                        {"kmeans",
                         {{"kernel_mape", km_kernel.mean},
                          {"kernel_mape_sd", km_kernel.sd},
                          {"e2e_mape", km_e2e.mean},
                          {"e2e_mape_sd", km_e2e.sd}}},
                        {"random",
                         {{"kernel_mape", rn_kernel.mean},
                          {"kernel_mape_sd", rn_kernel.sd},
                          {"e2e_mape", rn_e2e.mean},
                          {"e2e_mape_sd", rn_e2e.sd}}}});
        if (!options.json)
            std::printf("  %6d %7.1f%% +-%4.1f %7.1f%% +-%4.1f %7.1f%% +-%4.1f %7.1f%% +-%4.1f\n",
                        budget, 100 * km_kernel.mean, 100 * km_kernel.sd, 100 * rn_kernel.mean,
                        100 * rn_kernel.sd, 100 * km_e2e.mean, 100 * km_e2e.sd, 100 * rn_e2e.mean,
                        100 * rn_e2e.sd);
    }
    const nlohmann::ordered_json document{{"device", options.device},
                                          {"kind", options.kind},
                                          {"rules", method.name},
                                          {"data", options.data},
                                          {"runs", loaded.runs.size()},
                                          {"timed_kernels", candidates.size()},
                                          {"distinct_kernels", distinct.size()},
                                          {"seeds", options.seeds},
                                          {"budgets", rows}};
    if (options.json || !options.out.empty())
        emit_json(document, options.json, options.out);
    return 0;
}

} // namespace

Action add_evaluate_sampling_command(CLI::App& app) {
    auto options = std::make_shared<EvaluateSamplingOptions>();
    auto* command = app.add_subcommand(
        "evaluate-sampling",
        "Compare predictors trained on kernels chosen by KMeans and at random (one device)");
    add_data_options(*command, options->data, options->models);
    command->add_option("--device", options->device, "The device whose runs to use (xeon-ort-4t)")
        ->required();
    command
        ->add_option("--rules", options->rules,
                     "Fusion method whose kernels are predicted end to end")
        ->capture_default_str();
    command->add_option("--kind", options->kind, "The regressor to train (lasso, gbdt, mlp)")
        ->capture_default_str();
    command->add_option("--budget", options->budgets, "Kernels to profile; repeat for several")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    command->add_option("--seeds", options->seeds, "Seeds (1..N) each budget is averaged over")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    command->add_flag("--json", options->json, "Print the scores as JSON");
    command->add_option("--out", options->out, "Write the JSON document to FILE (atomically)");
    return [options] { return run_evaluate_sampling(*options); };
}

} // namespace cleave::cli
