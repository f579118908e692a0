#include "regressor.hpp"

#include "core/input_error.hpp"
#include "core/json_reader.hpp"
#include "core/plugin/plugin_registry.hpp"
#include "cross_device.hpp"
#include "lasso.hpp"
#include "launch_bound.hpp"
#include "mlp.hpp"
#include "roofline.hpp"

#include <limits>

namespace cleave::predict {

namespace {

const plugin::PluginRegistry& registry() {
    static const plugin::PluginRegistry loaded;
    return loaded;
}

} // namespace

std::unique_ptr<Regressor> make_regressor(const std::string& kind, const std::string& option) {
    if (kind == "lasso")
        return std::make_unique<LassoRegressor>();
    if (kind == "mlp")
        return std::make_unique<MlpRegressor>();
    if (kind == "roofline")
        return std::make_unique<RooflineRegressor>();
    if (kind == "launch-bound")
        return std::make_unique<LaunchBoundRegressor>();
    if (kind == kCrossDeviceKind) // adapted by train_predictor, made here to be loaded
        return std::make_unique<CrossDeviceRegressor>();
    return registry().create<Regressor>(kind, option);
}

std::vector<std::string> regressor_kinds() {
    std::vector<std::string> kinds{"lasso", "mlp", "roofline", "launch-bound"};
    for (const auto* descriptor : registry().plugins(Regressor::kPluginKind))
        kinds.emplace_back(descriptor->name);
    return kinds;
}

nlohmann::json read_model_head(const std::string& text, const std::string& what,
                               const std::string& target, std::size_t feature_count) {
    const JsonReader reader("");
    auto doc = reader.parse(text, what);
    reader.expect_object(doc, "", what);
    if (reader.string(doc, "", "target", true, "\"" + target + "\"") != target)
        reader.fail("/target", "expected \"" + target + "\"");
    if (reader.whole_number(doc, "", "features", true, 0, std::numeric_limits<int>::max()) !=
        static_cast<int>(feature_count))
        reader.fail("/features",
                    "expected " + std::to_string(feature_count) + ", the predictor's feature count");
    return doc;
}

} // namespace cleave::predict
