// How kernels are decided: a shipped rule set or a learned classifier found by its spec, kernels
// detected by whichever it holds (each part of a split model fused on its own), and the ops a
// method knows nothing of.
#include "../graph/onnx_builder.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"

#include <QTemporaryDir>
#include <QtTest>

using namespace cleave;
using namespace cleave::fusion;
using cleave::test::OnnxBuilder;

namespace {

// x -> Conv -> Relu -> Softsign -> Mul(Constant k) -> y.
graph::Model model() {
    OnnxBuilder b;
    b.input("x", {1, 4, 8, 8});
    b.initializer("w", {4, 4, 1, 1});
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.node("Relu", {"c"}, {"r"}, "relu");
    b.node("Softsign", {"r"}, {"s"}, "softsign");
    auto& constant = b.node("Constant", {}, {"k"}, "k");
    auto* value = constant.add_attribute();
    value->set_name("value");
    value->set_type(onnx::AttributeProto::TENSOR);
    value->mutable_t()->set_data_type(onnx::TensorProto::FLOAT);
    value->mutable_t()->add_float_data(2.0f);
    b.node("Mul", {"s", "k"}, {"y"}, "scale");
    b.output("y");
    return graph::load_model_from_bytes(b.bytes(), "method.onnx");
}

// A classifier that scores every edge at `logit`, whatever its features.
LearnedFusion constant_classifier(double logit) {
    auto learned = initial_learned_fusion({"Conv", "Relu"}, 0, 4, 1);
    learned.w_out.setZero();
    learned.b_out.setConstant(logit);
    learned.trained_on = {"resnet18", "vgg11", "mobilenet_v2"};
    return learned;
}

FusionMethod rules_method(std::vector<FusionRule> rules) {
    RuleSet set;
    set.name = "test";
    set.rules = std::move(rules);
    return {"test", "", std::move(set)};
}

FusionRule rule(std::set<std::string> from, std::set<std::string> to) {
    FusionRule r;
    r.from = std::move(from);
    r.to = std::move(to);
    return r;
}

std::string error_of(const std::string& spec) {
    try {
        find_fusion_method(spec);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

class FusionMethodTest : public QObject {
    Q_OBJECT

private slots:
    void aShippedNameGivesItsRuleSet() {
        const auto method = find_fusion_method("ort-cpu");
        QCOMPARE(method.name, std::string("ort-cpu"));
        QCOMPARE(
            method.description,
            std::string("ONNX Runtime CPU execution provider, graph optimisation level EXTENDED"));
        QVERIFY(std::holds_alternative<RuleSet>(method.how));
        QCOMPARE(std::get<RuleSet>(method.how).name, std::string("ort-cpu"));
    }

    void aLearnedSpecReadsItsFile() {
        QTemporaryDir dir;
        const auto path = dir.filePath("ort.fusion.json").toStdString();
        save_learned_fusion(constant_classifier(1), path);
        const auto method = find_fusion_method("learned:" + path);
        QCOMPARE(method.name, "learned:" + path);
        QCOMPARE(method.description, std::string("classifier trained on 3 measured runs"));
        QVERIFY(std::holds_alternative<LearnedFusion>(method.how));
        QCOMPARE(std::get<LearnedFusion>(method.how).ops,
                 (std::vector<std::string>{"Conv", "Relu"}));
    }

    void specsThatFindNothingSaySo() {
        QCOMPARE(error_of("learned:"),
                 std::string("--rules: expected learned:FILE naming a model written by cleave "
                             "fuse-train"));
        const auto unknown = error_of("ort-gpu");
        QVERIFY2(unknown.starts_with("--rules: ort-gpu: no such rule set; expected one of "),
                 unknown.c_str());
        QVERIFY2(unknown.find("ort-cpu") != std::string::npos, unknown.c_str());
        QVERIFY2(unknown.find("tflite-gpu") != std::string::npos, unknown.c_str());
        QTemporaryDir dir;
        const auto missing = dir.filePath("none.json").toStdString();
        QVERIFY2(error_of("learned:" + missing).starts_with(missing + ": "),
                 error_of("learned:" + missing).c_str());
    }

    void kernelsComeFromTheRuleSet() {
        const auto m = model();
        const auto method = find_fusion_method("ort-cpu");
        const auto kernels = detect_kernels(m, method);
        // Conv + Relu is one FusedConv; the Constant folds into the Mul it feeds.
        QCOMPARE(kernels.kernel_of_node[0], kernels.kernel_of_node[1]);
        QCOMPARE(kernels.kernels.front().type, std::string("FusedConv"));
        QCOMPARE(kernels.kernel_of_node[3], kernels.kernel_of_node[4]);
        // Split between the Conv and the Relu, each part is fused alone.
        const std::vector<int> parts{0, 1, 1, 1, 1};
        const auto split = detect_kernels(m, method, parts);
        QCOMPARE(split.kernels.front().nodes, std::vector<int>{0});
        QVERIFY(split.kernel_of_node[1] != split.kernel_of_node[0]);
    }

    void kernelsComeFromTheClassifier() {
        const auto m = model();
        const FusionMethod fuse_all{"learned:all", "", constant_classifier(8)};
        QCOMPARE(detect_kernels(m, fuse_all).kernels.size(), std::size_t{1});
        const FusionMethod fuse_none{"learned:none", "", constant_classifier(-8)};
        QCOMPARE(detect_kernels(m, fuse_none).kernels.size(), std::size_t{5});
        const std::vector<int> parts{0, 0, 1, 1, 1};
        const auto split = detect_kernels(m, fuse_all, parts);
        QCOMPARE(split.kernels.size(), std::size_t{2});
        QCOMPARE(split.kernels[0].nodes, (std::vector<int>{0, 1}));
    }

    void opsNoRuleMatchesAreUnmatched() {
        const auto m = model(); // run-time ops Conv, Relu, Softsign, Mul; the Constant is folded
        QCOMPARE(unmatched_ops(m, rules_method({rule({"Conv"}, {"Relu"})})),
                 (std::vector<std::string>{"Mul", "Softsign"}));
        // A siblings rule matches on `to` alone.
        auto siblings = rule({"Mul"}, {"Softsign"});
        siblings.siblings = true;
        QCOMPARE(unmatched_ops(m, rules_method({rule({"Conv"}, {"Relu"}), siblings})),
                 std::vector<std::string>{"Mul"});
        // A rule taking any consumer matches every op; joining a consumer's kernel does not.
        QVERIFY(unmatched_ops(m, rules_method({rule({"Conv"}, {})})).empty());
        auto join = rule({"Conv"}, {});
        join.join_consumer = true;
        QCOMPARE(unmatched_ops(m, rules_method({join})),
                 (std::vector<std::string>{"Mul", "Relu", "Softsign"}));
        // A rule with no condition on the producer takes any there.
        QVERIFY(unmatched_ops(m, rules_method({rule({}, {"Relu"})})).empty());
    }

    void opsOutsideTheVocabularyAreUnmatched() {
        const auto m = model();
        const FusionMethod learned{"learned:x", "", constant_classifier(0)};
        QCOMPARE(unmatched_ops(m, learned), (std::vector<std::string>{"Mul", "Softsign"}));
    }
};

QTEST_GUILESS_MAIN(FusionMethodTest)
#include "fusion_method_test.moc"
