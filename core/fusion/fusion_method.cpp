#include "fusion_method.hpp"

#include "core/input_error.hpp"
#include "rule_engine.hpp"

namespace cleave::fusion {

FusionMethod find_fusion_method(const std::string& spec) {
    if (spec.rfind(kLearnedPrefix, 0) == 0) {
        const auto file = spec.substr(std::string(kLearnedPrefix).size());
        if (file.empty())
            throw InputError("", "--rules",
                             "expected learned:FILE naming a model written by cleave fuse-train");
        auto learned = load_learned_fusion(file);
        const auto description =
            "classifier trained on " + std::to_string(learned.trained_on.size()) + " measured runs";
        return {spec, description, std::move(learned)};
    }
    auto rules = find_rule_set(spec);
    auto name = rules.name;
    auto description = rules.runtime;
    return {std::move(name), std::move(description), std::move(rules)};
}

KernelGraph detect_kernels(const graph::Model& model, const FusionMethod& method) {
    if (const auto* rules = std::get_if<RuleSet>(&method.how))
        return fuse_with_rules(model, *rules);
    return fuse_learned(model, std::get<LearnedFusion>(method.how));
}

} // namespace cleave::fusion
