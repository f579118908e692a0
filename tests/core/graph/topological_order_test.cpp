// Stable topological ordering and the errors it reports.
#include "core/graph/topological_order.hpp"
#include "core/input_error.hpp"

#include <QtTest>

using cleave::graph::NodeLinks;
using cleave::graph::topological_order;

class TopologicalOrderTest : public QObject {
    Q_OBJECT

private slots:
    void validOrderIsKept() {
        const std::vector<NodeLinks> nodes{
            {"a", {"x"}, {"p"}, {}}, {"b", {"x"}, {"q"}, {}}, {"c", {"p", "q"}, {"r"}, {}}};
        QCOMPARE(topological_order(nodes, {"x"}, "f"), (std::vector<int>{0, 1, 2}));
    }

    void reversedOrderIsRepairedStably() {
        const std::vector<NodeLinks> nodes{
            {"c", {"p", "q"}, {"r"}, {}}, {"b", {"x"}, {"q"}, {}}, {"a", {"x"}, {"p"}, {}}};
        QCOMPARE(topological_order(nodes, {"x"}, "f"), (std::vector<int>{1, 2, 0}));
    }

    void capturedValuesOrderTheNode() {
        const std::vector<NodeLinks> nodes{{"if", {"cond"}, {"y"}, {"p"}}, {"a", {"x"}, {"p"}, {}}};
        QCOMPARE(topological_order(nodes, {"x", "cond"}, "f"), (std::vector<int>{1, 0}));
    }

    void optionalEmptyInputsAreSkipped() {
        const std::vector<NodeLinks> nodes{{"clip", {"x", "", "max"}, {"y"}, {}}};
        QCOMPARE(topological_order(nodes, {"x", "max"}, "f"), (std::vector<int>{0}));
    }

    void tensorProducedTwiceIsRefused() {
        const std::vector<NodeLinks> nodes{{"a", {"x"}, {"p"}, {}}, {"b", {"x"}, {"p"}, {}}};
        try {
            topological_order(nodes, {"x"}, "f.onnx");
            QFAIL("no error");
        } catch (const cleave::InputError& e) {
            QCOMPARE(QString(e.what()),
                     QString("f.onnx: node 'b': output 'p' is already produced by node 'a'; "
                             "expected every tensor to have one producer"));
        }
    }

    void selfLoopIsACycle() {
        const std::vector<NodeLinks> nodes{{"a", {"x", "p"}, {"p"}, {}}};
        QVERIFY_THROWS_EXCEPTION(cleave::InputError, topological_order(nodes, {"x"}, "f"));
    }

    void cycleIsNamed() {
        const std::vector<NodeLinks> nodes{{"entry", {"x"}, {"e"}, {}},
                                           {"a", {"e", "c"}, {"p"}, {}},
                                           {"b", {"p"}, {"q"}, {}},
                                           {"c", {"q"}, {"c"}, {}}};
        try {
            topological_order(nodes, {"x"}, "f");
            QFAIL("no error");
        } catch (const cleave::InputError& e) {
            QVERIFY2(QString(e.what()).contains("a -> b -> c -> a"), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TopologicalOrderTest)
#include "topological_order_test.moc"
