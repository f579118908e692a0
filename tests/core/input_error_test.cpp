// An InputError's message joins what it was given: the file, the place inside it and the
// problem, leaving out what is empty, so a flag's error reads as well as a file's.
#include "core/input_error.hpp"

#include <QtTest>

using cleave::InputError;

class InputErrorTest : public QObject {
    Q_OBJECT

private slots:
    void messageJoinsFilePlaceAndProblem() {
        const InputError e("cluster.json", "/devices/2/id", "expected a string");
        QCOMPARE(std::string(e.what()),
                 std::string("cluster.json: /devices/2/id: expected a string"));
        QCOMPARE(e.file(), std::string("cluster.json"));
        QCOMPARE(e.place(), std::string("/devices/2/id"));
        QCOMPARE(e.problem(), std::string("expected a string"));
    }

    void aFlagHasNoFile() {
        const InputError e("", "--threads", "expected a whole number above 0");
        QCOMPARE(std::string(e.what()), std::string("--threads: expected a whole number above 0"));
        QCOMPARE(e.file(), std::string());
    }

    void aWholeFileHasNoPlace() {
        const InputError e("model.onnx", "", "no such file");
        QCOMPARE(std::string(e.what()), std::string("model.onnx: no such file"));
        QCOMPARE(e.place(), std::string());
    }

    void neitherLeavesTheProblemAlone() {
        QCOMPARE(std::string(InputError("", "", "nothing to do").what()),
                 std::string("nothing to do"));
    }

    void itIsARuntimeError() {
        try {
            throw InputError("a", "b", "c");
        } catch (const std::runtime_error& e) {
            QCOMPARE(std::string(e.what()), std::string("a: b: c"));
            return;
        }
        QFAIL("not caught as a std::runtime_error");
    }
};

QTEST_GUILESS_MAIN(InputErrorTest)
#include "input_error_test.moc"
