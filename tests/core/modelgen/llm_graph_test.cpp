// The language-model graph writer: half-precision rounding, exporter-style names, small
// constants inside the model, and the weights as a sparse external data file of the right size.
#include "core/modelgen/llm_graph.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <sys/stat.h>

using namespace cleave;
using modelgen::LlmGraph;

class LlmGraphTest : public QObject {
    Q_OBJECT

private slots:
    void halfPrecisionRoundsToNearest() {
        QCOMPARE(modelgen::to_half(0.0f), std::uint16_t{0x0000});
        QCOMPARE(modelgen::to_half(-0.0f), std::uint16_t{0x8000});
        QCOMPARE(modelgen::to_half(1.0f), std::uint16_t{0x3c00});
        QCOMPARE(modelgen::to_half(2.0f), std::uint16_t{0x4000});
        QCOMPARE(modelgen::to_half(-65504.0f), std::uint16_t{0xfbff}); // the lowest half
        QCOMPARE(modelgen::to_half(65520.0f), std::uint16_t{0x7c00});  // rounds to infinity
        QCOMPARE(modelgen::to_half(0.125f), std::uint16_t{0x3000});
        QCOMPARE(modelgen::to_half(1e-5f), std::uint16_t{0x00a8}); // subnormal: 168 x 2^-24
        QCOMPARE(modelgen::to_half(1.0f + 1.0f / 2048), std::uint16_t{0x3c00}); // tie to even
        QCOMPARE(modelgen::to_half(1.0f + 3.0f / 2048), std::uint16_t{0x3c02});
    }

    void nodesAreNamedAsExportersNameThem() {
        LlmGraph g("m", onnx::TensorProto::FLOAT);
        g.input("x", onnx::TensorProto::FLOAT, {"batch_size", "4"});
        const auto a = g.add("Mul", "/model/layers.0/mlp", {"x", "x"});
        const auto b = g.add("Mul", "/model/layers.0/mlp", {a, "x"});
        QCOMPARE(a, std::string("/model/layers.0/mlp/Mul_output_0"));
        QCOMPARE(b, std::string("/model/layers.0/mlp/Mul_1_output_0"));
        const auto& in = g.model().graph().input(0).type().tensor_type().shape();
        QCOMPARE(in.dim(0).dim_param(), std::string("batch_size"));
        QCOMPARE(in.dim(1).dim_value(), 4);
        LlmGraph genai("m", onnx::TensorProto::FLOAT16, true);
        QCOMPARE(
            genai.named("MatMulNBits", "/lm_head/MatMulNBits", {"x"}, 1, "com.microsoft").output(0),
            std::string("/lm_head/MatMulNBits/output_0"));
        QCOMPARE(genai.model().opset_import_size(), 2);
        QCOMPARE(genai.model().opset_import(1).domain(), std::string("com.microsoft"));
    }

    // Weights start on 4096-byte boundaries of NAME.data, whose size covers them all but whose
    // blocks on disk are none: every weight reads as zero.
    void weightsAreSparseExternalData() {
        LlmGraph g("m", onnx::TensorProto::FLOAT16);
        const auto w1 = g.weight("w1", {1000, 1000});                     // 2,000,000 bytes
        const auto w2 = g.weight("w2", {3, 5}, onnx::TensorProto::UINT8); // 15 bytes
        const auto half = g.scalar("two", 2.0f);
        const auto shape = g.ints("shape", {0, 0, -1});
        QCOMPARE(g.data_bytes(), std::uint64_t{2002944 + 15}); // 2,000,000 up to 489 pages
        QTemporaryDir dir;
        g.save(dir.path().toStdString(), "m.onnx");
        const auto data = dir.path().toStdString() + "/m.onnx.data";
        struct stat st {};
        QCOMPARE(::stat(data.c_str(), &st), 0);
        QCOMPARE(static_cast<std::uint64_t>(st.st_size), g.data_bytes());
        QVERIFY(static_cast<std::uint64_t>(st.st_blocks) * 512 < 64 * 1024);
        onnx::ModelProto m;
        std::ifstream in(dir.path().toStdString() + "/m.onnx", std::ios::binary);
        QVERIFY(m.ParseFromIstream(&in));
        const auto& inits = m.graph().initializer();
        QCOMPARE(inits.size(), 4);
        QCOMPARE(inits[0].name(), w1);
        QCOMPARE(inits[0].data_location(), onnx::TensorProto::EXTERNAL);
        QCOMPARE(inits[0].external_data(0).value(), std::string("m.onnx.data"));
        QCOMPARE(inits[0].external_data(1).value(), std::string("0"));
        QCOMPARE(inits[0].external_data(2).value(), std::string("2000000"));
        QCOMPARE(inits[1].name(), w2);
        QCOMPARE(inits[1].external_data(1).value(), std::string("2002944"));
        QCOMPARE(inits[1].external_data(2).value(), std::string("15"));
        QCOMPARE(inits[2].name(), half);
        QCOMPARE(inits[2].data_type(), onnx::TensorProto::FLOAT16);
        QCOMPARE(inits[2].int32_data(0), 0x4000);
        QCOMPARE(inits[3].name(), shape);
        QCOMPARE(inits[3].int64_data_size(), 3);
        QCOMPARE(inits[3].dims(0), 3);
    }
};

QTEST_GUILESS_MAIN(LlmGraphTest)
#include "llm_graph_test.moc"
