// The nodes of an ONNX file exactly as written: no sorting, renaming or checks, the default
// domain read as "", and a file that is no ONNX model refused naming it.
#include "core/graph/written_nodes.hpp"
#include "core/input_error.hpp"
#include "onnx_builder.hpp"

#include <QTemporaryDir>
#include <QtTest>

using namespace cleave::graph;
using cleave::InputError;
using cleave::test::OnnxBuilder;

class WrittenNodesTest : public QObject {
    Q_OBJECT

private slots:
    void nodesAsWrittenInFileOrder() {
        // Out of topological order, a repeated and an empty name, ONNX Runtime's contrib domain,
        // "ai.onnx" spelt out and an omitted optional input: all kept as they are.
        OnnxBuilder b;
        b.input("x", {1, 8});
        b.node("Relu", {"h"}, {"y"}, "same");
        b.node("FusedMatMul", {"x", "", "x"}, {"h"}, "same").set_domain("com.microsoft");
        b.node("Identity", {"y"}, {"z", "extra"}, "").set_domain("ai.onnx");
        b.graph().mutable_node(2)->set_name("");
        b.output("z");
        QTemporaryDir dir;
        const auto path = dir.filePath("optimised.onnx").toStdString();
        b.save(path);

        const auto nodes = read_written_nodes(path);
        QCOMPARE(nodes.size(), std::size_t{3});
        QCOMPARE(nodes[0].name, std::string("same"));
        QCOMPARE(nodes[0].op, std::string("Relu"));
        QCOMPARE(nodes[0].domain, std::string());
        QCOMPARE(nodes[0].inputs, std::vector<std::string>{"h"});
        QCOMPARE(nodes[1].name, std::string("same"));
        QCOMPARE(nodes[1].op, std::string("FusedMatMul"));
        QCOMPARE(nodes[1].domain, std::string("com.microsoft"));
        QCOMPARE(nodes[1].inputs, (std::vector<std::string>{"x", "", "x"}));
        QCOMPARE(nodes[1].outputs, std::vector<std::string>{"h"});
        QCOMPARE(nodes[2].name, std::string());
        QCOMPARE(nodes[2].domain, std::string());
        QCOMPARE(nodes[2].outputs, (std::vector<std::string>{"z", "extra"}));
    }

    void aFileThatIsNoModelIsRefused() {
        QTemporaryDir dir;
        const auto path = dir.filePath("text.onnx").toStdString();
        std::ofstream(path, std::ios::binary) << std::string("\x0a\xff\xff", 3);
        try {
            read_written_nodes(path);
            QFAIL("read a file that is no ONNX model");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), path);
            QCOMPARE(e.problem(),
                     std::string("not an ONNX model: the protobuf message does not parse as a "
                                 "ModelProto"));
        }
    }

    void aMissingFileIsRefused() {
        QTemporaryDir dir;
        const auto path = dir.filePath("absent.onnx").toStdString();
        try {
            read_written_nodes(path);
            QFAIL("read a missing file");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), path);
            QCOMPARE(e.problem(), std::string("no such file; expected an ONNX model file"));
        }
    }
};

QTEST_GUILESS_MAIN(WrittenNodesTest)
#include "written_nodes_test.moc"
