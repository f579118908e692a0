// XGBoost's JSON model checked before XGBoost reads it: a model as the gbdt regressor writes it
// passes, and each defect XGBoost's loader would crash or hang on is refused at its JSON pointer.
#include "core/input_error.hpp"
#include "core/json_reader.hpp"
#include "plugins/xgboost_regressor/xgboost_model_check.hpp"

#include <QtTest>
#include <nlohmann/json.hpp>

using cleave::xgboost_regressor::check_xgboost_model;
using nlohmann::json;

namespace {

constexpr const char* kTree0 = "/xgboost/learner/gradient_booster/model/trees/0";

// Two trees over 2 features as XGBoost 1.7 saves them: a split on feature 1 with two leaves,
// then a split whose left child splits again (5 nodes).
json model() {
    const auto tree = [](int id, std::vector<int> left, std::vector<int> right,
                         std::vector<int> parents, std::vector<int> features) {
        const std::size_t n = left.size();
        return json{{"id", id},
                    {"tree_param",
                     {{"num_deleted", "0"},
                      {"num_feature", "2"},
                      {"num_nodes", std::to_string(n)},
                      {"size_leaf_vector", "0"}}},
                    {"left_children", left},
                    {"right_children", right},
                    {"parents", parents},
                    {"split_indices", features},
                    {"split_conditions", std::vector<double>(n, 0.5)},
                    {"split_type", std::vector<int>(n, 0)},
                    {"default_left", std::vector<int>(n, 0)},
                    {"base_weights", std::vector<double>(n, -0.25)},
                    {"loss_changes", std::vector<double>(n, 1.5)},
                    {"sum_hessian", std::vector<double>(n, 10)},
                    {"categories", json::array()},
                    {"categories_nodes", json::array()},
                    {"categories_segments", json::array()},
                    {"categories_sizes", json::array()}};
    };
    json trees = json::array();
    trees.push_back(tree(0, {1, -1, -1}, {2, -1, -1}, {2147483647, 0, 0}, {1, 0, 0}));
    trees.push_back(
        tree(1, {1, 3, -1, -1, -1}, {2, 4, -1, -1, -1}, {2147483647, 0, 0, 1, 1}, {0, 1, 0, 0, 0}));
    return {{"learner",
             {{"attributes", json::object()},
              {"feature_names", json::array()},
              {"feature_types", json::array()},
              {"gradient_booster",
               {{"model",
                 {{"gbtree_model_param",
                   {{"num_parallel_tree", "1"}, {"num_trees", "2"}, {"size_leaf_vector", "0"}}},
                  {"tree_info", {0, 0}},
                  {"trees", trees}}},
                {"name", "gbtree"}}},
              {"learner_model_param",
               {{"base_score", "5E-1"},
                {"boost_from_average", "1"},
                {"num_class", "0"},
                {"num_feature", "2"},
                {"num_target", "1"}}},
              {"objective",
               {{"name", "reg:squarederror"}, {"reg_loss_param", {{"scale_pos_weight", "1"}}}}}}},
            {"version", {1, 7, 4}}};
}

json& tree0(json& m) {
    return m["learner"]["gradient_booster"]["model"]["trees"][0];
}

// The message the check throws ("" for none), as the predictor's reader places it: in
// p.json under /xgboost.
std::string error_of(const json& m, std::size_t features = 2) {
    try {
        check_xgboost_model(cleave::JsonReader("p.json"), m, "/xgboost", features);
    } catch (const cleave::InputError& e) {
        return e.what();
    }
    return {};
}

} // namespace

class XgboostModelCheckTest : public QObject {
    Q_OBJECT

private slots:
    void aModelAsTheRegressorWritesItPasses() { QCOMPARE(error_of(model()), std::string()); }

    void anArrayShorterThanTheNodes() {
        json m = model();
        tree0(m)["split_type"].erase(2);
        QCOMPARE(error_of(m), std::string("p.json: ") + kTree0 +
                                  "/split_type: expected 3 entries, one per node "
                                  "(tree_param/num_nodes), found 2");
        m = model();
        tree0(m)["sum_hessian"].push_back(1);
        QCOMPARE(error_of(m), std::string("p.json: ") + kTree0 +
                                  "/sum_hessian: expected 3 numbers, one per node "
                                  "(tree_param/num_nodes), found 4");
    }

    void aChildOutsideTheTree() {
        json m = model();
        tree0(m)["left_children"][0] = 3;
        QCOMPARE(error_of(m), std::string("p.json: ") + kTree0 +
                                  "/left_children/0: expected a whole number from -1 to 2, "
                                  "found 3");
    }

    void aCycleIsRefused() {
        json m = model();
        auto& tree = m["learner"]["gradient_booster"]["model"]["trees"][1];
        tree["left_children"][1] = 0; // node 1's left child is the root: predict never ends
        QCOMPARE(error_of(m), std::string("p.json: /xgboost/learner/gradient_booster/model/"
                                          "trees/1/left_children/1: node 0 is reached a second "
                                          "time (a cycle, or a node with two parents); expected "
                                          "a tree"));
    }

    void aNodeWithTwoParentsIsRefused() {
        json m = model();
        auto& tree = m["learner"]["gradient_booster"]["model"]["trees"][1];
        tree["right_children"][1] = 2;
        QCOMPARE(error_of(m), std::string("p.json: /xgboost/learner/gradient_booster/model/"
                                          "trees/1/right_children/1: node 2 is reached a second "
                                          "time (a cycle, or a node with two parents); expected "
                                          "a tree"));
    }

    void aNodeNoOneReaches() {
        json m = model();
        auto& tree = m["learner"]["gradient_booster"]["model"]["trees"][1];
        tree["left_children"][1] = -1;
        tree["right_children"][1] = -1;
        QCOMPARE(error_of(m), std::string("p.json: /xgboost/learner/gradient_booster/model/"
                                          "trees/1/parents/3: node 3 is not reached from the "
                                          "root; expected every node in the tree"));
    }

    void aLeafNeedsBothChildrenMissing() {
        json m = model();
        tree0(m)["right_children"][0] = -1;
        QCOMPARE(error_of(m), std::string("p.json: ") + kTree0 +
                                  "/right_children/0: node 0 has a left child but no right one; "
                                  "expected both children or none (-1, a leaf)");
    }

    void aParentThatIsNotTheParent() {
        json m = model();
        tree0(m)["parents"][2] = 1;
        QCOMPARE(error_of(m), std::string("p.json: ") + kTree0 +
                                  "/parents/2: expected 0, the node whose child it is");
    }

    void aFeatureIndexPastTheFeatures() {
        json m = model();
        tree0(m)["split_indices"][0] = 2;
        QCOMPARE(error_of(m), std::string("p.json: ") + kTree0 +
                                  "/split_indices/0: expected a whole number from 0 to 1, found 2");
        QCOMPARE(error_of(model(), 3),
                 std::string("p.json: /xgboost/learner/learner_model_param/num_feature: "
                             "expected \"3\" (the predictor's feature count), found \"2\""));
    }

    void treeCountsMustAgree() {
        json m = model();
        m["learner"]["gradient_booster"]["model"]["gbtree_model_param"]["num_trees"] = "3";
        QCOMPARE(error_of(m), std::string("p.json: /xgboost/learner/gradient_booster/model/"
                                          "gbtree_model_param/num_trees: expected a whole number "
                                          "from 0 to 2 as a string, found \"3\""));
        m = model();
        m["learner"]["gradient_booster"]["model"]["tree_info"].push_back(0);
        QCOMPARE(error_of(m), std::string("p.json: /xgboost/learner/gradient_booster/model/"
                                          "tree_info: expected 2 entries, one per tree, found 3"));
        m = model();
        tree0(m)["id"] = 1;
        QCOMPARE(error_of(m), std::string("p.json: ") + kTree0 +
                                  "/id: expected 0, the tree's place in the list");
    }

    void nodeCountMustBeAWholeNumber() {
        json m = model();
        tree0(m)["tree_param"]["num_nodes"] = "9999999999999999999999";
        QCOMPARE(error_of(m), std::string("p.json: ") + kTree0 +
                                  "/tree_param/num_nodes: expected a whole number from 1 to "
                                  "2147483647 as a string, found \"9999999999999999999999\"");
    }

    void categoricalSplitsAreRefused() {
        json m = model();
        tree0(m)["split_type"][0] = 1;
        QCOMPARE(error_of(m), std::string("p.json: ") + kTree0 +
                                  "/split_type/0: expected a whole number from 0 to 0, found 1");
        m = model();
        tree0(m)["categories_nodes"] = {0};
        QCOMPARE(error_of(m), std::string("p.json: ") + kTree0 +
                                  "/categories_nodes: expected an empty list: cleave's features "
                                  "have no categorical splits");
    }
};

QTEST_GUILESS_MAIN(XgboostModelCheckTest)
#include "xgboost_model_check_test.moc"
