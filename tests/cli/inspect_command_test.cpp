// `cleave inspect` end to end: the JSON document's exact form, exit codes and messages.
#include "../core/gzip_stream.hpp"
#include "cli_run.hpp"
#include "tests/core/graph/genai_decoder.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

namespace {

using Run = cleave::test::CliRun;
using cleave::test::run_cleave;

QString example(const char* name) {
    return QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/" + name + ".onnx";
}

QByteArray contents(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The example model compressed: "xz" as the repository holds it, "gz" written into `dir`.
QString compressed(const QTemporaryDir& dir, const char* name, const QString& format) {
    if (format == "xz")
        return QString(CLEAVE_SOURCE_EXAMPLE_MODELS_DIR) + "/" + name + ".onnx.xz";
    const std::string plain = contents(example(name)).toStdString();
    return cleave::test::written(dir, QString(name) + ".onnx.gz",
                                 QByteArray::fromStdString(cleave::test::gzip(plain)));
}

QStringList keys(const QJsonObject& object) {
    return object.keys();
}

} // namespace

class InspectCommandTest : public QObject {
    Q_OBJECT

private slots:
    void jsonHasExactlyTheDocumentedFields() {
        const Run run = run_cleave({"inspect", example("resnet18"), "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(keys(root), (QStringList{"model", "nodes"}));
        const QJsonObject model = root["model"].toObject();
        QCOMPARE(keys(model),
                 (QStringList{"dims", "file", "flops", "initializer_elements", "inputs", "macs",
                              "nodes", "opset", "outputs", "weight_parameters"}));
        QCOMPARE(model["nodes"].toInt(), 69);
        QCOMPARE(model["opset"].toInt(), 17);
        QCOMPARE(model["weight_parameters"].toInteger(), 11689512);
        const QJsonObject input = model["inputs"].toArray()[0].toObject();
        QCOMPARE(input["name"].toString(), QString("input"));
        QCOMPARE(input["dtype"].toString(), QString("float32"));
        QCOMPARE(input["shape"].toArray(), (QJsonArray{1, 3, 224, 224}));
        const QJsonObject node = root["nodes"].toArray()[0].toObject();
        QCOMPARE(keys(node),
                 (QStringList{"bytes_in", "bytes_out", "flops", "inputs", "macs", "name", "op",
                              "output_shapes", "outputs", "weight_parameters"}));
        QCOMPARE(node["name"].toString(), QString("/conv1/Conv"));
        QCOMPARE(node["output_shapes"].toArray()[0].toArray(), (QJsonArray{1, 64, 112, 112}));
        QCOMPARE(node["macs"].toInteger(), 118013952);
    }

    void tableSummarisesTheModel() {
        const Run run = run_cleave({"inspect", example("resnet18")});
        QCOMPARE(run.exit_code, 0);
        QVERIFY(run.out.contains("11,689,512 parameters"));
        QVERIFY(run.out.contains("MACs       1.81 G"));
        QVERIFY(run.err.isEmpty());
    }

    void inputShapeAndAutodiceNames() {
        const Run run = run_cleave({"inspect", example("resnet18"), "--json", "--input-shape",
                                    "input=1x3x160x160", "--autodice-names"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        const QJsonObject node = root["nodes"].toArray()[0].toObject();
        QCOMPARE(node["name"].toString(), QString("_conv1_Conv_output_0"));
        QCOMPARE(node["output_shapes"].toArray()[0].toArray(), (QJsonArray{1, 64, 80, 80}));
    }

    void outWritesTheDocument() {
        QTemporaryDir dir;
        const QString out = dir.filePath("resnet18.json");
        const Run run = run_cleave({"inspect", example("resnet18"), "--out", out});
        QCOMPARE(run.exit_code, 0);
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(
            QJsonDocument::fromJson(file.readAll()).object()["model"].toObject()["nodes"].toInt(),
            69);
    }

    void badModelExitsTwoWithOneLine() {
        QTemporaryDir dir;
        const QString path = dir.filePath("broken.onnx");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("this is not a model at all");
        file.close();
        const Run run = run_cleave({"inspect", path});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QCOMPARE(run.err.count('\n'), 1);
        QVERIFY2(run.err.startsWith("cleave: " + path.toUtf8() + ": byte 0: "),
                 run.err.constData());
    }

    void genAiDecoderIsShapedThroughoutWithNoWarning() {
        // int4 MatMulNBits, RotaryEmbedding, GroupQueryAttention and SkipSimplifiedLayerNorm:
        // MACs 18944 BS + 128 BST (tests/core/graph/genai_decoder.hpp), S 1, T 1025.
        QTemporaryDir dir;
        const QString path = dir.filePath("genai.onnx");
        std::ofstream(path.toStdString(), std::ios::binary)
            << cleave::test::GenAiDecoder::build().SerializeAsString();
        const Run run = run_cleave({"inspect", path, "--decode", "1024", "--json"});
        QCOMPARE(run.exit_code, 0);
        // No warning: the one note the roles give any decoder whose batch is not bound.
        QCOMPARE(QString(run.err).trimmed(),
                 "cleave: note: " + path +
                     ": batch dim (batch_size) not bound; using 1 (set it with --batch)");
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(root["model"].toObject()["macs"].toInteger(), 18944 + 128 * 1025);
        QCOMPARE(root["model"].toObject()["weight_parameters"].toInteger(), 19616);
        for (const auto& node : root["nodes"].toArray()) {
            // Every output the node writes; an omitted optional one ("") has no tensor.
            const QJsonArray outputs = node.toObject()["outputs"].toArray();
            const QJsonArray shapes = node.toObject()["output_shapes"].toArray();
            for (qsizetype i = 0; i < outputs.size(); ++i)
                QVERIFY2(shapes[i].isArray() || outputs[i].toString().isEmpty(),
                         qPrintable(node.toObject()["name"].toString()));
        }
        const Run bound = run_cleave({"inspect", path, "--decode", "1024", "--batch", "1"});
        QCOMPARE(bound.exit_code, 0);
        QCOMPARE(bound.err, QByteArray());
    }

    void compressedModelsGiveThePlainModelsOutput_data() {
        QTest::addColumn<QString>("format");
        QTest::newRow("xz, as committed") << "xz";
        QTest::newRow("gzip") << "gz";
    }
    void compressedModelsGiveThePlainModelsOutput() {
        QFETCH(QString, format);
        QTemporaryDir dir;
        const QString plain = example("resnet18");
        const QString packed = compressed(dir, "resnet18", format);
        for (const QStringList& options : {QStringList{"--json"}, QStringList{}}) {
            const Run expected = run_cleave(QStringList{"inspect", plain} + options);
            const Run run = run_cleave(QStringList{"inspect", packed} + options);
            QCOMPARE(run.exit_code, 0);
            QVERIFY(run.err.isEmpty());
            QVERIFY(run.out.contains(packed.toUtf8()));
            QCOMPARE(QByteArray(run.out).replace(packed.toUtf8(), "MODEL"),
                     QByteArray(expected.out).replace(plain.toUtf8(), "MODEL"));
        }
    }

    void aCorruptCompressedModelExitsTwoNamingIt_data() {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QByteArray>("name");
        QTest::newRow("xz") << "xz" << QByteArray("xz");
        QTest::newRow("gzip") << "gz" << QByteArray("gzip");
    }
    void aCorruptCompressedModelExitsTwoNamingIt() {
        QFETCH(QString, format);
        QFETCH(QByteArray, name);
        QTemporaryDir dir;
        QByteArray bytes = contents(compressed(dir, "resnet18", format));
        bytes.truncate(bytes.size() / 2);
        const QString path = cleave::test::written(dir, "cut.onnx." + format, bytes);
        const Run run = run_cleave({"inspect", path});
        QCOMPARE(run.exit_code, 2);
        QVERIFY(run.out.isEmpty());
        QCOMPARE(run.err.count('\n'), 1);
        QVERIFY2(run.err.startsWith("cleave: " + path.toUtf8() + ": byte ") &&
                     run.err.contains(": not valid " + name + ": "),
                 run.err.constData());
    }

    void badOutputPathLeavesNothing() {
        const Run run =
            run_cleave({"inspect", example("resnet18"), "--out", "/nonexistent-folder/x.json"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.startsWith("cleave: /nonexistent-folder/x.json: "), run.err.constData());
    }

    void usageErrorsExitTwo_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("no command") << QStringList{};
        QTest::newRow("unknown command") << QStringList{"frobnicate"};
        QTest::newRow("missing model") << QStringList{"inspect"};
        QTest::newRow("unknown flag") << QStringList{"inspect", "m.onnx", "--colour"};
        QTest::newRow("bad input shape")
            << QStringList{"inspect", example("resnet18"), "--input-shape", "input=1x3"};
    }
    void usageErrorsExitTwo() {
        QFETCH(QStringList, arguments);
        const Run run = run_cleave(arguments);
        QCOMPARE(run.exit_code, 2);
        QVERIFY(!run.err.isEmpty());
    }

    void helpListsCommands() {
        const Run run = run_cleave({"--help"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY(run.out.contains("inspect"));
    }

    void versionNamesLibraries() {
        const Run run = run_cleave({"--version"});
        QCOMPARE(run.exit_code, 0);
        QVERIFY2(run.out.startsWith("cleave 0.") && run.out.contains("libonnx 1."),
                 run.out.constData());
    }
};

QTEST_GUILESS_MAIN(InspectCommandTest)
#include "inspect_command_test.moc"
