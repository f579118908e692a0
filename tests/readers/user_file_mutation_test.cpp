// Seeded random mutations of a valid file of each kind a user can feed Cleave (byte flips, cuts,
// inserts, a number grown past what a double holds, a count or an index made huge or negative),
// each given to the command that reads it in a process of its own: every run must end in exit
// 0 or exit 2 within its time limit. A signal, a hang, exit 1 ("internal error") or any other
// exit is a failure; its input is kept under mutation-failures/ in the build folder.
//
// CLEAVE_MUTATIONS sets the mutations per kind (default 30; docs/fuzzing.md gives the counts of
// a run of 1,000), CLEAVE_MUTATION_SEED the seed (default 1), CLEAVE_MUTATION_KINDS a
// comma-separated list of the kinds to mutate; CLEAVE_MUTATION_VERBOSE prints every run's message.
#include "core/xz_codec.hpp"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <array>
#include <random>

namespace {

const QString kModels = CLEAVE_EXAMPLE_MODELS_DIR;
const QString kSource = CLEAVE_SOURCE_DIR;
const QString kClusters = kSource + "/examples/clusters";
constexpr int kTimeLimitMs = 30000;

QByteArray file_bytes(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// `path` packed as gzip writes it (gzip is part of every Debian system).
QByteArray gzipped(const QString& path) {
    QProcess gzip;
    gzip.start("gzip", {"-c", "-n", path});
    return gzip.waitForFinished(60000) && gzip.exitCode() == 0 ? gzip.readAllStandardOutput()
                                                               : QByteArray();
}

int environment_int(const char* name, int otherwise) {
    bool ok = false;
    const int value = qEnvironmentVariableIntValue(name, &ok);
    return ok ? value : otherwise;
}

// A valid file of one kind and the command that reads it; "@FILE" in `arguments` is the file.
struct Kind {
    QString name;
    QByteArray valid;
    QString file_name;
    QString program;
    QStringList arguments;
};

// Numbers a reader may take as a count, an index or a size, and numbers no double holds.
const std::array<const char*, 10> kNumbers = {"31e998",     "-1e400",      "1e-400",
                                              "-1",         "0",           "4294967296",
                                              "2147483647", "-2147483649", "99999999999999999999",
                                              "1.5"};

// One mutation of `text`, chosen and placed by `random`.
QByteArray mutated(QByteArray text, std::mt19937& random) {
    const auto at = [&](qsizetype size) {
        return size <= 0 ? qsizetype{0}
                         : std::uniform_int_distribution<qsizetype>(0, size - 1)(random);
    };
    const auto byte = [&] {
        return static_cast<char>(std::uniform_int_distribution<int>(0, 255)(random));
    };
    switch (std::uniform_int_distribution<int>(0, 5)(random)) {
    case 0: // flip a few bytes
        for (int i = std::uniform_int_distribution<int>(1, 4)(random); i > 0; --i)
            if (!text.isEmpty())
                text[at(text.size())] = byte();
        break;
    case 1: { // cut a span out
        const auto from = at(text.size());
        text.remove(from, std::uniform_int_distribution<qsizetype>(1, 64)(random));
        break;
    }
    case 2: // cut the end off
        text.truncate(at(text.size()));
        break;
    case 3: { // insert random bytes, or a copy of another part of the file
        QByteArray insert;
        if (random() % 2 == 0) {
            for (int i = std::uniform_int_distribution<int>(1, 16)(random); i > 0; --i)
                insert += byte();
        } else {
            insert = text.mid(at(text.size()), std::uniform_int_distribution<int>(1, 256)(random));
        }
        text.insert(at(text.size() + 1), insert);
        break;
    }
    default: { // replace a number with one a reader may not expect
        const auto digit = [&](qsizetype i) { return text[i] >= '0' && text[i] <= '9'; };
        qsizetype start = at(text.size());
        while (start < text.size() && !digit(start))
            ++start;
        if (start == text.size())
            break;
        while (start > 0 && (digit(start - 1) || text[start - 1] == '.' || text[start - 1] == '-'))
            --start;
        qsizetype end = start;
        while (end < text.size() && (digit(end) || QByteArray("+-.eE").contains(text[end])))
            ++end;
        text.replace(start, end - start, kNumbers[random() % kNumbers.size()]);
        break;
    }
    }
    return text;
}

struct Outcome {
    int read = 0;    // exit 0
    int refused = 0; // exit 2, with a message
    QStringList failures;
};

} // namespace

class UserFileMutationTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QList<Kind> kinds_;

    QString path(const QString& name) const { return dir_.filePath(name); }

    // Runs one file; "" when it was read or refused, else what went wrong. `message`: what it
    // printed on stderr.
    QString outcome_of(const Kind& kind, const QString& file, int* code,
                       QByteArray* message = nullptr) {
        QStringList arguments = kind.arguments;
        arguments.replaceInStrings("@FILE", file);
        QProcess process;
        process.start(kind.program, arguments);
        if (!process.waitForFinished(kTimeLimitMs)) {
            process.kill();
            process.waitForFinished();
            return QString("still running after %1 s").arg(kTimeLimitMs / 1000);
        }
        *code = process.exitCode();
        if (process.exitStatus() == QProcess::CrashExit)
            return QString("ended by a signal (%1)").arg(process.exitCode());
        const QByteArray err = process.readAllStandardError();
        if (message)
            *message = err.trimmed();
        // A project names other files: a path it holds that was mutated is refused naming
        // the file that is not there.
        const bool named = err.contains(QFileInfo(file).fileName().toUtf8()) ||
                           (kind.name == "project" &&
                            (err.contains(": no such file") || err.contains(": cannot read")));
        if (*code == 2 && !named)
            return "exit 2 without naming the file: " + QString::fromUtf8(err.right(300));
        if (*code != 0 && *code != 2)
            return QString("exit %1: %2").arg(*code).arg(QString::fromUtf8(err.right(300)));
        return {};
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        const QString cleave = CLEAVE_CLI_PATH;
        const QString reader = CLEAVE_READ_USER_FILE_PATH;
        const QString squeezenet = kModels + "/squeezenet1_1.onnx";
        const QString nx8 = kClusters + "/nx8.cluster.json";
        const std::string gbdt =
            file_bytes(kSource + "/resources/predictors/xeon-ort-2t.json.xz").toStdString();
        // A project names its model and cluster relative to its folder (tests/data/readers).
        QVERIFY(QFile::link(kModels, path("models")));
        QVERIFY(QFile::link(kClusters, path("clusters")));
        const QString readers = kSource + "/tests/data/readers/";
        kinds_ = {
            {"predictor",
             QByteArray::fromStdString(cleave::xz_decompress(gbdt, "xeon-ort-2t", "xz")),
             "mutant.json",
             cleave,
             {"predict", squeezenet, "--device", "xeon-ort-2t", "--predictor", "@FILE"}},
            {"device",
             file_bytes(kSource + "/resources/devices/jetson-xavier-nx.json"),
             "mutant.json",
             cleave,
             {"devices", "show", "@FILE"}},
            {"bundle",
             file_bytes(readers + "bundle-mutant-board.json"),
             "mutant.json",
             cleave,
             {"devices", "import", "@FILE"}},
            {"cluster",
             file_bytes(kClusters + "/mixed4.cluster.json"),
             "mutant.cluster.json",
             cleave,
             {"platform", "check", "@FILE"}},
            {"platform",
             file_bytes(kClusters + "/mixed4.platform.txt"),
             "mutant.platform.txt",
             cleave,
             {"platform", "check", "@FILE"}},
            {"mapping",
             file_bytes(kSource + "/tests/data/autodice/resnet18-conv-relu-cut/mapping.json"),
             "mutant.json",
             cleave,
             {"evaluate-mapping", kModels + "/resnet18.onnx", "--cluster", nx8, "--mapping",
              "@FILE"}},
            {"project",
             file_bytes(readers + "project-squeezenet-nx8.cleave"),
             "mutant.cleave",
             reader,
             {"project", "@FILE"}},
            {"rules",
             file_bytes(kSource + "/resources/fusion/ort-cpu.json"),
             "mutant.json",
             cleave,
             {"fuse", squeezenet, "--rules", "@FILE"}},
            {"dataset",
             file_bytes(readers + "dataset-squeezenet.json"),
             "mutant.json",
             cleave,
             {"train", "--data", "@FILE", "--models", kModels, "--device", "xeon-ort-1t", "--kind",
              "lasso", "--out", path("trained.json")}},
            {"dse-state",
             file_bytes(readers + "dse-state-squeezenet-nx8.json"),
             "mutant.json",
             reader,
             {"dse-state", "@FILE", squeezenet, nx8}},
            {"model-xz",
             file_bytes(kSource + "/examples/models/squeezenet1_1.onnx.xz"),
             "mutant.onnx.xz",
             cleave,
             {"inspect", "@FILE"}},
            {"model-gz", gzipped(squeezenet), "mutant.onnx.gz", cleave, {"inspect", "@FILE"}}};
    }

    void everyMutationIsReadOrRefused_data() {
        QTest::addColumn<int>("index");
        const QStringList only =
            qEnvironmentVariable("CLEAVE_MUTATION_KINDS").split(',', Qt::SkipEmptyParts);
        for (int i = 0; i < kinds_.size(); ++i)
            if (only.isEmpty() || only.contains(kinds_[i].name))
                QTest::newRow(qPrintable(kinds_[i].name)) << i;
    }

    void everyMutationIsReadOrRefused() {
        QFETCH(int, index);
        const Kind& kind = kinds_[index];
        if (kind.name == "predictor" && !CLEAVE_HAVE_XGBOOST_REGRESSOR)
            QSKIP("built without XGBoost (libxgboost-dev): the gbdt predictor cannot be read");
        QVERIFY2(!kind.valid.isEmpty(), "no valid example");
        const QString file = path(kind.file_name);
        const auto write = [&](const QByteArray& bytes) {
            QFile out(file);
            return out.open(QIODevice::WriteOnly) && out.write(bytes) == bytes.size();
        };
        // The example itself is read: the mutations start from a valid file.
        QVERIFY(write(kind.valid));
        int code = -1;
        const QString valid = outcome_of(kind, file, &code);
        QVERIFY2(valid.isEmpty() && code == 0, qPrintable(kind.name + ": " + valid));

        const int count = environment_int("CLEAVE_MUTATIONS", 30);
        const auto seed = static_cast<unsigned>(environment_int("CLEAVE_MUTATION_SEED", 1));
        const QString kept = QDir::current().filePath("mutation-failures");
        const bool verbose = qEnvironmentVariableIsSet("CLEAVE_MUTATION_VERBOSE");
        Outcome outcome;
        QElapsedTimer clock;
        clock.start();
        for (int i = 0; i < count; ++i) {
            std::mt19937 random(seed * 1000003u + static_cast<unsigned>(index) * 7919u +
                                static_cast<unsigned>(i));
            const QByteArray bytes = mutated(kind.valid, random);
            QVERIFY(write(bytes));
            code = -1;
            QByteArray message;
            const QString failure = outcome_of(kind, file, &code, &message);
            if (verbose)
                qInfo("%s %d: exit %d: %s", qPrintable(kind.name), i, code,
                      message.left(240).constData());
            if (failure.isEmpty()) {
                ++(code == 0 ? outcome.read : outcome.refused);
                continue;
            }
            QDir().mkpath(kept);
            const QString name =
                QString("%1-seed%2-%3-%4").arg(kind.name).arg(seed).arg(i).arg(kind.file_name);
            QFile::remove(kept + "/" + name);
            QFile::copy(file, kept + "/" + name);
            outcome.failures << name + ": " + failure;
        }
        qInfo("%s: %d mutations in %.1f s: %d read (exit 0), %d refused (exit 2), %d failed",
              qPrintable(kind.name), count, static_cast<double>(clock.elapsed()) / 1000,
              outcome.read, outcome.refused, static_cast<int>(outcome.failures.size()));
        QVERIFY2(outcome.failures.isEmpty(),
                 qPrintable("kept in " + kept + ":\n" + outcome.failures.join("\n")));
    }
};

int main(int argc, char** argv) {
    // A run of 1,000 mutations per kind spends minutes on a kind, past Qt Test's five-minute
    // limit per test function; each command keeps its own time limit.
    if (!qEnvironmentVariableIsSet("QTEST_FUNCTION_TIMEOUT"))
        qputenv("QTEST_FUNCTION_TIMEOUT", "86400000");
    QCoreApplication app(argc, argv);
    UserFileMutationTest test;
    return QTest::qExec(&test, argc, argv);
}
#include "user_file_mutation_test.moc"
