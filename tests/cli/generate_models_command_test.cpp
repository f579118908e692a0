// `cleave generate-models --llm` end to end: SmolLM2-135M written with a sparse weights file,
// read back by `cleave inspect` with no warning, run by ONNX Runtime (the oracle for shapes) in
// both forms with Cleave's inferred output shapes matching ONNX Runtime's, and exit 2 naming
// the known models or the form int4 needs; decoders of the decoder space, split with their
// weights kept as external data.
#include "cli_run.hpp"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <sys/stat.h>

namespace {

using Run = cleave::test::CliRun;
using cleave::test::run_cleave;

// Runs `model` in ONNX Runtime with `past` cached tokens of SmolLM2's shape (30 layers, 3 key/
// value heads of 64) and `sequence` new ones; prints "name dims" for every output.
const char* kRunScript = R"(
import { createRequire } from 'module';
const [ortDir, file, past, sequence, withPositions] = process.argv.slice(2);
const ort = createRequire(ortDir + '/')('onnxruntime-node');
const P = +past, S = +sequence, T = P + S;
const ints = (n, f) => BigInt64Array.from({length: n}, (_, i) => BigInt(f(i)));
const feeds = {
  input_ids: new ort.Tensor('int64', ints(S, () => 5), [1, S]),
  attention_mask: new ort.Tensor('int64', ints(T, () => 1), [1, T]),
};
if (withPositions === '1')
  feeds.position_ids = new ort.Tensor('int64', ints(S, i => P + i), [1, S]);
for (let l = 0; l < 30; ++l)
  for (const part of ['key', 'value'])
    feeds[`past_key_values.${l}.${part}`] =
        new ort.Tensor('float32', new Float32Array(3 * P * 64), [1, 3, P, 64]);
const session = await ort.InferenceSession.create(file);
const out = await session.run(feeds);
for (const name of session.outputNames) console.log(name, out[name].dims.join('x'));
)";

struct Ort {
    QString node;
    QString dir;
};

Ort find_ort() {
    const QString dir = CLEAVE_ORT_NODE_DIR;
    const QString node = QStandardPaths::findExecutable("node");
    if (node.isEmpty() || !QFile::exists(dir + "/node_modules/onnxruntime-node/package.json"))
        return {};
    return {node, dir};
}

// "name dims" lines of every output, as ONNX Runtime ran them.
QStringList ort_outputs(const Ort& ort, const QTemporaryDir& dir, const QString& model, int past,
                        int sequence, bool positions) {
    const QString script = cleave::test::written(dir, "run.mjs", kRunScript);
    QProcess process;
    process.start(ort.node, {script, ort.dir, model, QString::number(past),
                             QString::number(sequence), positions ? "1" : "0"});
    process.waitForFinished(300000);
    const QString out = process.readAllStandardOutput();
    if (process.exitCode() != 0)
        qWarning("%s", process.readAllStandardError().constData());
    return out.split('\n', Qt::SkipEmptyParts);
}

// The same lines from Cleave's inferred shapes under the same bindings.
QStringList cleave_outputs(const QString& model, const QStringList& bindings) {
    const Run run = run_cleave(QStringList{"inspect", model, "--json"} + bindings);
    if (run.exit_code != 0)
        return {"exit " + QString::number(run.exit_code) + ": " + run.err};
    QStringList lines;
    const auto outputs = QJsonDocument::fromJson(run.out)["model"]["outputs"].toArray();
    for (const auto& o : outputs) {
        QStringList dims;
        for (const auto& d : o.toObject()["shape"].toArray())
            dims << QString::number(d.toInteger());
        lines << o.toObject()["name"].toString() + " " + dims.join('x');
    }
    return lines;
}

} // namespace

class GenerateModelsCommandTest : public QObject {
    Q_OBJECT

private slots:
    void smollm2IsWrittenWithSparseWeights() {
        QTemporaryDir dir;
        const Run run =
            run_cleave({"generate-models", "--llm", "smollm2-135m", "--out", dir.path(), "--json"});
        QCOMPARE(run.exit_code, 0);
        const QJsonObject root = QJsonDocument::fromJson(run.out).object();
        QCOMPARE(root["file"].toString(), QString("smollm2-135m.onnx"));
        QCOMPARE(root["form"].toString(), QString("onnx"));
        QCOMPARE(root["context_length"].toInteger(), 8192);
        const QString data = dir.filePath("smollm2-135m.onnx.data");
        struct stat st {};
        QCOMPARE(::stat(data.toLocal8Bit().constData(), &st), 0);
        // 135.6M float weights (the rotary caches of 8192 positions among them), page-aligned.
        QCOMPARE(static_cast<qint64>(st.st_size), root["data_bytes"].toInteger());
        QVERIFY(st.st_size > 135'000'000LL * 4 && st.st_size < 136'000'000LL * 4);
        QVERIFY2(st.st_blocks * 512 < st.st_size / 1000,
                 qPrintable(QString::number(st.st_blocks) + " blocks on disk"));

        const Run inspect = run_cleave(
            {"inspect", dir.filePath("smollm2-135m.onnx"), "--decode", "1024", "--batch", "1"});
        QCOMPARE(inspect.exit_code, 0);
        QCOMPARE(inspect.err, QByteArray());
        QVERIFY(inspect.out.contains("nodes      1826\n"));
        QVERIFY(inspect.out.contains("dims       batch 1, past 1024, sequence 1, total 1025"));
    }

    void genaiFormWritesItsConfig() {
        QTemporaryDir dir;
        const Run run = run_cleave({"generate-models", "--llm", "smollm2-135m", "--form", "genai",
                                    "--precision", "int4", "--out", dir.path()});
        QCOMPARE(run.exit_code, 0);
        QVERIFY2(run.out.contains("genai_config.json"), run.out.constData());
        QFile config(dir.filePath("genai_config.json"));
        QVERIFY(config.open(QIODevice::ReadOnly));
        const auto model = QJsonDocument::fromJson(config.readAll())["model"].toObject();
        QCOMPARE(model["context_length"].toInteger(), 8192);
        QCOMPARE(model["decoder"].toObject()["num_hidden_layers"].toInteger(), 30);
    }

    // Both forms run in ONNX Runtime; the onnx form's outputs have the shapes Cleave infers.
    void onnxRuntimeRunsBothFormsAsCleaveInfers() {
        const Ort ort = find_ort();
        if (ort.node.isEmpty())
            QSKIP("no node or onnxruntime-node in the build folder");
        QTemporaryDir dir;
        QCOMPARE(
            run_cleave({"generate-models", "--llm", "smollm2-135m", "--out", dir.path()}).exit_code,
            0);
        const QString model = dir.filePath("smollm2-135m.onnx");
        const auto decode = ort_outputs(ort, dir, model, 4, 1, true);
        QCOMPARE(decode.size(), 61);
        QCOMPARE(decode.front(), QString("logits 1x1x49152"));
        QCOMPARE(decode.back(), QString("present.29.value 1x3x5x64"));
        QCOMPARE(cleave_outputs(model, {"--decode", "4", "--batch", "1"}), decode);
        const auto prefill = ort_outputs(ort, dir, model, 0, 3, true);
        QCOMPARE(prefill.front(), QString("logits 1x3x49152"));
        QCOMPARE(cleave_outputs(model, {"--prefill", "3", "--batch", "1"}), prefill);

        QTemporaryDir genai;
        QCOMPARE(run_cleave({"generate-models", "--llm", "smollm2-135m", "--form", "genai",
                             "--precision", "int4", "--out", genai.path()})
                     .exit_code,
                 0);
        const auto genai_decode =
            ort_outputs(ort, genai, genai.filePath("smollm2-135m.onnx"), 4, 1, false);
        QCOMPARE(genai_decode, decode);
    }

    // The decoder space: each decoder in a folder of its own, listed with its steps; one
    // inspects at a decode step with no warning, splits into sub-models that keep their weights
    // as external data, and ONNX Runtime loads each sub-model with its data.
    void decoderSpaceDecodersInspectAndSplit() {
        QTemporaryDir dir;
        const Run run = run_cleave({"generate-models", "--space", "decoder", "--count", "2",
                                    "--seed", "4", "--out", dir.filePath("decoders"), "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const auto models = QJsonDocument::fromJson(run.out)["models"].toArray();
        QCOMPARE(models.size(), 2);
        QVERIFY(QFile::exists(dir.filePath("decoders/manifest.json")));
        const auto first = models[0].toObject();
        QCOMPARE(first["decode_contexts"].toArray().size(), 4);
        const QString model = dir.filePath("decoders/" + first["file"].toString());
        QVERIFY2(QFile::exists(model + ".data"), qPrintable(model));

        const Run inspect = run_cleave({"inspect", model, "--decode", "64", "--batch", "1"});
        QCOMPARE(inspect.exit_code, 0);
        QVERIFY2(inspect.err.isEmpty(), inspect.err.constData());

        const Run split =
            run_cleave({"split", model, "--decode", "64", "--parts", "2", "--pes",
                        "h1_cpu0,h2_cpu0", "--batch", "1", "--out", dir.filePath("split")});
        QVERIFY2(split.exit_code == 0, split.err.constData());
        for (const QString key : {"h1_cpu0", "h2_cpu0"}) {
            QVERIFY(QFile::exists(dir.filePath("split/" + key + ".onnx")));
            QVERIFY(QFile::exists(dir.filePath("split/" + key + ".onnx.data")));
        }
        const Ort ort = find_ort();
        if (ort.node.isEmpty())
            QSKIP("no node or onnxruntime-node in the build folder");
        const QString script = cleave::test::written(dir, "load.mjs", R"(
import { createRequire } from 'module';
const [ortDir, ...files] = process.argv.slice(2);
const ort = createRequire(ortDir + '/')('onnxruntime-node');
for (const file of files) {
  const session = await ort.InferenceSession.create(file);
  console.log(session.inputNames.length, session.outputNames.length);
}
)");
        QProcess process;
        process.start(ort.node, {script, ort.dir, dir.filePath("split/h1_cpu0.onnx"),
                                 dir.filePath("split/h2_cpu0.onnx")});
        QVERIFY(process.waitForFinished(120000));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        QCOMPARE(QString(process.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts).size(),
                 2);

        // Without its data file the model still inspects; splitting names the missing file.
        QVERIFY(QFile::rename(model + ".data", model + ".moved"));
        QCOMPARE(run_cleave({"inspect", model, "--decode", "64"}).exit_code, 0);
        const Run missing =
            run_cleave({"split", model, "--decode", "64", "--parts", "2", "--pes",
                        "h1_cpu0,h2_cpu0", "--batch", "1", "--out", dir.filePath("split2")});
        QCOMPARE(missing.exit_code, 2);
        QVERIFY2(missing.err.contains(".onnx.data beside the model is missing; writing sub-models "
                                      "reads the weights"),
                 missing.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("split2")));
    }

    void unknownModelListsTheKnownOnes() {
        QTemporaryDir dir;
        const Run run =
            run_cleave({"generate-models", "--llm", "gpt-5", "--out", dir.filePath("out")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(
            run.err.contains("--llm: unknown model \"gpt-5\"; expected one of smollm2-135m, "
                             "qwen2.5-0.5b, qwen2.5-1.5b, qwen2.5-7b, llama-3.2-1b, "
                             "llama-3.2-3b, llama-3.1-8b, llama-3.1-70b, phi-3-mini-4k-instruct, "
                             "gemma-2-2b, mistral-7b-v0.3"),
            run.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("out")));
    }

    void int4IsRefusedInTheOnnxForm() {
        QTemporaryDir dir;
        const Run run = run_cleave({"generate-models", "--llm", "smollm2-135m", "--precision",
                                    "int4", "--out", dir.filePath("out")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("--precision: int4 weights are written in the genai form only"),
                 run.err.constData());
        QVERIFY(!QFile::exists(dir.filePath("out")));
        const Run form = run_cleave({"generate-models", "--llm", "smollm2-135m", "--form", "tflite",
                                     "--out", dir.filePath("out")});
        QCOMPARE(form.exit_code, 2);
        QVERIFY2(form.err.contains("--form: unknown form \"tflite\"; expected onnx or genai"),
                 form.err.constData());
        const Run alone = run_cleave({"generate-models", "--precision", "fp16", "--count", "1",
                                      "--out", dir.filePath("out")});
        QVERIFY(alone.exit_code != 0); // --precision needs --llm
    }
};

QTEST_GUILESS_MAIN(GenerateModelsCommandTest)
#include "generate_models_command_test.moc"
