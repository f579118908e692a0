// ONNX's own conformance models (Debian's libonnx-testdata): every model loads or is refused
// with a message, none crashes, and the inferred shapes of graph outputs equal the recorded ones
// at least as often as when the floors below were measured, so a regression fails.
#include "conformance_suite.hpp"

#include <QtTest>

using cleave::conformance::CaseNote;
using cleave::conformance::SuiteResult;

namespace {

const char* const kTestData = "/usr/share/libonnx-testdata/data";

// Measured 2026-11-22 with libonnx-testdata 1.12.0; docs/conformance.md explains the rest.
// Python onnx 1.12 (load + infer_shapes): 1,049 and 851 of 1,051.
constexpr int kModels = 1072;
constexpr int kCompared = 1051; // the rest have an output that is a sequence, map or optional
constexpr int kMinMatchedDeclared = 1049;
constexpr int kMinMatchedReinferred = 904;
constexpr double kHangLimitS = 30; // one load; the whole suite takes about a second

void print(const SuiteResult& r) {
    qInfo("%s", cleave::conformance::summary(r).c_str());
    const auto list = [](const std::vector<CaseNote>& notes, const char* kind) {
        for (const auto& note : notes)
            qInfo("  %s %s: %s", kind, note.name.c_str(), note.text.c_str());
    };
    list(r.crashes, "CRASHED");
    list(r.refusals, "refused");
    list(r.mismatches, "mismatch");
    list(r.slow, "slow");
}

QByteArray below_floor(int matched, int floor) {
    return QByteArray::number(matched) + " match, fewer than the " + QByteArray::number(floor) +
           " measured";
}

} // namespace

class OnnxConformanceTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QVERIFY2(std::filesystem::is_directory(kTestData),
                 "no /usr/share/libonnx-testdata/data: install Debian's libonnx-testdata "
                 "(listed in scripts/debian-packages.txt; scripts/setup.sh installs it)");
        const auto cases = cleave::conformance::find_cases(kTestData);
        declared_ = cleave::conformance::run_suite(cases, true, kHangLimitS);
        reinferred_ = cleave::conformance::run_suite(cases, false, kHangLimitS);
        print(declared_);
        print(reinferred_);
    }

    void everyModelIsFound() {
        QCOMPARE(declared_.models, kModels);
        QCOMPARE(declared_.compared, kCompared);
    }

    void noModelCrashesTheImporter() {
        QCOMPARE(declared_.crashed, 0);
        QCOMPARE(reinferred_.crashed, 0);
    }

    void everyModelLoads() {
        QCOMPARE(declared_.loaded, kModels);
        QCOMPARE(reinferred_.loaded, kModels);
    }

    void declaredShapesMatchRecordedOutputs() {
        QVERIFY2(declared_.matched >= kMinMatchedDeclared,
                 below_floor(declared_.matched, kMinMatchedDeclared).constData());
    }

    void reinferredShapesMatchRecordedOutputs() {
        QVERIFY2(reinferred_.matched >= kMinMatchedReinferred,
                 below_floor(reinferred_.matched, kMinMatchedReinferred).constData());
    }

private:
    SuiteResult declared_;
    SuiteResult reinferred_;
};

QTEST_GUILESS_MAIN(OnnxConformanceTest)
#include "onnx_conformance_test.moc"
