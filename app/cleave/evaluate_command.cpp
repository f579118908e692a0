// cleave evaluate: a latency predictor scored on measured runs, kernel by kernel and end to end
// (overhead included, against the median of the measured runs); with --leave-family-out, each
// family is predicted by a predictor trained on the other families, at every thread count.
#include "commands.hpp"
#include "core/input_error.hpp"
#include "core/predict/run_consistency.hpp"
#include "core/statistics.hpp"
#include "output.hpp"
#include "predictor_runs.hpp"
#include "progress.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

namespace cleave::cli {

namespace {

struct EvaluateOptions {
    std::vector<std::string> data;
    std::string models;
    std::string predictor;
    bool leave_family_out = false;
    bool totals = false;
    bool consistency = false;
    std::string device;
    std::string rules = "ort-cpu";
    predict::PredictorTrainingOptions training;
    bool by_family = false;
    bool json = false;
    std::string out;
};

nlohmann::ordered_json errors_json(const predict::ErrorSummary& s) {
    return {{"count", s.count},        {"mape", s.mape},           {"rmspe", s.rmspe},
            {"within_5", s.within_5},  {"within_10", s.within_10}, {"within_15", s.within_15},
            {"max_error", s.max_error}};
}

struct Scored {
    predict::ErrorSummary e2e;
    predict::ErrorSummary kernels;
};

Scored score(const std::vector<const predict::RunPrediction*>& runs) {
    std::vector<double> e2e, kernels;
    for (const auto* r : runs) {
        e2e.push_back((r->predicted_ms - r->run->e2e_ms) / r->run->e2e_ms);
        kernels.insert(kernels.end(), r->kernel_errors.begin(), r->kernel_errors.end());
    }
    return {predict::summarise_errors(e2e), predict::summarise_errors(kernels)};
}

void print_row(const std::string& name, int runs, const Scored& s) {
    std::printf("  %-22s %5d %9.2f%% %9.2f%% %8.1f%%", name.c_str(), runs, 100 * s.e2e.mape,
                100 * s.e2e.rmspe, 100 * s.e2e.within_10);
    if (s.kernels.count > 0)
        std::printf(" %9.2f%% %7d\n", 100 * s.kernels.mape, s.kernels.count);
    else
        std::printf(" %10s %7s\n", "-", "-");
}

// One device's results: per run, per family, pooled over runs and the mean of family MAPEs.
nlohmann::ordered_json report(const std::string& device,
                              const std::vector<predict::FamilyResult>& families,
                              const EvaluateOptions& options) {
    nlohmann::ordered_json runs = nlohmann::ordered_json::array();
    nlohmann::ordered_json family_rows = nlohmann::ordered_json::array();
    std::vector<const predict::RunPrediction*> all;
    double family_mape_sum = 0;
    if (!options.json)
        std::printf("%s\n  %-22s %5s %10s %10s %9s %10s %7s\n", device.c_str(), "family", "runs",
                    "e2e MAPE", "e2e RMSPE", "<=10%", "kern MAPE", "kernels");
    for (const auto& f : families) {
        std::vector<const predict::RunPrediction*> mine;
        for (const auto& r : f.runs) {
            mine.push_back(&r);
            all.push_back(&r);
            const auto k = predict::summarise_errors(r.kernel_errors);
            runs.push_back({{"run", r.run->name},
                            {"family", r.run->family},
                            {"threads", r.run->threads},
                            {"measured_ms", r.run->e2e_ms},
                            {"predicted_ms", r.predicted_ms},
                            {"error", (r.predicted_ms - r.run->e2e_ms) / r.run->e2e_ms},
                            {"kernel_mape", k.mape},
                            {"kernels", k.count}});
        }
        const auto s = score(mine);
        family_mape_sum += s.e2e.mape;
        family_rows.push_back({{"family", f.family},
                               {"end_to_end", errors_json(s.e2e)},
                               {"kernels", errors_json(s.kernels)}});
        if (!options.json)
            print_row(f.family, static_cast<int>(mine.size()), s);
    }
    const auto pooled = score(all);
    const double family_mean = families.empty() ? 0 : family_mape_sum / families.size();
    if (!options.json) {
        print_row("pooled (all runs)", static_cast<int>(all.size()), pooled);
        std::printf("  %-22s %5zu %9.2f%%\n\n", "mean of families", families.size(),
                    100 * family_mean);
    }
    nlohmann::ordered_json out{{"device", device},
                               {"end_to_end", errors_json(pooled.e2e)},
                               {"kernels", errors_json(pooled.kernels)},
                               {"family_mean_mape", family_mean},
                               {"families", family_rows}};
    if (!options.by_family)
        out["runs"] = runs;
    return out;
}

// --consistency: per thread count, how far apart runs are on kernels no predictor can tell
// apart, and the end-to-end error that alone leaves (run_consistency.hpp).
nlohmann::ordered_json consistency_report(const std::string& device,
                                          const std::vector<predict::RunData>& loaded,
                                          const EvaluateOptions& options) {
    std::vector<const predict::RunData*> runs;
    for (const auto& r : loaded)
        runs.push_back(&r);
    const auto c = predict::run_consistency(runs);
    std::vector<double> factors, shares;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const auto& r : c.runs) {
        factors.push_back(r.speed_factor);
        shares.push_back(r.twin_share);
        rows.push_back({{"run", r.run->name},
                        {"family", r.run->family},
                        {"twin_share", r.twin_share},
                        {"speed_factor", r.speed_factor},
                        {"oracle_error", r.oracle_error}});
    }
    if (!options.json)
        std::printf("%s: %zu runs, %d timed kernels (%d distinct)\n", device.c_str(), runs.size(),
                    c.timed_kernels, c.distinct_kernels);
    if (!options.json && c.timed_kernels > 0) {
        std::printf("  kernel time with a twin in another run: median %.0f%% of a run\n",
                    100 * quantile(shares, 0.5));
        std::printf("  run speed against the twins' medians: 5th percentile %.2f, median %.2f, "
                    "95th %.2f\n",
                    quantile(factors, 0.05), quantile(factors, 0.5), quantile(factors, 0.95));
        std::printf("  oracle (every kernel at its twins' median) end-to-end MAPE: %.2f%%\n",
                    100 * c.oracle_mape);
        std::vector<const predict::RunConsistency*> extreme;
        for (const auto& r : c.runs)
            extreme.push_back(&r);
        std::sort(extreme.begin(), extreme.end(), [](const auto* a, const auto* b) {
            return std::abs(std::log(a->speed_factor)) > std::abs(std::log(b->speed_factor));
        });
        for (std::size_t i = 0; i < std::min<std::size_t>(5, extreme.size()); ++i)
            std::printf("    %-32s speed %.2f (twins %.0f%% of its kernel time)\n",
                        extreme[i]->run->name.c_str(), extreme[i]->speed_factor,
                        100 * extreme[i]->twin_share);
    }
    const auto sizes = predict::size_consistency(runs);
    if (!options.json) {
        if (sizes.models > 0)
            std::printf("  end to end, %d models measured at several input sizes (%d runs): "
                        "each run at the median of its model's other sizes: MAPE %.2f%%; each "
                        "model at its best single time (in hindsight): %.2f%%\n",
                        sizes.models, sizes.runs, 100 * sizes.other_sizes_mape,
                        100 * sizes.best_single_time_mape);
        std::printf("\n");
    }
    return {{"device", device},
            {"runs", c.runs.size()},
            {"timed_kernels", c.timed_kernels},
            {"distinct_kernels", c.distinct_kernels},
            {"oracle_mape", c.oracle_mape},
            {"speed_factor",
             {{"p5", quantile(factors, 0.05)},
              {"median", quantile(factors, 0.5)},
              {"p95", quantile(factors, 0.95)}}},
            {"per_run", rows},
            {"input_sizes",
             {{"models", sizes.models},
              {"runs", sizes.runs},
              {"other_sizes_mape", sizes.other_sizes_mape},
              {"best_single_time_mape", sizes.best_single_time_mape}}}};
}

int run_evaluate(EvaluateOptions& options) {
    const auto method = fusion::find_fusion_method(options.rules);
    nlohmann::ordered_json devices = nlohmann::ordered_json::array();
    if (options.consistency) {
        const auto loaded =
            load_predictor_runs(options.data, options.models, run_selection(options.device));
        std::map<RunSelection, std::vector<predict::RunData>> by_device;
        for (const auto& r : loaded.runs)
            by_device[{r.threads, r.dtype}].push_back(r);
        for (const auto& [selection, runs] : by_device)
            devices.push_back(consistency_report(selection.label(), runs, options));
    } else if (options.totals) {
        const auto loaded =
            load_predictor_runs(options.data, options.models, run_selection(options.device));
        std::map<std::pair<int, std::string>, std::vector<predict::RunData>> groups;
        for (const auto& r : loaded.runs)
            groups[{r.threads, r.dtype}].push_back(r);
        for (const auto& [key, runs] : groups) {
            std::string device = key.second.empty() ? "runs" : key.second;
            if (key.first > 0)
                device +=
                    ", " + std::to_string(key.first) + " thread" + (key.first == 1 ? "" : "s");
            const auto families = predict::leave_family_out_totals(runs, method);
            devices.push_back(report(device, families, options));
        }
    } else if (!options.leave_family_out) {
        const auto predictor = predict::load_predictor(options.predictor);
        const auto loaded =
            load_predictor_runs(options.data, options.models, run_selection(predictor.device));
        std::map<std::string, predict::FamilyResult> by_family;
        for (const auto& r : loaded.runs) {
            auto& f = by_family[r.family];
            f.family = r.family;
            f.runs.push_back(predict::evaluate_run(predictor, method, r));
        }
        std::vector<predict::FamilyResult> families;
        for (auto& [name, f] : by_family)
            families.push_back(std::move(f));
        devices.push_back(report(predictor.device, families, options));
    } else {
        // One predictor per device the data stands for: per thread count and dtype.
        std::vector<RunSelection> selections;
        if (!options.device.empty())
            selections = {run_selection(options.device)};
        else
            for (const auto& file : options.data)
                for (const auto& s : run_selections({profile::load_measured_dataset(file)}))
                    selections.push_back(s);
        std::sort(selections.begin(), selections.end());
        selections.erase(std::unique(selections.begin(), selections.end()), selections.end());
        for (const auto& selection : selections) {
            const std::string device = !options.device.empty() ? options.device : selection.label();
            predict::make_regressor(options.training.kind, "--kind");
            const auto loaded = load_predictor_runs(options.data, options.models, selection);
            options.training.device = device;
            options.training.rules = options.rules;
            Progress progress;
            ProgressControl printed(progress, device + ": ");
            const auto families = predict::leave_family_out(loaded.runs, method, options.training,
                                                            &printed.control());
            progress.clear();
            devices.push_back(report(device, families, options));
        }
    }
    const nlohmann::ordered_json document{
        {"predictor", options.consistency        ? std::string("none: consistency of the runs")
                      : options.totals           ? std::string("lasso on summed kernel features, "
                                                                         "leave-family-out")
                      : options.leave_family_out ? options.training.kind + ", leave-family-out"
                                                 : options.predictor},
        {"rules", method.name},
        {"data", options.data},
        {"devices", devices}};
    if (options.json || !options.out.empty())
        emit_json(document, options.json, options.out);
    return 0;
}

} // namespace

Action add_evaluate_command(CLI::App& app) {
    auto options = std::make_shared<EvaluateOptions>();
    auto* command = app.add_subcommand(
        "evaluate", "Score a latency predictor on measured runs (kernel level and end to end)");
    add_data_options(*command, options->data, options->models);
    auto* predictor = command->add_option("--predictor", options->predictor,
                                          "Predictor file written by cleave train");
    auto* lofo = command->add_flag(
        "--leave-family-out", options->leave_family_out,
        "Predict each model family with a predictor trained on the other families");
    predictor->excludes(lofo);
    auto* totals = command->add_flag(
        "--totals", options->totals,
        "For end-to-end data: one linear model over the kernel features summed per model, "
        "trained on totals, each family held out in turn (per dtype and thread count)");
    totals->excludes(predictor);
    totals->excludes(lofo);
    auto* consistency = command->add_flag(
        "--consistency", options->consistency,
        "No predictor: how far runs disagree on kernels no predictor can tell apart (same class "
        "and features), and the end-to-end MAPE an oracle that knows each such kernel's median "
        "time still has; end to end, how far a model's runs at other input sizes are from each "
        "run (per thread count and dtype)");
    consistency->excludes(predictor);
    consistency->excludes(lofo);
    consistency->excludes(totals);
    command->add_option("--device", options->device,
                        "With --leave-family-out: only this device's runs (xeon-ort-4t, "
                        "h100-cudnn-fp16); default: every thread count and dtype in the data");
    command
        ->add_option("--kind", options->training.kind,
                     "With --leave-family-out: the regressor to train (lasso, gbdt, mlp, "
                     "launch-bound: also from end-to-end times alone)")
        ->capture_default_str();
    command
        ->add_option("--rules", options->rules,
                     "Fusion method whose kernels are predicted end to end")
        ->capture_default_str();
    command->add_flag("--by-family", options->by_family, "Leave the per-run rows out of the JSON");
    command->add_flag("--json", options->json, "Print the scores as JSON");
    command->add_option("--out", options->out, "Write the JSON document to FILE (atomically)");
    command->callback([options, predictor, lofo, totals, consistency] {
        if (predictor->count() == 0 && lofo->count() == 0 && totals->count() == 0 &&
            consistency->count() == 0)
            throw CLI::RequiredError("--predictor, --leave-family-out, --totals or --consistency");
    });
    return [options] { return run_evaluate(*options); };
}

} // namespace cleave::cli
