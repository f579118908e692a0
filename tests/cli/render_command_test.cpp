// `cleave render` end to end with no display: the graph, partition, front, hypervolume and
// breakdown views of resnet18 (and a small search of it on the eight-Jetson cluster) as PNG and
// SVG, read back as a PNG header and as SVG XML with the text we know is drawn; bad input exits 2.
// Also `cleave version --json`.
#include "cli_run.hpp"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

namespace {

using Run = cleave::test::CliRun;
using cleave::test::run_cleave;

const QString kResnet18 = QString(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx";
const QString kCluster = QString(CLEAVE_EXAMPLE_CLUSTERS_DIR) + "/nx8.cluster.json";

QJsonObject json_of(const Run& run) {
    return QJsonDocument::fromJson(run.out).object();
}

QByteArray read(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A PNG's width and height from its IHDR chunk; (0, 0) when it is not a PNG.
QSize pngSize(const QByteArray& bytes) {
    static const QByteArray signature("\x89PNG\r\n\x1a\n", 8);
    if (!bytes.startsWith(signature) || bytes.size() < 24 || bytes.mid(12, 4) != "IHDR")
        return {};
    const auto be32 = [&](int at) {
        return (static_cast<quint8>(bytes[at]) << 24) | (static_cast<quint8>(bytes[at + 1]) << 16) |
               (static_cast<quint8>(bytes[at + 2]) << 8) | static_cast<quint8>(bytes[at + 3]);
    };
    return {be32(16), be32(20)};
}

struct Svg {
    QString root;      // the root element's name
    QStringList texts; // the text of every <text> element
    QString error;     // the XML parser's, if any
};

Svg parseSvg(const QByteArray& bytes) {
    Svg svg;
    QXmlStreamReader xml(bytes);
    QString current;
    bool inText = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            if (svg.root.isEmpty())
                svg.root = xml.name().toString();
            if (xml.name() == QLatin1String("text")) {
                inText = true;
                current.clear();
            }
        } else if (xml.isCharacters() && inText) {
            current += xml.text();
        } else if (xml.isEndElement() && xml.name() == QLatin1String("text")) {
            inText = false;
            svg.texts << current.trimmed();
        }
    }
    if (xml.hasError())
        svg.error = xml.errorString();
    return svg;
}

} // namespace

class RenderCommandTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString search_; // a small cleave dse --out of resnet18 on nx8

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        search_ = dir_.filePath("search.json");
        const Run run = run_cleave({"dse", kResnet18, "--cluster", kCluster, "--population", "16",
                                    "--generations", "20", "--stages", "1", "--levels", "1",
                                    "--quiet", "--out", search_});
        QVERIFY2(run.exit_code == 0, run.err.constData());
    }

    void graphPngIsTheWholeGraphAtTwiceItsSize() {
        const QString out = dir_.filePath("graph.png");
        const Run run = run_cleave({"render", "graph", kResnet18, "--out", out, "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject json = json_of(run);
        QCOMPARE(json["view"].toString(), QString("graph"));
        QCOMPARE(json["format"].toString(), QString("png"));
        QCOMPARE(json["out"].toString(), out);
        const QSize size = pngSize(read(out));
        QCOMPARE(size, QSize(json["width"].toInt(), json["height"].toInt()));
        // resnet18 drawn top to bottom: 69 nodes deep, a few wide; at 2x well over a screen.
        QVERIFY2(size.height() > 4000 && size.height() <= 16384,
                 qPrintable(QString::number(size.height())));
        QVERIFY(size.width() > 300 && size.width() < size.height());
        QCOMPARE(json["capped"].toBool(), false);
        QCOMPARE(json["scale"].toDouble(), 2.0);
    }

    void graphSvgHoldsTheOpNames() {
        const QString out = dir_.filePath("graph.svg");
        const Run run = run_cleave({"render", "graph", kResnet18, "--out", out});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY2(run.out.contains("graph.svg"), run.out.constData());
        const Svg svg = parseSvg(read(out));
        QVERIFY2(svg.error.isEmpty(), qPrintable(svg.error));
        QCOMPARE(svg.root, QString("svg"));
        QVERIFY(svg.texts.count("Conv") >= 20); // resnet18 has 20 convolutions
        QVERIFY(svg.texts.contains("MaxPool"));
        QVERIFY(svg.texts.contains("Gemm"));
    }

    void partitionShowsTheMappingsPes() {
        const QString out = dir_.filePath("partition.svg");
        const Run run =
            run_cleave({"render", "partition", kResnet18, "--cluster", kCluster, "--points", "10",
                        "--pes", "nx03_gpu,nx05_gpu", "--out", out, "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const Svg svg = parseSvg(read(out));
        QCOMPARE(svg.root, QString("svg"));
        const QString text = svg.texts.join('\n');
        QVERIFY2(text.contains("nx03_gpu") && text.contains("nx05_gpu"), qPrintable(text));
        QVERIFY(text.contains("Time (communication)"));
        QCOMPARE(json_of(run)["width"].toInt(), 900);
    }

    void frontAndHypervolumeDrawTheSearch() {
        const QString front = dir_.filePath("front.svg");
        Run run = run_cleave({"render", "front", search_, "--out", front});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        Svg svg = parseSvg(read(front));
        QCOMPARE(svg.root, QString("svg"));
        QVERIFY(svg.texts.contains("throughput (1/s)"));
        QVERIFY(svg.texts.contains("max memory (MiB)"));
        QVERIFY(svg.texts.contains("Pareto front"));

        const QString history = dir_.filePath("hypervolume.png");
        run = run_cleave({"render", "hypervolume", search_, "--out", history, "--json", "--width",
                          "600", "--height", "400", "--scale", "1"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QCOMPARE(pngSize(read(history)), QSize(600, 400));

        const QString svgHistory = dir_.filePath("hypervolume.svg");
        run = run_cleave({"render", "hypervolume", search_, "--out", svgHistory});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY(parseSvg(read(svgHistory)).texts.contains("hypervolume (normalised)"));
    }

    void breakdownNamesTheDevice() {
        const QString out = dir_.filePath("breakdown.svg");
        const Run run = run_cleave(
            {"render", "breakdown", kResnet18, "--device", "jetson-xavier-nx", "--out", out});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QString text = parseSvg(read(out)).texts.join('\n');
        QVERIFY2(text.contains("jetson-xavier-nx"), qPrintable(text));
        QVERIFY2(text.contains(" ms"), qPrintable(text));
    }

    void needsNoDisplayNorPlatformSetting() {
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.remove("QT_QPA_PLATFORM");
        environment.remove("DISPLAY");
        environment.remove("WAYLAND_DISPLAY");
        process.setProcessEnvironment(environment);
        const QString out = dir_.filePath("headless.svg");
        process.start(CLEAVE_CLI_PATH, {"render", "graph", kResnet18, "--out", out});
        QVERIFY(process.waitForFinished(120000));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        QVERIFY(parseSvg(read(out)).texts.contains("MaxPool"));
    }

    // A 12-layer decoder is laid out a block per layer: --fold-blocks draws each as one labelled
    // box, so no op is drawn and the picture is a fraction of the height; --collapse draws the
    // kernels as boxes. A model whose layers do not repeat has no blocks to fold: exit 2.
    void foldedBlocksAndCollapsedKernels() {
        const QString models = dir_.filePath("decoder");
        Run run = run_cleave({"generate-models", "--decoder-layers", "12", "--out", models});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QStringList written = QDir(models).entryList({"*.onnx"});
        QCOMPARE(written.size(), 1);
        const QString model = QDir(models).filePath(written.front());
        const auto height = [&](const QStringList& flags) {
            const QString out = dir_.filePath("decoder.png");
            const Run drawn =
                run_cleave(QStringList{"render", "graph", model, "--out", out, "--json"} + flags);
            return drawn.exit_code == 0 ? json_of(drawn)["height"].toInt() : -drawn.exit_code;
        };
        const int open = height({});
        const int folded = height({"--fold-blocks"});
        QVERIFY2(folded > 0 && folded * 5 < open,
                 qPrintable(QString("%1 %2").arg(folded).arg(open)));
        QCOMPARE(height({"--collapse"}), open); // collapsing kernels moves nothing

        const QString svgPath = dir_.filePath("decoder.svg");
        run = run_cleave({"render", "graph", model, "--out", svgPath, "--fold-blocks"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const Svg svg = parseSvg(read(svgPath));
        QVERIFY2(svg.error.isEmpty(), qPrintable(svg.error));
        QVERIFY(!svg.texts.contains("MatMul"));
        QVERIFY2(svg.texts.filter(QRegularExpression("^transformer/h\\.3 · \\d+ nodes")).size() ==
                     1,
                 qPrintable(svg.texts.join('|')));

        // Collapsed kernels are labelled with their node counts, as open ones are not.
        const QRegularExpression count("^\\d+ nodes$");
        run = run_cleave({"render", "graph", model, "--out", svgPath, "--collapse"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY(parseSvg(read(svgPath)).texts.filter(count).size() >= 12);
        run = run_cleave({"render", "graph", model, "--out", svgPath});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        QVERIFY(parseSvg(read(svgPath)).texts.filter(count).isEmpty());

        run = run_cleave({"render", "graph", kResnet18, "--out", svgPath, "--fold-blocks"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("resnet18.onnx: --fold-blocks: a model laid out in blocks"),
                 run.err.constData());
        run = run_cleave({"render", "breakdown", kResnet18, "--out", svgPath, "--collapse"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("--collapse"), run.err.constData());
    }

    void badInputExitsTwo() {
        const QString png = dir_.filePath("x.png");
        Run run = run_cleave({"render", "pie", kResnet18, "--out", png});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("pie"), run.err.constData());

        run = run_cleave({"render", "graph", kResnet18, "--out", dir_.filePath("x.jpg")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("unknown extension '.jpg'"), run.err.constData());

        run = run_cleave({"render", "graph", dir_.filePath("missing.onnx"), "--out", png});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("missing.onnx: no such file"), run.err.constData());

        run = run_cleave({"render", "graph", kResnet18, "--out", dir_.filePath("no/such/x.svg")});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("does not exist"), run.err.constData());

        run = run_cleave({"render", "partition", kResnet18, "--out", png});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("--cluster"), run.err.constData());

        run = run_cleave({"render", "front", search_, "--out", png, "--x", "speed"});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("--x"), run.err.constData());

        run = run_cleave({"render", "front", kResnet18, "--out", png});
        QCOMPARE(run.exit_code, 2);
        QVERIFY2(run.err.contains("resnet18.onnx"), run.err.constData());
        QVERIFY(!QFile::exists(png));
    }

    // cleave links no Qt: render runs cleave-render from cleave's own folder, and says so where
    // it is missing (a build without the studio).
    void renderWithoutCleaveRenderSaysWhatIsMissing() {
        const QString alone = dir_.filePath("alone");
        QVERIFY(QDir().mkpath(alone));
        const QString copy = alone + "/cleave";
        QVERIFY(QFile::copy(CLEAVE_CLI_PATH, copy));
        QProcess process;
        process.start(copy, {"render", "graph", kResnet18, "--out", dir_.filePath("alone.png")});
        QVERIFY(process.waitForFinished(60000));
        const QByteArray err = process.readAllStandardError();
        QCOMPARE(process.exitCode(), 2);
        QVERIFY2(err.contains("cleave-render: not installed"), err.constData());
        QVERIFY(!QFile::exists(dir_.filePath("alone.png")));

        // Beside it, cleave render is cleave-render, --help included.
        const Run help = run_cleave({"render", "--help"});
        QCOMPARE(help.exit_code, 0);
        QVERIFY2(help.out.contains("--theme"), help.out.constData());
    }

    void versionJsonListsTheLibraries() {
        const Run run = run_cleave({"version", "--json"});
        QVERIFY2(run.exit_code == 0, run.err.constData());
        const QJsonObject json = json_of(run);
        QVERIFY(!json["cleave"].toString().isEmpty());
        QStringList found;
        for (const auto& value : json["libraries"].toArray()) {
            const QJsonObject library = value.toObject();
            if (library["version"].isString() &&
                library["version"].toString().contains(QRegularExpression("^\\d+\\.\\d+")))
                found << library["name"].toString();
        }
        for (const char* name :
             {"Qt", "libonnx", "protobuf", "Eigen", "nlohmann_json", "pagmo2", "Graphviz"})
            QVERIFY2(found.contains(name), name);
    }
};

QTEST_GUILESS_MAIN(RenderCommandTest)
#include "render_command_test.moc"
