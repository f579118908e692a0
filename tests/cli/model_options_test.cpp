// The options every model-reading command shares, end to end through `cleave`: --dim, --batch,
// --prefill and --decode on a tiny decoder (tests/core/graph/tiny_decoder.hpp: MACs = 640 BS +
// 32 BS(past + S)), --input-shape's two forms, and exit code 2 for every bad value.
#include "cli_run.hpp"
#include "tests/core/graph/tiny_decoder.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

using Run = cleave::test::CliRun;
using cleave::test::run_cleave;
using cleave::test::TinyDecoder;
using cleave::test::TinyDecoderNames;

QJsonObject json_model(const Run& run) {
    return QJsonDocument::fromJson(run.out).object()["model"].toObject();
}

QJsonArray input_shape(const QJsonObject& model, const QString& name) {
    for (const auto& v : model["inputs"].toArray())
        if (v.toObject()["name"].toString() == name)
            return v.toObject()["shape"].toArray();
    return {};
}

QJsonArray output_shape(const QJsonObject& model, const QString& name) {
    for (const auto& v : model["outputs"].toArray())
        if (v.toObject()["name"].toString() == name)
            return v.toObject()["shape"].toArray();
    return {};
}

} // namespace

class ModelOptionsTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString optimum_;
    QString dynamo_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        optimum_ = dir_.filePath("decoder.onnx");
        dynamo_ = dir_.filePath("dynamo.onnx");
        std::ofstream(optimum_.toStdString(), std::ios::binary)
            << TinyDecoder::build().SerializeAsString();
        std::ofstream(dynamo_.toStdString(), std::ios::binary)
            << TinyDecoder::build(TinyDecoderNames::dynamo()).SerializeAsString();
    }

    void decodeBindsEveryDim() {
        const Run run =
            run_cleave({"inspect", optimum_, "--decode", "1024", "--batch", "1", "--json"});
        QCOMPARE(run.exit_code, 0);
        QCOMPARE(run.err, QByteArray()); // no warning: every dim is bound
        const QJsonObject model = json_model(run);
        QCOMPARE(model["macs"].toInteger(), 33440);
        QCOMPARE(input_shape(model, "past_key_values.0.key"), (QJsonArray{1, 2, 1024, 4}));
        QCOMPARE(output_shape(model, "present.1.value"), (QJsonArray{1, 2, 1025, 4}));
        const QJsonObject dims = model["dims"].toObject();
        QCOMPARE(dims["bound"].toObject(), (QJsonObject{{"batch_size", 1},
                                                        {"past_sequence_length", 1024},
                                                        {"past_sequence_length + 1", 1025},
                                                        {"sequence_length", 1}}));
        QCOMPARE(dims["roles"].toObject(),
                 (QJsonObject{{"batch", 1}, {"past", 1024}, {"sequence", 1}, {"total", 1025}}));
        for (const auto& node : QJsonDocument::fromJson(run.out).object()["nodes"].toArray())
            for (const auto& shape : node.toObject()["output_shapes"].toArray())
                QVERIFY2(shape.isArray(), qPrintable(node.toObject()["name"].toString()));
    }

    void prefillHasAnEmptyCache() {
        const Run run = run_cleave({"inspect", optimum_, "--prefill", "512", "--json"});
        QCOMPARE(run.exit_code, 0);
        QCOMPARE(QString(run.err).trimmed(),
                 "cleave: note: " + optimum_ +
                     ": batch dim (batch_size) not bound; using 1 (set it with --batch)");
        const QJsonObject model = json_model(run);
        QCOMPARE(model["macs"].toInteger(), 8716288); // 640 x 512 + 32 x 512 x 512
        QCOMPARE(input_shape(model, "past_key_values.1.key"), (QJsonArray{1, 2, 0, 4}));
        QCOMPARE(output_shape(model, "present.0.key"), (QJsonArray{1, 2, 512, 4}));
        QCOMPARE(output_shape(model, "logits"), (QJsonArray{1, 512, 16}));
    }

    void dynamoNamesAndTheTable() {
        const Run run = run_cleave({"inspect", dynamo_, "--decode", "1024", "--batch", "2"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY2(run.out.contains("dims       batch 2, past 1024, sequence 1, total 1025, s0=2, "
                                  "s1=1, s2=1024, s3=1025\n"),
                 run.out.constData());
        const Run json =
            run_cleave({"inspect", dynamo_, "--decode", "1024", "--batch", "2", "--json"});
        QCOMPARE(json_model(json)["macs"].toInteger(), 66880); // 2 x 33,440
    }

    void dimBindsByName() {
        const Run run = run_cleave(
            {"inspect", dynamo_, "--json", "--dim", "s0=1", "--dim", "s1=3", "--dim", "s2=5"});
        QCOMPARE(run.exit_code, 0);
        QCOMPARE(run.err, QByteArray());
        QCOMPARE(json_model(run)["macs"].toInteger(), 640 * 3 + 32 * 3 * 8);
    }

    void anUnboundDecoderDimExitsTwoNamingIt() {
        const Run run = run_cleave({"inspect", optimum_});
        QCOMPARE(run.exit_code, 2);
        QCOMPARE(QString(run.err).trimmed(),
                 "cleave: " + optimum_ +
                     ": input 'input_ids' dim 1 (sequence_length): the decoder's new-token count "
                     "is not bound; give --prefill N or --decode L, or --dim sequence_length=N");
    }

    void badValuesExitTwo_data() {
        QTest::addColumn<QStringList>("flags");
        QTest::addColumn<QString>("message");
        QTest::newRow("negative decode")
            << QStringList{"--decode=-1"}
            << "cleave: --decode: -1: the cached tokens cannot be negative";
        QTest::newRow("zero prefill")
            << QStringList{"--prefill", "0"}
            << "cleave: --prefill: 0: a prefill reads at least one new token";
        QTest::newRow("zero batch") << QStringList{"--decode", "8", "--batch", "0"}
                                    << "cleave: --batch: 0: a batch holds at least one sequence";
        QTest::newRow("negative dim")
            << QStringList{"--dim", "sequence_length=-2"}
            << "cleave: --dim: sequence_length=-2: a dim cannot be negative";
        QTest::newRow("dim not a number")
            << QStringList{"--dim", "sequence_length=many"} << "'many' is not a whole number";
        QTest::newRow("dim twice") << QStringList{"--dim", "s=1", "--dim", "s=2"}
                                   << "cleave: --dim: s=2: 's' is bound twice, to 1 and 2";
        QTest::newRow("dim nowhere") << QStringList{"--decode", "4", "--dim", "seq=4"}
                                     << "--dim seq=4: no input dim of the model is named so";
        QTest::newRow("zero new tokens by name")
            << QStringList{"--dim", "sequence_length=0", "--dim", "past_sequence_length=3"}
            << "the new-token count: --dim sequence_length=0 gives 0; expected at least 1";
        QTest::newRow("prefill and decode")
            << QStringList{"--prefill", "4", "--decode", "4"} << "--prefill excludes --decode";
        QTest::newRow("decode not a number") << QStringList{"--decode", "lots"} << "--decode";
    }
    void badValuesExitTwo() {
        QFETCH(QStringList, flags);
        QFETCH(QString, message);
        const Run run = run_cleave(QStringList{"inspect", optimum_} + flags);
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(QString(run.err).contains(message), run.err.constData());
    }

    void inputShapeTakesCommas() {
        const Run run =
            run_cleave({"inspect", QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx", "--json",
                        "--input-shape", "input=1,3,160,160"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(root["nodes"].toArray()[0].toObject()["output_shapes"].toArray()[0].toArray(),
                 (QJsonArray{1, 64, 80, 80}));
        QCOMPARE(json_model(run)["dims"].toObject(),
                 (QJsonObject{{"bound", QJsonObject{}}, {"roles", QJsonObject{}}}));
    }

    void everyModelCommandTakesTheBindings_data() {
        QTest::addColumn<QString>("command");
        for (const char* command : {"inspect", "fuse", "predict", "profile", "evaluate-mapping",
                                    "split", "export-autodice"})
            QTest::newRow(command) << command;
    }
    void everyModelCommandTakesTheBindings() {
        QFETCH(QString, command);
        const Run run = run_cleave({command, "--help"});
        QCOMPARE(run.exit_code, 0);
        for (const char* flag : {"--dim", "--batch", "--prefill", "--decode", "--input-shape"})
            QVERIFY2(run.out.contains(flag), qPrintable(command + " lacks " + flag));
    }

    void fuseCostsTheBoundDecoder() {
        QCOMPARE(run_cleave({"fuse", optimum_, "--json"}).exit_code, 2);
        const Run run = run_cleave({"fuse", optimum_, "--decode", "16", "--batch", "1", "--json"});
        QCOMPARE(run.exit_code, 0);
        QCOMPARE(run.err, QByteArray());
    }
};

QTEST_GUILESS_MAIN(ModelOptionsTest)
#include "model_options_test.moc"
