// The writer: every model as an ONNX file that loads, the manifest that lists them, progress
// after each.
#include "built_model.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/modelgen/model_writer.hpp"
#include "core/modelgen/simulation_spaces.hpp"
#include "model_checks.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <iterator>

using namespace cleave;
using cleave::test::check_shapes;

class ModelWriterTest : public QObject {
    Q_OBJECT

private slots:
    void writesFilesAndManifest() {
        QTemporaryDir dir;
        const auto folder = std::filesystem::path(dir.path().toStdString()) / "suite";
        auto specs = modelgen::simulation_models(3, 1, "blocks");
        int calls = 0;
        const TaskControl control([&](const TaskProgress& report) {
            ++calls;
            QCOMPARE(report.fraction.value(), calls / 3.0);
            QVERIFY(report.stage.starts_with("[" + std::to_string(calls) + "/3] "));
        });
        const auto written = modelgen::write_models(specs, folder, 5, &control);
        QCOMPARE(written.size(), std::size_t{3});
        QCOMPARE(calls, 3);
        for (const auto& w : written) {
            QVERIFY(std::filesystem::file_size(folder / w.file) == w.bytes);
            check_shapes(graph::load_model(folder / w.file));
        }
        std::ifstream manifest(folder / "manifest.json");
        const std::string text((std::istreambuf_iterator<char>(manifest)), {});
        QVERIFY(text.find("\"cleave-generated-models\"") != std::string::npos);
        QVERIFY(text.find(specs[2].name) != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(ModelWriterTest)
#include "model_writer_test.moc"
