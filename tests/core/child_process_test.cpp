// ChildProcess against real programs: bytes written to cat come back line by line and counted,
// across its read-ahead; a process that ends names itself, what was being done and its log; one
// that cannot start says so.
#include "core/child_process.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <string>
#include <vector>

using namespace cleave;

class ChildProcessTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

private slots:
    void linesAndBytesComeBack() {
        ChildProcess cat({"/bin/cat"}, dir_.filePath("cat.log").toStdString());
        // Under a pipe's 64 KiB, so cat never waits for this side to read.
        std::vector<unsigned char> bytes(40000);
        for (std::size_t i = 0; i < bytes.size(); ++i)
            bytes[i] = static_cast<unsigned char>(i * 7);
        cat.write("{\"header\": 1}\n", "send a header");
        cat.write(bytes.data(), bytes.size(), "send bytes");
        cat.write("after\n", "send a line");
        QCOMPARE(cat.read_line("read the header"), std::string("{\"header\": 1}"));
        std::vector<unsigned char> back(bytes.size());
        cat.read(back.data(), back.size(), "read bytes");
        QVERIFY(back == bytes);
        QCOMPARE(cat.read_line("read the line"), std::string("after"));
        QCOMPARE(cat.finish(), 0);
    }

    void anEndedProcessIsNamedWithItsLog() {
        ChildProcess shell({"/bin/sh", "-c", "echo broken >&2; exit 3"},
                           dir_.filePath("sh.log").toStdString());
        try {
            shell.read_line("read an answer");
            QFAIL("no error");
        } catch (const std::runtime_error& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("could not read an answer: the process ended") != std::string::npos,
                     what.c_str());
            QVERIFY2(what.find("broken") != std::string::npos, what.c_str());
        }
        std::vector<char> buffer(4);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                                 shell.read(buffer.data(), buffer.size(), "read bytes"));
    }

    void aMissingProgramCannotStart() {
        QVERIFY_THROWS_EXCEPTION(
            std::runtime_error,
            ChildProcess({dir_.filePath("none").toStdString()}, dir_.filePath("x.log").toStdString()));
    }
};

QTEST_GUILESS_MAIN(ChildProcessTest)
#include "child_process_test.moc"
