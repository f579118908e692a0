// Which predictor a device gets: a file the user names (refused when trained for another device),
// else one found by its id in $CLEAVE_PREDICTOR_DIR, the user library or the shipped folder, in
// that order, else an uncalibrated roofline from its spec.
#include "core/input_error.hpp"
#include "core/predict/predictor_library.hpp"
#include "core/predict/roofline.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <cstdlib>

using namespace cleave;
using namespace cleave::predict;
namespace fs = std::filesystem;

namespace {

// A CPU of 48 GFLOP/s on 12.8 GB/s: a roofline's figures and nothing shipped for it.
device::DeviceSpec board(const std::string& id = "test-board") {
    device::DeviceSpec d;
    d.id = id;
    device::ProcessingElement cpu;
    cpu.name = "cpu";
    cpu.cores = 4;
    cpu.peak_gflops.fp32 = 48;
    cpu.memory_bandwidth_gbs = 12.8;
    d.processing_elements = {cpu};
    return d;
}

// A predictor for `device` whose rules say where it was written.
void write_predictor(const fs::path& path, const std::string& device, const std::string& rules) {
    auto p = roofline_predictor(board(device), rules);
    save_predictor(p, path);
}

} // namespace

class PredictorLibraryTest : public QObject {
    Q_OBJECT

    QTemporaryDir own_;  // $CLEAVE_PREDICTOR_DIR
    QTemporaryDir user_; // $XDG_DATA_HOME

    fs::path own() const { return own_.path().toStdString(); }
    fs::path user() const { return fs::path(user_.path().toStdString()) / "cleave" / "predictors"; }

private slots:
    void init() {
        QVERIFY(own_.isValid() && user_.isValid());
        ::setenv("CLEAVE_PREDICTOR_DIR", own_.path().toUtf8().constData(), 1);
        ::setenv("XDG_DATA_HOME", user_.path().toUtf8().constData(), 1);
        fs::create_directories(user());
    }

    void cleanup() {
        for (const auto& folder : {own(), user()})
            for (const auto& entry : fs::directory_iterator(folder))
                fs::remove(entry.path());
    }

    void foldersInSearchOrder() {
        const auto folders = predictor_folders();
        QCOMPARE(folders.size(), std::size_t{3});
        QCOMPARE(folders[0], own());
        QCOMPARE(folders[1], user());
        QVERIFY(folders[2].string().ends_with("share/cleave/predictors"));
        ::unsetenv("CLEAVE_PREDICTOR_DIR");
        QCOMPARE(predictor_folders().front(), user());
    }

    void theFirstFolderHoldingTheIdWins() {
        QVERIFY(!shipped_predictor("test-board"));
        write_predictor(user() / "test-board.json.xz", "test-board", "user-rules");
        QCOMPARE(shipped_predictor("test-board").value_or(""), user() / "test-board.json.xz");
        write_predictor(own() / "test-board.json.xz", "test-board", "own-rules");
        QCOMPARE(shipped_predictor("test-board").value_or(""), own() / "test-board.json.xz");
        // In one folder, the plain file first.
        write_predictor(own() / "test-board.json", "test-board", "plain-rules");
        QCOMPARE(shipped_predictor("test-board").value_or(""), own() / "test-board.json");
        QCOMPARE(predictor_for(board(), "", "").rules, std::string("plain-rules"));
    }

    void theShippedFolderIsSearchedToo() {
        const auto shipped = shipped_predictor("xeon-ort-1t");
        QVERIFY(shipped);
        QCOMPARE(shipped->filename().string(), std::string("xeon-ort-1t.json.xz"));
    }

    void withoutAFileTheSpecGivesARoofline() {
        const auto p = predictor_for(board(), "", "");
        QCOMPARE(p.kind, std::string("roofline"));
        QCOMPARE(p.rules, std::string("ort-cpu"));
        QCOMPARE(p.device, std::string("test-board"));
        QVERIFY(p.file.empty());
        QCOMPARE(predictor_for(board(), "", "tflite-gpu").rules, std::string("tflite-gpu"));
    }

    void aNamedFileMustBeForTheDevice() {
        const auto path = (own() / "other.json").string();
        write_predictor(path, "other-board", "named-rules");
        const auto p = predictor_for(board("other-board"), path, "");
        QCOMPARE(p.rules, std::string("named-rules"));
        QCOMPARE(p.file, path);
        try {
            predictor_for(board(), path, "");
            QFAIL("took a predictor trained for another device");
        } catch (const InputError& e) {
            QCOMPARE(e.file(), path);
            QCOMPARE(e.place(), std::string("/device"));
            QCOMPARE(e.problem(),
                     std::string("the predictor is for device 'other-board', not 'test-board'; "
                                 "train one for test-board (cleave train --device test-board)"));
        }
        QCOMPARE(predictor_for(board(), path, "", true).device, std::string("other-board"));
    }
};

QTEST_GUILESS_MAIN(PredictorLibraryTest)
#include "predictor_library_test.moc"
