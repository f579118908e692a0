// Fusion rule files: the shipped sets parse, and every mistake in a user's file is named with
// the file, the JSON pointer and what was expected.
#include "core/fusion/rule_set.hpp"
#include "core/input_error.hpp"

#include <QtTest>

using cleave::fusion::find_rule_set;
using cleave::fusion::parse_rule_set;

namespace {
QString error_of(const std::string& text) {
    try {
        parse_rule_set(text, "my-rules.json");
    } catch (const cleave::InputError& e) {
        return e.what();
    }
    return {};
}
const std::string kHead = R"({"format": "cleave-fusion-rules", "version": 1, "name": "mine", )";
} // namespace

class RuleSetTest : public QObject {
    Q_OBJECT

private slots:
    void shippedSetsParse() {
        QCOMPARE(
            cleave::fusion::builtin_rule_set_names(),
            (std::vector<std::string>{"ort-cpu", "tflite-gpu", "tensorrt-like", "pytorch-eager"}));
        for (const auto& name : cleave::fusion::builtin_rule_set_names()) {
            const auto set = find_rule_set(name);
            QCOMPARE(set.name, name);
            QVERIFY(!set.rules.empty());
        }
        QCOMPARE(find_rule_set("ort-cpu").launches.at("HardSwish"), 2);
    }

    void unknownNameListsTheShippedSets() {
        try {
            find_rule_set("ort-gpu");
            QFAIL("accepted");
        } catch (const cleave::InputError& e) {
            QCOMPARE(QString(e.what()),
                     QString("--rules: ort-gpu: no such rule set; expected one of ort-cpu, "
                             "tflite-gpu, tensorrt-like, pytorch-eager or a .json file"));
        }
    }

    void malformedJsonNamesTheByte() {
        QVERIFY(error_of("{\"format\": ").startsWith("my-rules.json: byte "));
    }

    void wrongFormatIsRefused() {
        QCOMPARE(error_of(R"({"format": "onnx", "version": 1})"),
                 QString("my-rules.json: /format: expected \"cleave-fusion-rules\""));
    }

    void wrongTypeNamesThePointer() {
        QCOMPARE(error_of(kHead + R"("rules": [{"name": "r", "to": "Relu"}]})"),
                 QString("my-rules.json: /rules/0/to: expected a list of op types, found string"));
    }

    void unknownFieldIsRefused() {
        QVERIFY(
            error_of(kHead + R"("rules": [{"name": "r", "form": ["Conv"]}]})")
                .startsWith(
                    "my-rules.json: /rules/0/form: unknown field; expected one of name, from,"));
    }

    void missingRuleNameIsRefused() {
        QCOMPARE(error_of(kHead + R"("rules": [{"to": ["Relu"]}]})"),
                 QString("my-rules.json: /rules/0: missing \"name\"; expected the rule's name"));
    }

    void newerVersionIsRefused() {
        QCOMPARE(
            error_of(
                R"({"format": "cleave-fusion-rules", "version": 2, "name": "x", "rules": []})"),
            QString("my-rules.json: /version: version 2 is not known; expected 1"));
    }

    void newRuleFieldsParse() {
        const auto set = parse_rule_set(
            kHead + R"("rules": [{"name": "r", "to_runtime_input": 0, "other_inputs_ready": true,
                                  "latest_input_first": ["Add"]}]})",
            "my-rules.json");
        QCOMPARE(set.rules[0].to_runtime_input, 0);
        QVERIFY(set.rules[0].other_inputs_ready);
        QCOMPARE(set.rules[0].latest_input_first, std::set<std::string>{"Add"});
    }

    void shippedTfliteSetTypesConvKernels() {
        const auto set = find_rule_set("tflite-gpu");
        QVERIFY(set.conv_kernel_types.has_value());
        QCOMPARE(set.gpu_family, std::string("adreno6xx"));
        QCOMPARE(set.conv_kernel_types->winograd_thresholds.size(), std::size_t(9));
        QCOMPARE(set.launches.at("Winograd"), 3);
        QVERIFY(!find_rule_set("ort-cpu").conv_kernel_types.has_value());
    }

    void convKernelTypeMistakesNameThePointer() {
        const std::string section =
            R"("rules": [], "conv_kernel_types": {"ops": ["Conv"], "depthwise": "D", "grouped": "G",
               "winograd": "W", "direct": "C", "unsupported": "U", "default_gpu_family": "mali", )";
        QCOMPARE(error_of(kHead + section +
                          R"("winograd_thresholds": {"mali": {"min_src_slices": 16,
                              "min_dst_slices": 16, "min_tiles": "32"}}}})"),
                 QString("my-rules.json: /conv_kernel_types/winograd_thresholds/mali/min_tiles: "
                         "expected a whole number >= 1, found string"));
        QCOMPARE(error_of(kHead + section +
                          R"("winograd_thresholds": {"mali": {"min_src_slices": 0,
                              "min_dst_slices": 16, "min_tiles": 32}}}})"),
                 QString("my-rules.json: /conv_kernel_types/winograd_thresholds/mali/"
                         "min_src_slices: expected a whole number >= 1, found 0"));
        QCOMPARE(error_of(kHead + section +
                          R"("winograd_thresholds": {"amd": {"min_src_slices": 16,
                              "min_dst_slices": 8, "min_tiles": 32}}}})"),
                 QString("my-rules.json: /conv_kernel_types/default_gpu_family: no family "
                         "\"mali\" in winograd_thresholds; expected one of amd"));
        QVERIFY(error_of(kHead + section + R"("winograd_thresholds": {}, "tiles": 4}})")
                    .startsWith("my-rules.json: /conv_kernel_types/tiles: unknown field; "
                                "expected one of ops, depthwise,"));
    }

    void missingFileIsAnInputError() {
        QVERIFY_THROWS_EXCEPTION(cleave::InputError, find_rule_set("/nonexistent/rules.json"));
    }
};

QTEST_GUILESS_MAIN(RuleSetTest)
#include "rule_set_test.moc"
