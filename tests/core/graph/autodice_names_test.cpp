// AutoDiCE's node names: a node is called by its first output with '/' made '_'; renaming only
// the empty and repeated names (or all), a name already taken gets "_2", "_3"...
#include "core/graph/autodice_names.hpp"

#include <QtTest>
#include <array>

using namespace cleave::graph;

namespace {

Tensor named(std::string name) {
    Tensor t;
    t.name = std::move(name);
    return t;
}

// One node per entry: its name, op and output tensor (none when empty).
Model model_of(const std::vector<std::array<std::string, 3>>& nodes) {
    Model m;
    for (const auto& [name, op, output] : nodes) {
        Node n;
        n.name = name;
        n.op = op;
        if (!output.empty()) {
            n.outputs.push_back(static_cast<int>(m.tensors.size()));
            m.tensors.push_back(named(output));
        }
        m.nodes.push_back(std::move(n));
    }
    return m;
}

std::vector<std::string> names(const Model& m) {
    std::vector<std::string> out;
    for (const auto& n : m.nodes)
        out.push_back(n.name);
    return out;
}

} // namespace

class AutodiceNamesTest : public QObject {
    Q_OBJECT

private slots:
    void aNodeIsCalledByItsFirstOutput() {
        auto m = model_of({{"conv1", "Conv", "/layer1/layer1.0/conv1/Conv_output_0"}});
        QCOMPARE(autodice_name(m, m.nodes[0]), std::string("_layer1_layer1.0_conv1_Conv_output_0"));
        // An omitted first output is passed over.
        m.tensors.push_back(named("/second"));
        m.nodes[0].outputs = {-1, 1};
        QCOMPARE(autodice_name(m, m.nodes[0]), std::string("_second"));
        // With no output at all, the op.
        m.nodes[0].outputs = {-1};
        QCOMPARE(autodice_name(m, m.nodes[0]), std::string("Conv"));
    }

    void onlyEmptyAndRepeatedNamesAreRenamed() {
        auto m = model_of({{"conv", "Conv", "/c"},
                           {"", "Relu", "/block/relu"},
                           {"dup", "Add", "/a"},
                           {"dup", "Mul", "/m"}});
        QCOMPARE(apply_autodice_names(m, false), 3);
        QCOMPARE(names(m), (std::vector<std::string>{"conv", "_block_relu", "_a", "_m"}));
    }

    void aTakenNameGetsASuffix() {
        // The kept name "_x" and two op-named nodes without outputs.
        auto m = model_of({{"_x", "Relu", "/y"},
                           {"", "Sigmoid", "/x"},
                           {"", "Print", ""},
                           {"", "Print", ""},
                           {"", "Print", ""}});
        QCOMPARE(apply_autodice_names(m, false), 4);
        QCOMPARE(names(m), (std::vector<std::string>{"_x", "_x_2", "Print", "Print_2", "Print_3"}));
    }

    void allRenamesEveryNodeAndCountsOnlyChanges() {
        auto m = model_of({{"_c", "Conv", "/c"}, {"relu", "Relu", "/r"}, {"", "Add", "/a"}});
        QCOMPARE(apply_autodice_names(m, true), 2); // "_c" was already its AutoDiCE name
        QCOMPARE(names(m), (std::vector<std::string>{"_c", "_r", "_a"}));
        QCOMPARE(apply_autodice_names(m, true), 0);
    }
};

QTEST_GUILESS_MAIN(AutodiceNamesTest)
#include "autodice_names_test.moc"
