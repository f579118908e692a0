// The predictor kinds a calibration scores, and the scoring: each kind trained with every family
// of networks held out in turn, while the calibration's time budget lasts; the best is kept.
#pragma once

#include "calibration.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/predict/predictor_training.hpp"

#include <functional>
#include <string>
#include <vector>

namespace cleave::calibration {

// The kinds asked for (InputError naming --kind for one not installed here), else every kind
// installed but the roofline (a calibration is what replaces it), with the cross-device kind
// where a base is installed: the tree ensemble first, then the cheaper to score.
std::vector<std::string> kinds_to_score(const CalibrationOptions& options);

// The time scoring may take, on the calibration's clock.
struct ScoringBudget {
    std::function<double()> elapsed;             // seconds since the calibration began
    double budget_s = 0;                         // the whole calibration's
    const TaskControl* control = nullptr;        // the calibration's: lines for people, cancel
};

// Each kind scored with each family held out in `folds` folds, in order; `best` is set to the
// scored kind of the lowest end-to-end MAPE. The first kind is always scored; another is not
// (KindScore::scored false) as soon as the budget, less what the final fit of the best so far
// takes, is spent, or its next fold, as slow as its slowest so far, would not end in time
// (checked before each fold and each class model, so a slow kind overruns by one model's fit at
// most).
std::vector<KindScore> score_kinds(const std::vector<std::string>& kinds,
                                   const std::vector<predict::RunData>& runs,
                                   const fusion::FusionMethod& method,
                                   const predict::PredictorTrainingOptions& training, int folds,
                                   const ScoringBudget& budget, int& best);

} // namespace cleave::calibration
