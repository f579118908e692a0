// XGBoost's JSON model, checked before XGBoost is handed it. XGBoost's loader trusts what it
// reads: a tree whose arrays disagree in length makes it read past their ends (a crash), and
// children that form a cycle load and then loop forever in predict. What passes is what the gbdt
// regressor writes: a gbtree of regression trees with numerical splits, one tree per round.
#pragma once

#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace cleave {
class JsonReader;
}

namespace cleave::xgboost_regressor {

// `model` sits at `pointer` of `reader`'s file; `feature_count`: the columns every prediction
// gives it. Throws InputError naming the JSON pointer and what was expected there.
void check_xgboost_model(const JsonReader& reader, const nlohmann::json& model,
                         const std::string& pointer, std::size_t feature_count);

} // namespace cleave::xgboost_regressor
