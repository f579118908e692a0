// ONNX's own conformance models (Debian's libonnx-testdata): every model loads or is refused
// with a message, and the inferred shapes of graph outputs equal the outputs recorded in
// test_data_set_0. The floors below are the figures measured when this test was written, so a
// regression fails; docs/conformance.md keeps the figures and the causes of the mismatches.
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"

#include <QtTest>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <onnx/onnx_pb.h>
#include <sstream>

namespace fs = std::filesystem;
using cleave::graph::LoadOptions;

namespace {

const fs::path kTestData = "/usr/share/libonnx-testdata/data";

// Measured 2026-11-22 against libonnx-testdata 1.12.0 (Python onnx 1.12: 1,049 and 851 of 1,051).
constexpr int kModels = 1072;
constexpr int kMinMatchedDeclared = 1049;
constexpr int kMinMatchedReinferred = 904;

struct Case {
    fs::path folder;
    bool tensor_outputs = true;                      // every graph output is a tensor
    std::vector<std::vector<std::int64_t>> recorded; // dims of output_i.pb
};

struct Outcome {
    int loaded = 0;
    int refused = 0;
    int with_tensor_outputs = 0;
    int matched = 0;
    QStringList refusals;
    QStringList mismatches;
};

std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<Case> discover() {
    std::vector<Case> cases;
    for (const auto& entry : fs::recursive_directory_iterator(kTestData)) {
        if (entry.path().filename() != "model.onnx")
            continue;
        Case c;
        c.folder = entry.path().parent_path();
        onnx::ModelProto proto;
        proto.ParseFromString(read(entry.path()));
        for (const auto& out : proto.graph().output())
            c.tensor_outputs &= out.type().has_tensor_type();
        for (int i = 0; i < proto.graph().output_size(); ++i) {
            onnx::TensorProto recorded;
            const auto file =
                c.folder / "test_data_set_0" / ("output_" + std::to_string(i) + ".pb");
            if (!c.tensor_outputs || !fs::exists(file) || !recorded.ParseFromString(read(file))) {
                c.tensor_outputs = false;
                break;
            }
            c.recorded.emplace_back(recorded.dims().begin(), recorded.dims().end());
        }
        cases.push_back(std::move(c));
    }
    std::sort(cases.begin(), cases.end(),
              [](const Case& a, const Case& b) { return a.folder < b.folder; });
    return cases;
}

Outcome run(const std::vector<Case>& cases, bool keep_declared_shapes) {
    Outcome outcome;
    LoadOptions options;
    options.keep_declared_shapes = keep_declared_shapes;
    for (const auto& c : cases) {
        const QString name = QString::fromStdString(c.folder.parent_path().filename().string() +
                                                    "/" + c.folder.filename().string());
        const auto start = std::chrono::steady_clock::now();
        try {
            const auto model = cleave::graph::load_model(c.folder / "model.onnx", options);
            ++outcome.loaded;
            if (c.tensor_outputs) {
                ++outcome.with_tensor_outputs;
                bool same = model.outputs.size() == c.recorded.size();
                for (std::size_t i = 0; same && i < c.recorded.size(); ++i)
                    same = model.tensors[model.outputs[i]].shape == c.recorded[i];
                if (same)
                    ++outcome.matched;
                else
                    outcome.mismatches << name;
            }
        } catch (const cleave::InputError& e) {
            ++outcome.refused;
            outcome.refusals << name + ": " + e.what();
        }
        const auto seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (seconds > 1.0)
            qWarning("%s took %.1f s", qPrintable(name), seconds);
    }
    return outcome;
}

void report(const char* mode, const Outcome& o) {
    qInfo("%s: %d loaded, %d refused; %d of %d models with tensor outputs match", mode, o.loaded,
          o.refused, o.matched, o.with_tensor_outputs);
    for (const auto& r : o.refusals)
        qInfo("  refused %s", qPrintable(r));
    for (const auto& m : o.mismatches)
        qInfo("  mismatch %s", qPrintable(m));
}

} // namespace

class OnnxConformanceTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY2(fs::is_directory(kTestData),
                 "libonnx-testdata is not installed: run scripts/setup.sh "
                 "(it is in scripts/debian-packages.txt)");
        cases_ = discover();
    }

    void everyModelLoads() {
        QCOMPARE(static_cast<int>(cases_.size()), kModels);
        const Outcome o = run(cases_, true);
        report("declared shapes kept", o);
        QCOMPARE(o.loaded, kModels);
    }

    void declaredShapesMatchRecordedOutputs() {
        const Outcome o = run(cases_, true);
        QVERIFY2(o.matched >= kMinMatchedDeclared, qPrintable(QString::number(o.matched)));
    }

    void reinferredShapesMatchRecordedOutputs() {
        const Outcome o = run(cases_, false);
        report("declared shapes removed and re-inferred", o);
        QVERIFY2(o.matched >= kMinMatchedReinferred, qPrintable(QString::number(o.matched)));
    }

private:
    std::vector<Case> cases_;
};

QTEST_GUILESS_MAIN(OnnxConformanceTest)
#include "onnx_conformance_test.moc"
