// What the learned fusion classifier sees: op categories, per node its op slot, category and
// sizes, the mean over its producers and consumers, and per edge the structural facts the
// runtime's fusion passes test, each worked out by hand on a four-node graph.
#include "core/fusion/fusion_features.hpp"
#include "core/graph/onnx_import.hpp"
#include "fusion_fixtures.hpp"

#include <QtTest>
#include <cmath>

using namespace cleave;
using namespace cleave::fusion;
using cleave::test::OnnxBuilder;
using cleave::test::small_fusion_model;

namespace {

const std::vector<std::string> kOps{"Conv", "Relu", "Add"};
constexpr int kNumbers = 3 + 1 + kOpCategories; // first numeric column with kOps

} // namespace

class FusionFeaturesTest : public QObject {
    Q_OBJECT

private slots:
    void opsFallInTheirCategories() {
        QCOMPARE(op_category("Conv"), int(kCategoryConvolution));
        QCOMPARE(op_category("Gemm"), int(kCategoryMatrixProduct));
        QCOMPARE(op_category("LayerNormalization"), int(kCategoryNormalisation));
        QCOMPARE(op_category("Clip"), int(kCategoryActivation));
        QCOMPARE(op_category("Erf"), int(kCategoryUnary));
        QCOMPARE(op_category("Where"), int(kCategoryBinary));
        QCOMPARE(op_category("GlobalAveragePool"), int(kCategoryPooling));
        QCOMPARE(op_category("Softmax"), int(kCategoryReduction));
        QCOMPARE(op_category("Transpose"), int(kCategoryLayout));
        QCOMPARE(op_category("Resize"), int(kCategoryGatherScatter));
        QCOMPARE(op_category("Shape"), int(kCategoryShape));
        QCOMPARE(op_category("NonMaxSuppression"), int(kCategoryNone));
        QCOMPARE(op_category(""), kOpCategories - 1);
    }

    void nodeFeaturesCountTheVocabularyItsOtherSlotCategoriesAndNumbers() {
        QCOMPARE(node_feature_count({}), 1 + 12 + 10);
        QCOMPARE(node_feature_count(kOps), 3 + 1 + 12 + 10);
    }

    void unknownOpsFallInTheOtherSlot() {
        const auto model = small_fusion_model();
        const auto features = fusion_features(model, node_edges(model), {"Conv", "Relu"});
        QCOMPARE(features.nodes.cols(), 2 + 1 + kOpCategories + kNodeNumericFeatures);
        QCOMPARE(features.nodes(2, 2), 1.0); // Add
        QCOMPARE(features.nodes(3, 2), 1.0); // HardSwish
        QCOMPARE(features.nodes(0, 0), 1.0); // Conv
    }

    void eachNodeHasOneOpAndOneCategory() {
        const auto model = small_fusion_model();
        const auto f = fusion_features(model, node_edges(model), kOps);
        QCOMPARE(f.nodes.rows(), Eigen::Index{4});
        for (Eigen::Index r = 0; r < 4; ++r) {
            QCOMPARE(f.nodes.row(r).head(4).sum(), 1.0);
            QCOMPARE(f.nodes.row(r).segment(4, kOpCategories).sum(), 1.0);
        }
        QCOMPARE(f.nodes(0, 0), 1.0); // Conv
        QCOMPARE(f.nodes(3, 3), 1.0); // HardSwish: other
        QCOMPARE(f.nodes(0, 4 + kCategoryConvolution), 1.0);
        QCOMPARE(f.nodes(1, 4 + kCategoryActivation), 1.0);
        QCOMPARE(f.nodes(2, 4 + kCategoryBinary), 1.0);
        QCOMPARE(f.nodes(3, 4 + kCategoryActivation), 1.0); // outside the vocabulary, not its kin
    }

    void nodeNumbersOfTheConvolution() {
        const auto model = small_fusion_model();
        const auto f = fusion_features(model, node_edges(model), kOps);
        const auto at = [&](int k) { return f.nodes(0, kNumbers + k); };
        QCOMPARE(at(0), std::log1p(256.0) / 16);  // output elements, 4 x 8 x 8
        QCOMPARE(at(1), std::log1p(9216.0) / 24); // MACs, 256 x 4 x 3 x 3
        QCOMPARE(at(2), std::log1p(144.0) / 20);  // weights
        QCOMPARE(at(3), 0.0);                     // no producer node
        QCOMPARE(at(4), 0.5);                     // two consumers, of at most 4
        QCOMPARE(at(5), 1.0 / 3);                 // one output
        QCOMPARE(at(6), 1.0 / 3);                 // one initializer input
        QCOMPARE(at(7), 4.0 / 6);                 // rank 4
        QCOMPARE(at(8), 0.0);                     // not a load-time constant
        QCOMPARE(at(9), 0.0);                     // not a graph output
        // The HardSwish: one producer, no consumer, the graph output; no MACs, no weights.
        QCOMPARE(f.nodes(3, kNumbers + 1), 0.0);
        QCOMPARE(f.nodes(3, kNumbers + 2), 0.0);
        QCOMPARE(f.nodes(3, kNumbers + 3), 0.25);
        QCOMPARE(f.nodes(3, kNumbers + 4), 0.0);
        QCOMPARE(f.nodes(3, kNumbers + 9), 1.0);
    }

    void neighboursAreMeansOverProducersAndConsumers() {
        const auto model = small_fusion_model();
        const auto f = fusion_features(model, node_edges(model), kOps);
        const Eigen::MatrixXd pred = f.predecessors;
        const Eigen::MatrixXd succ = f.successors;
        Eigen::MatrixXd expected_pred = Eigen::MatrixXd::Zero(4, 4);
        expected_pred(1, 0) = 1;   // relu <- conv
        expected_pred(2, 1) = 0.5; // add <- relu, conv
        expected_pred(2, 0) = 0.5;
        expected_pred(3, 2) = 1; // hs <- add
        QVERIFY(pred == expected_pred);
        Eigen::MatrixXd expected_succ = Eigen::MatrixXd::Zero(4, 4);
        expected_succ(0, 1) = 0.5; // conv -> relu, add
        expected_succ(0, 2) = 0.5;
        expected_succ(1, 2) = 1;
        expected_succ(2, 3) = 1;
        QVERIFY(succ == expected_succ);
    }

    void edgeFeaturesSayHowItsEndsSit() {
        const auto model = small_fusion_model();
        const auto edges = node_edges(model);
        const auto f = fusion_features(model, edges, kOps);
        QCOMPARE(f.edges.rows(), Eigen::Index{4});
        QCOMPARE(f.edges.cols(), Eigen::Index{kEdgeFeatures});
        QCOMPARE(f.edge_list.size(), edges.size());
        const auto row = [&](int e) {
            std::vector<double> out(kEdgeFeatures);
            for (int k = 0; k < kEdgeFeatures; ++k)
                out[static_cast<std::size_t>(k)] = f.edges(e, k);
            return out;
        };
        const double c = std::log1p(256.0) / 16; // every tensor here has 256 elements
        // conv -> relu: input 0; c has two readers; the relu is conv's first consumer.
        QCOMPARE(row(0), (std::vector<double>{1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, c, 0.5}));
        // relu -> add: input 0, its only reader; the Add's other input is the relu's own input
        // (x + f(x)).
        QCOMPARE(row(1), (std::vector<double>{1, 0, 0, 1, 0, 1, 1, 0, 0, 1, 1, c, 0.25}));
        // conv -> add: input 1; the add is not conv's first consumer.
        QCOMPARE(row(2), (std::vector<double>{0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, c, 0.5}));
        // add -> hs.
        QCOMPARE(row(3), (std::vector<double>{1, 0, 0, 1, 0, 1, 0, 0, 0, 1, 1, c, 0.25}));
    }

    void loadTimeConstantsAreMarked() {
        // A Constant's Reshape of a weight is computed once at load time.
        OnnxBuilder b;
        b.input("x", {1, 8});
        b.initializer("w", {2, 4});
        b.int64_initializer("shape", {8});
        b.node("Reshape", {"w", "shape"}, {"flat"}, "flatten_w");
        b.node("Add", {"x", "flat"}, {"y"}, "add");
        b.output("y");
        const auto model = graph::load_model_from_bytes(b.bytes(), "constant.onnx");
        const auto edges = node_edges(model);
        const auto f = fusion_features(model, edges, kOps);
        QCOMPARE(f.nodes(0, kNumbers + 8), 1.0);
        QCOMPARE(f.nodes(1, kNumbers + 8), 0.0);
        QCOMPARE(edges.size(), std::size_t{1});
        QCOMPARE(f.edges(0, 1), 1.0); // the Add's second input
        QCOMPARE(f.edges(0, 7), 1.0); // from a constant
        QCOMPARE(f.edges(0, 8), 0.0); // to a run-time node
    }
};

QTEST_GUILESS_MAIN(FusionFeaturesTest)
#include "fusion_features_test.moc"
