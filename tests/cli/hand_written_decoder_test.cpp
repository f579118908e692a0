// Llama-style decoders written by hand with python3-onnx (write_llama_decoders.py), independently
// of Cleave's generator: Optimum's fp32 form and ONNX Runtime GenAI's int4 form (MatMulNBits,
// GroupQueryAttention). `cleave inspect` binds them at a decode step and at a prefill with no
// warning, shapes every tensor and counts the MACs the analytic formula gives, with S new tokens
// and T = past + S: per new token and layer D (2D + 2 KV HD) + 3 D F for the projections, per
// layer 2 H S T HD for attention, per new token D V for the head. ONNX Runtime 1.30 runs both at
// both phases (`cleave profile --backend ort`, fed real decoder inputs: a GenAI decoder refuses a
// mask of zeros), and the ort-cpu rules reach at least 99% of the edges it fused, on models no
// rule was written from.
#include "cli_run.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

namespace {

using cleave::test::run_cleave;

struct Shape {
    qint64 d, h, kv, hd, f, v, layers;
};

qint64 analytic_macs(const Shape& s, qint64 fresh, qint64 past) {
    const qint64 total = past + fresh;
    const qint64 projections = s.d * (2 * s.d + 2 * s.kv * s.hd) + 3 * s.d * s.f;
    return s.layers * (fresh * projections + 2 * s.h * fresh * total * s.hd) + fresh * s.d * s.v;
}

} // namespace

class HandWrittenDecoderTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    Shape shape_{};

    void check(const QString& model, const QStringList& phase, qint64 fresh, qint64 past) {
        QStringList arguments{"inspect", dir_.filePath(model), "--json"};
        arguments << phase;
        const auto run = run_cleave(arguments);
        QCOMPARE(run.exit_code, 0);
        // The unbound batch defaults to 1 with a note; nothing else is said.
        QVERIFY2(!run.err.contains("warning"), run.err.constData());
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        int outputs = 0;
        for (const auto& node : root["nodes"].toArray()) {
            const QJsonObject n = node.toObject();
            const QJsonArray names = n["outputs"].toArray();
            const QJsonArray shapes = n["output_shapes"].toArray();
            for (qsizetype i = 0; i < names.size(); ++i) {
                if (names[i].toString().isEmpty())
                    continue; // an optional output left out
                ++outputs;
                QVERIFY2(shapes[i].isArray(),
                         qPrintable(model + ": " + names[i].toString() + " has no shape"));
            }
        }
        QVERIFY(outputs > 20);
        const qint64 expected = analytic_macs(shape_, fresh, past);
        const qint64 macs = root["model"].toObject()["macs"].toInteger();
        QVERIFY2(std::abs(macs - expected) <= expected / 100,
                 qPrintable(QString("%1 %2: %3 MACs, analytic %4")
                                .arg(model, phase.join(' '))
                                .arg(macs)
                                .arg(expected)));
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QProcess python;
        python.start(CLEAVE_DEBIAN_PYTHON3, {CLEAVE_WRITE_DECODERS, dir_.path()});
        QVERIFY(python.waitForFinished(120000));
        QVERIFY2(python.exitCode() == 0, python.readAllStandardError().constData());
        const QJsonObject s = QJsonDocument::fromJson(python.readAllStandardOutput()).object();
        shape_ = {s["D"].toInteger(),     s["H"].toInteger(), s["KV"].toInteger(),
                  s["HD"].toInteger(),    s["F"].toInteger(), s["V"].toInteger(),
                  s["layers"].toInteger()};
        QCOMPARE(shape_.h * shape_.hd, shape_.d);
    }

    void fp32AtADecodeStep() { check("llama_fp32.onnx", {"--decode", "1024"}, 1, 1024); }
    void fp32AtAPrefill() { check("llama_fp32.onnx", {"--prefill", "512"}, 512, 0); }
    void int4AtADecodeStep() { check("llama_int4.onnx", {"--decode", "1024"}, 1, 1024); }
    void int4AtAPrefill() { check("llama_int4.onnx", {"--prefill", "512"}, 512, 0); }

    void fusionMatchesOnnxRuntimeAtBothPhases() {
        if (!CLEAVE_HAVE_ORT_PROFILER)
            QSKIP("built without Node.js and onnxruntime-node: no ort plugin");
        const QString data = dir_.filePath("ort.json");
        for (const QString model : {"llama_fp32", "llama_int4"})
            for (const QStringList& phase : {QStringList{"--decode", "64"}, {"--prefill", "16"}}) {
                QStringList arguments{"profile",      dir_.filePath(model + ".onnx"),
                                      "--backend",    "ort",
                                      "--out",        data,
                                      "--warmup",     "0",
                                      "--repeats",    "2",
                                      "--max-rounds", "1"};
                const auto run = run_cleave(arguments << phase);
                QVERIFY2(run.exit_code == 0, run.err.constData());
            }
        const auto run = run_cleave(
            {"fuse-eval", "--data", data, "--models", dir_.path(), "--rules", "ort-cpu", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonArray models = QJsonDocument::fromJson(run.out).object()["models"].toArray();
        QCOMPARE(models.size(), 4); // two forms at two phases
        for (const auto& m : models) {
            const QJsonObject o = m.toObject();
            const QJsonObject score = o["score"].toObject();
            QVERIFY(score["edges"].toInteger() > 40);
            QVERIFY2(score["accuracy"].toDouble() >= 0.99,
                     qPrintable(o["model"].toString() + " " + o["dims"].toString() + ": " +
                                QString::number(score["accuracy"].toDouble())));
        }
    }
};

QTEST_GUILESS_MAIN(HandWrittenDecoderTest)
#include "hand_written_decoder_test.moc"
