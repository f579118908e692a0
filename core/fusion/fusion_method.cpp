#include "fusion_method.hpp"

#include "core/input_error.hpp"
#include "rule_engine.hpp"

#include <algorithm>
#include <set>

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

KernelGraph detect_kernels(const graph::Model& model, const FusionMethod& method,
                           std::span<const int> parts) {
    if (const auto* rules = std::get_if<RuleSet>(&method.how))
        return fuse_with_rules(model, *rules, parts);
    return fuse_learned(model, std::get<LearnedFusion>(method.how), parts);
}

std::vector<std::string> unmatched_ops(const graph::Model& model, const FusionMethod& method) {
    const auto constant = load_time_constants(model);
    std::set<std::string> ops;
    for (std::size_t n = 0; n < model.nodes.size(); ++n)
        if (!constant[n])
            ops.insert(model.nodes[n].op);
    std::vector<std::string> unknown;
    for (const auto& op : ops) {
        bool known = false;
        if (const auto* rules = std::get_if<RuleSet>(&method.how)) {
            for (const auto& rule : rules->rules) {
                // A kernel type a rule gave comes from ops some rule names; only a rule with no
                // condition at all on one side takes any op there.
                const bool any_producer = !rule.siblings && rule.from.empty() &&
                                          rule.from_kernel.empty() &&
                                          rule.from_kernel_type.empty();
                // A node joining its consumer's kernel leaves that kernel as it was.
                const bool any_consumer = rule.to.empty() && !rule.join_consumer;
                known |=
                    any_consumer || rule.to.count(op) > 0 || any_producer ||
                    (!rule.siblings && (rule.from.count(op) > 0 || rule.from_kernel.count(op) > 0));
            }
        } else {
            const auto& vocabulary = std::get<LearnedFusion>(method.how).ops;
            known = std::find(vocabulary.begin(), vocabulary.end(), op) != vocabulary.end();
        }
        if (!known)
            unknown.push_back(op);
    }
    return unknown;
}

} // namespace cleave::fusion
