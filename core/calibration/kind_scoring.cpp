#include "kind_scoring.hpp"

#include "core/input_error.hpp"
#include "core/predict/cross_device.hpp"
#include "core/predict/cross_device_base.hpp"
#include "core/predict/regressor.hpp"

#include <algorithm>
#include <cstdio>

namespace cleave::calibration {

namespace {

std::string fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

void say(const ScoringBudget& budget, const std::string& line) {
    report_line(budget.control, line);
}

FamilyError family_error(const predict::FamilyResult& family) {
    std::vector<double> errors;
    for (const auto& r : family.runs)
        errors.push_back((r.predicted_ms - r.run->e2e_ms) / r.run->e2e_ms);
    return {family.family, static_cast<int>(family.runs.size()), predict::summarise_errors(errors)};
}

// `kind` scored with each family held out, or not scored when the budget, less what the final
// fit of the best so far takes (`best_fit_s`), is spent, or its next fold, as slow as its slowest
// so far, would not end in time (checked before each fold and each class model, so a slow kind
// overruns by one model's fit at most). The first kind (`first`) is always scored. `slowest_fold`:
// its slowest fold, what its fit on everything takes.
KindScore score_kind(const std::string& kind, const std::vector<predict::RunData>& runs,
                     const fusion::FusionMethod& method,
                     const predict::PredictorTrainingOptions& training, int folds,
                     const ScoringBudget& budget, bool first, double best_fit_s,
                     double& slowest_fold) {
    // Thrown from the reports of the scoring's steps, which the calibration does not show.
    struct BudgetSpent {};
    KindScore score;
    score.kind = kind;
    const double began = budget.elapsed();
    double fold_began = began;
    const auto check_budget = [&](double next_s) {
        if (!first && budget.elapsed() + next_s + 1.25 * best_fit_s > budget.budget_s)
            throw BudgetSpent{};
    };
    // Before each class model: the budget.
    const TaskControl fitting(budget.control, [&](const TaskProgress&) { check_budget(0); });
    // Before each fold: the budget, and whether a fold like the slowest so far would end in time.
    const TaskControl scoring(budget.control, [&](const TaskProgress&) {
        check_budget(0);
        slowest_fold = std::max(slowest_fold, budget.elapsed() - fold_began);
        fold_began = budget.elapsed();
        check_budget(slowest_fold);
    });
    auto kind_training = training;
    kind_training.kind = kind;
    kind_training.control = &fitting;
    std::vector<predict::FamilyResult> held_out;
    try {
        held_out = predict::leave_family_out(runs, method, kind_training, &scoring, folds);
    } catch (const BudgetSpent&) {
        score.not_scored = "the budget ran out";
        say(budget, "  " + kind + ": not scored, the budget is spent");
        return score;
    } catch (const InputError& e) {
        // A kind that cannot be trained here (an installed base from another version) is not
        // scored; the others are, and the measurements are not lost.
        score.not_scored = e.what();
        say(budget, "  " + kind + ": not scored: " + score.not_scored);
        return score;
    }
    slowest_fold = std::max(slowest_fold, budget.elapsed() - fold_began);
    std::vector<double> pooled;
    for (const auto& f : held_out) {
        score.families.push_back(family_error(f));
        for (const auto& r : f.runs)
            pooled.push_back((r.predicted_ms - r.run->e2e_ms) / r.run->e2e_ms);
    }
    score.e2e = predict::summarise_errors(pooled);
    score.scored = true;
    score.seconds = budget.elapsed() - began;
    say(budget, "  " + kind + ": " + fixed(100 * score.e2e.mape, 1) +
                    "% end-to-end MAPE on held-out families (" + fixed(score.seconds, 1) + " s)");
    return score;
}

} // namespace

std::vector<std::string> kinds_to_score(const CalibrationOptions& options) {
    std::vector<std::string> installed = predict::regressor_kinds();
    std::erase(installed, "roofline"); // a calibration is what replaces the roofline
    // Cross-device: the installed base adapted to this machine's kernels (docs/predictors.md).
    if (predict::installed_cross_device_base())
        installed.emplace_back(predict::kCrossDeviceKind);
    if (options.kinds.empty()) {
        // The tree ensemble first: it has scored best on measured CPU data (docs/predictors.md),
        // so a budget that runs out still scores it. Then the cheaper to score, so the time left
        // scores as many as it can: cross-device (the base's trees adapted by a few ridge fits,
        // ahead of the samples alone when they are few) and launch-bound fit in seconds, mlp in
        // tens of seconds, lasso (a model per cost class) in longer still.
        const std::vector<std::string> order{"gbdt", predict::kCrossDeviceKind, "launch-bound",
                                             "mlp", "lasso"};
        const auto rank = [&](const std::string& k) {
            return std::find(order.begin(), order.end(), k) - order.begin();
        };
        std::stable_sort(
            installed.begin(), installed.end(),
            [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
        return installed;
    }
    for (const auto& kind : options.kinds)
        if (std::find(installed.begin(), installed.end(), kind) == installed.end())
            throw InputError("", "--kind", "predictor kind '" + kind + "' is not installed here");
    return options.kinds;
}

std::vector<KindScore> score_kinds(const std::vector<std::string>& kinds,
                                   const std::vector<predict::RunData>& runs,
                                   const fusion::FusionMethod& method,
                                   const predict::PredictorTrainingOptions& training, int folds,
                                   const ScoringBudget& budget, int& best) {
    std::vector<KindScore> scores;
    double best_fit_s = 0; // the best kind's slowest fold: what its fit on everything takes
    for (const auto& kind : kinds) {
        checkpoint(budget.control);
        double slowest_fold = 0;
        KindScore score = score_kind(kind, runs, method, training, folds, budget, scores.empty(),
                                     best_fit_s, slowest_fold);
        const bool scored = score.scored;
        scores.push_back(std::move(score));
        if (!scored)
            continue;
        if (best < 0 || scores.back().e2e.mape < scores[static_cast<std::size_t>(best)].e2e.mape) {
            best = static_cast<int>(scores.size()) - 1;
            best_fit_s = slowest_fold;
        }
    }
    return scores;
}

} // namespace cleave::calibration
