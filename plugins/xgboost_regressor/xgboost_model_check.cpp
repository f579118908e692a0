#include "xgboost_model_check.hpp"

#include "core/json_reader.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

namespace cleave::xgboost_regressor {

namespace {

using nlohmann::json;

constexpr std::int64_t kMostNodes = std::numeric_limits<std::int32_t>::max();

constexpr const char* kPerNode = "one per node (tree_param/num_nodes)";
// The per-node arrays of numbers; those of whole numbers are read one by one.
const char* const kNodeNumbers[] = {"split_conditions", "base_weights", "loss_changes",
                                    "sum_hessian"};
// Categorical splits: cleave's features are all numerical, so these stay empty.
const char* const kCategories[] = {"categories", "categories_nodes", "categories_segments",
                                   "categories_sizes"};

// XGBoost keeps its parameters as strings of digits ("num_nodes": "113").
std::int64_t whole_in_string(const JsonReader& reader, const json& object,
                             const std::string& pointer, const std::string& key, std::int64_t min,
                             std::int64_t max) {
    const std::string at = child_pointer(pointer, key);
    const std::string expected = "a whole number from " + std::to_string(min) + " to " +
                                 std::to_string(max) + " as a string";
    const std::string text = reader.string(object, pointer, key, true, expected);
    std::int64_t value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9' || value > (max - (c - '0')) / 10 || value * 10 + (c - '0') > max)
            reader.fail(at, "expected " + expected + ", found \"" + text + "\"");
        value = value * 10 + (c - '0');
    }
    if (value < min)
        reader.fail(at, "expected " + expected + ", found \"" + text + "\"");
    return value;
}

// A string parameter that must read `expected_text` where present.
void fixed_string(const JsonReader& reader, const json& object, const std::string& pointer,
                  const std::string& key, const std::string& expected_text, bool required,
                  const std::string& why) {
    const std::string text = reader.string(object, pointer, key, required, why);
    if (!text.empty() && text != expected_text)
        reader.fail(child_pointer(pointer, key),
                    "expected \"" + expected_text + "\" (" + why + "), found \"" + text + "\"");
}

// `count` whole numbers in [min, max]; `per` says what each is for ("one per tree").
std::vector<std::int64_t> whole_numbers(const JsonReader& reader, const json& object,
                                        const std::string& pointer, const std::string& key,
                                        std::size_t count, const std::string& per, std::int64_t min,
                                        std::int64_t max) {
    const json& array = *reader.array(object, pointer, key, true, "whole numbers, " + per);
    const std::string at = child_pointer(pointer, key);
    if (array.size() != count)
        reader.fail(at, "expected " + std::to_string(count) + " entries, " + per + ", found " +
                            std::to_string(array.size()));
    std::vector<std::int64_t> values;
    values.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        const json& v = array[i];
        // default_left is written as 0 and 1, or as booleans.
        const std::int64_t value = v.is_boolean() && min == 0 && max == 1 ? v.get<bool>()
                                   : v.is_number_integer()                ? v.get<std::int64_t>()
                                                                          : min - 1;
        if (value < min || value > max)
            reader.fail(child_pointer(at, i),
                        "expected a whole number from " + std::to_string(min) + " to " +
                            std::to_string(max) + ", found " +
                            (v.is_number() ? v.dump() : std::string(v.type_name())));
        values.push_back(value);
    }
    return values;
}

// Each node reached from the root exactly once: no cycle, no node shared by two parents, none
// left over (cleave's trees have no deleted nodes), and each child's parent its parent.
void check_shape(const JsonReader& reader, const std::string& pointer,
                 const std::vector<std::int64_t>& left, const std::vector<std::int64_t>& right,
                 const std::vector<std::int64_t>& parents) {
    const std::size_t n = left.size();
    std::vector<bool> reached(n, false);
    std::vector<std::size_t> pending{0};
    reached[0] = true;
    while (!pending.empty()) {
        const std::size_t node = pending.back();
        pending.pop_back();
        if ((left[node] < 0) != (right[node] < 0))
            reader.fail(child_pointer(child_pointer(pointer, "right_children"), node),
                        "node " + std::to_string(node) + " has " +
                            (left[node] < 0 ? "a right child but no left one"
                                            : "a left child but no right one") +
                            "; expected both children or none (-1, a leaf)");
        if (left[node] < 0)
            continue;
        for (const auto& [side, child_index] :
             {std::pair{"left_children", left[node]}, std::pair{"right_children", right[node]}}) {
            const auto child = static_cast<std::size_t>(child_index);
            const std::string at = child_pointer(child_pointer(pointer, side), node);
            if (reached[child])
                reader.fail(at, "node " + std::to_string(child) +
                                    " is reached a second time (a cycle, or a node with two "
                                    "parents); expected a tree");
            if (parents[child] != static_cast<std::int64_t>(node))
                reader.fail(child_pointer(child_pointer(pointer, "parents"), child),
                            "expected " + std::to_string(node) + ", the node whose child it is");
            reached[child] = true;
            pending.push_back(child);
        }
    }
    for (std::size_t i = 0; i < n; ++i)
        if (!reached[i])
            reader.fail(child_pointer(child_pointer(pointer, "parents"), i),
                        "node " + std::to_string(i) +
                            " is not reached from the root; expected every node in the tree");
}

void check_tree(const JsonReader& reader, const json& tree, const std::string& pointer,
                std::size_t index, std::size_t feature_count) {
    reader.expect_object(tree, pointer, "a tree of XGBoost's JSON model");
    const json* id = reader.member(tree, pointer, "id", true, "the tree's index");
    if (!id->is_number_integer() || id->get<std::int64_t>() != static_cast<std::int64_t>(index))
        reader.fail(child_pointer(pointer, "id"),
                    "expected " + std::to_string(index) + ", the tree's place in the list");
    const std::string params = child_pointer(pointer, "tree_param");
    const json& param = *reader.object(tree, pointer, "tree_param", true, "the tree's sizes");
    const auto n = static_cast<std::size_t>(
        whole_in_string(reader, param, params, "num_nodes", 1, kMostNodes));
    fixed_string(reader, param, params, "num_deleted", "0", true, "no deleted nodes");
    fixed_string(reader, param, params, "num_feature", std::to_string(feature_count), true,
                 "the predictor's feature count");
    fixed_string(reader, param, params, "size_leaf_vector", "0", false, "one value per leaf");

    const auto node_count = static_cast<std::int64_t>(n);
    const auto left =
        whole_numbers(reader, tree, pointer, "left_children", n, kPerNode, -1, node_count - 1);
    const auto right =
        whole_numbers(reader, tree, pointer, "right_children", n, kPerNode, -1, node_count - 1);
    const auto parents =
        whole_numbers(reader, tree, pointer, "parents", n, kPerNode, 0, kMostNodes);
    whole_numbers(reader, tree, pointer, "split_indices", n, kPerNode, 0,
                  static_cast<std::int64_t>(feature_count) - 1);
    whole_numbers(reader, tree, pointer, "default_left", n, kPerNode, 0, 1);
    if (tree.contains("split_type")) // 0: a numerical split
        whole_numbers(reader, tree, pointer, "split_type", n, kPerNode, 0, 0);
    for (const char* key : kNodeNumbers)
        reader.finite_numbers(tree, pointer, key, n, kPerNode);
    for (const char* key : kCategories)
        if (const json* values = reader.array(tree, pointer, key, false, "an empty list");
            values && !values->empty())
            reader.fail(child_pointer(pointer, key),
                        "expected an empty list: cleave's features have no categorical splits");
    check_shape(reader, pointer, left, right, parents);
}

} // namespace

void check_xgboost_model(const JsonReader& reader, const json& model, const std::string& pointer,
                         std::size_t feature_count) {
    reader.expect_object(model, pointer, "XGBoost's JSON model");
    const std::string learner_at = child_pointer(pointer, "learner");
    const json& learner = *reader.object(model, pointer, "learner", true, "XGBoost's learner");
    const std::string params_at = child_pointer(learner_at, "learner_model_param");
    const json& params =
        *reader.object(learner, learner_at, "learner_model_param", true, "the model's sizes");
    fixed_string(reader, params, params_at, "num_feature", std::to_string(feature_count), true,
                 "the predictor's feature count");
    fixed_string(reader, params, params_at, "num_class", "0", true, "a regression");
    fixed_string(reader, params, params_at, "num_target", "1", false, "one output");

    const std::string booster_at = child_pointer(learner_at, "gradient_booster");
    const json& booster =
        *reader.object(learner, learner_at, "gradient_booster", true, "a gbtree booster");
    fixed_string(reader, booster, booster_at, "name", "gbtree", true, "a booster of trees");
    const std::string trees_model_at = child_pointer(booster_at, "model");
    const json& trees_model = *reader.object(booster, booster_at, "model", true, "the trees");
    const std::string sizes_at = child_pointer(trees_model_at, "gbtree_model_param");
    const json& sizes =
        *reader.object(trees_model, trees_model_at, "gbtree_model_param", true, "the tree count");
    const json& trees = *reader.array(trees_model, trees_model_at, "trees", true, "the trees");
    const auto count = static_cast<std::size_t>(whole_in_string(
        reader, sizes, sizes_at, "num_trees", 0, static_cast<std::int64_t>(trees.size())));
    if (count != trees.size())
        reader.fail(child_pointer(sizes_at, "num_trees"),
                    "expected \"" + std::to_string(trees.size()) + "\", the number of trees");
    fixed_string(reader, sizes, sizes_at, "num_parallel_tree", "1", false, "one tree per round");
    fixed_string(reader, sizes, sizes_at, "size_leaf_vector", "0", false, "one value per leaf");
    // Which output each tree adds to: the one output of a regression.
    whole_numbers(reader, trees_model, trees_model_at, "tree_info", count, "one per tree", 0, 0);

    const std::string trees_at = child_pointer(trees_model_at, "trees");
    for (std::size_t t = 0; t < trees.size(); ++t)
        check_tree(reader, trees[t], child_pointer(trees_at, t), t, feature_count);
}

} // namespace cleave::xgboost_regressor
