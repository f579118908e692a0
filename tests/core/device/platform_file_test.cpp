// AutoDiCE's platform.txt in both forms (`nx01, arm, slots=0-5, gpu=NVIDIAVolta (CUDA)` and a
// bare host name): read, written back the same, and the first bad line named by its number.
#include "core/device/platform_file.hpp"
#include "core/input_error.hpp"

#include <QTemporaryDir>
#include <QtTest>

using cleave::device::parse_platform_file;
using cleave::device::platform_file_text;

namespace {

QString error_of(const std::string& text) {
    try {
        parse_platform_file(text, "platform.txt");
    } catch (const cleave::InputError& e) {
        return e.what();
    }
    return {};
}

} // namespace

class PlatformFileTest : public QObject {
    Q_OBJECT

private slots:
    void fullFormReadsHostArchSlotsAndGpu() {
        const auto platform = parse_platform_file(
            "nx01, arm, slots=0-5, gpu=NVIDIAVolta (CUDA)\nlenovo, x86, slots=0\n", "p.txt");
        QCOMPARE(platform.file, std::string("p.txt"));
        QCOMPARE(platform.hosts.size(), std::size_t(2));
        const auto& nx = platform.hosts[0];
        QCOMPARE(nx.line, 1);
        QCOMPARE(nx.host, std::string("nx01"));
        QCOMPARE(nx.arch, std::string("arm"));
        QCOMPARE(nx.slot_range->first, 0);
        QCOMPARE(nx.slot_range->last, 5);
        QCOMPARE(nx.slot_range->count(), 6);
        QCOMPARE(nx.gpu->arch, std::string("NVIDIAVolta"));
        QCOMPARE(nx.gpu->api, std::string("CUDA"));
        QVERIFY(!nx.bare());
        const auto& lenovo = platform.hosts[1];
        QCOMPARE(lenovo.slot_range->count(), 1);
        QVERIFY(!lenovo.gpu);
    }

    void bareHostNamesAreHosts() {
        const auto platform = parse_platform_file("nx01\nnx02\n", "p.txt");
        QCOMPARE(platform.hosts.size(), std::size_t(2));
        QVERIFY(platform.hosts[1].bare());
        QCOMPARE(platform.hosts[1].host, std::string("nx02"));
        QCOMPARE(platform.hosts[1].line, 2);
        QVERIFY(!platform.hosts[1].slot_range);
    }

    void commentsBlankLinesAndSpacingAreIgnored() {
        const auto platform = parse_platform_file(
            "# my cluster\n\n  nx01 ,arm,slots = 0 - 5,  gpu = NVIDIAVolta(CUDA)  # the first\r\n"
            "\t\nnx02, arm, slots=0-5, gpu=NVIDIAVolta\n",
            "p.txt");
        QCOMPARE(platform.hosts.size(), std::size_t(2));
        QCOMPARE(platform.hosts[0].line, 3);
        QCOMPARE(platform.hosts[0].slot_range->count(), 6);
        QCOMPARE(platform.hosts[0].gpu->api, std::string("CUDA"));
        QCOMPARE(platform.hosts[1].line, 5);
        QCOMPARE(platform.hosts[1].gpu->api, std::string());
    }

    void fullFormWritesBackTheSameText() {
        const std::string text = "nx01, arm, slots=0-5, gpu=NVIDIAVolta (CUDA)\n"
                                 "nx02, arm, slots=0-5, gpu=NVIDIAVolta (CUDA)\n"
                                 "lenovo, x86, slots=0\n"
                                 "pi, arm, slots=0-3\n";
        QCOMPARE(platform_file_text(parse_platform_file(text, "p.txt")), text);
    }

    void bareFormWritesBackTheSameText() {
        const std::string text = "nx01\nnx02\nlenovo\n";
        QCOMPARE(platform_file_text(parse_platform_file(text, "p.txt")), text);
    }

    void writingNormalisesSpacingAndDropsComments() {
        const auto platform =
            parse_platform_file("# c\nnx01 ,arm,slots=0 - 5,gpu=NVIDIAVolta( CUDA )\n", "p.txt");
        QCOMPARE(platform_file_text(platform),
                 std::string("nx01, arm, slots=0-5, gpu=NVIDIAVolta (CUDA)\n"));
    }

    void savedFileReadsBack() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("platform.txt").toStdString();
        const auto platform =
            parse_platform_file("nx01, arm, slots=0-5, gpu=NVIDIAVolta (CUDA)\nnx02\n", "p.txt");
        cleave::device::save_platform_file(platform, path);
        const auto again = cleave::device::load_platform_file(path);
        QCOMPARE(again.file, path);
        QCOMPARE(platform_file_text(again), platform_file_text(platform));
        QVERIFY(again.hosts[1].bare());
    }

    void badSlotsNameTheLine() {
        QCOMPARE(error_of("nx01, arm, slots=0-5\nnx02, arm, slots=5-0\n"),
                 QString("platform.txt: line 2: expected slots=FIRST-LAST with 0 <= FIRST <= "
                         "LAST <= 4095 such as slots=0-5, found \"slots=5-0\""));
        QCOMPARE(error_of("# header\n\nnx01, arm, slots=a-b\n"),
                 QString("platform.txt: line 3: expected slots=FIRST-LAST with 0 <= FIRST <= "
                         "LAST <= 4095 such as slots=0-5, found \"slots=a-b\""));
    }

    void badGpuNamesTheLine() {
        QCOMPARE(error_of("nx01, arm, slots=0-5, gpu=NVIDIA Volta (CUDA)\n"),
                 QString("platform.txt: line 1: expected gpu=ARCH (API) such as "
                         "gpu=NVIDIAVolta (CUDA), found \"gpu=NVIDIA Volta (CUDA)\""));
        QCOMPARE(error_of("nx01, arm, slots=0-5, gpu=NVIDIAVolta (CUDA\n"),
                 QString("platform.txt: line 1: expected gpu=ARCH (API) such as "
                         "gpu=NVIDIAVolta (CUDA), found \"gpu=NVIDIAVolta (CUDA\""));
    }

    void missingSlotsIsRefused() {
        QCOMPARE(error_of("nx01\nnx02, arm\n"),
                 QString("platform.txt: line 2: missing slots=FIRST-LAST; expected `HOST, ARCH, "
                         "slots=FIRST-LAST[, gpu=ARCH (API)]` or a bare host name"));
    }

    void unknownAndRepeatedFieldsAreRefused() {
        QCOMPARE(error_of("nx01, arm, slots=0-5, mem=8G\n"),
                 QString("platform.txt: line 1: unknown field \"mem=8G\"; expected "
                         "slots=FIRST-LAST or gpu=ARCH (API)"));
        QCOMPARE(error_of("nx01, arm, slots=0-5, slots=0-3\n"),
                 QString("platform.txt: line 1: slots= given twice; expected it once"));
    }

    void emptyFieldIsRefused() {
        QCOMPARE(error_of("nx01, arm, slots=0-5,\n"),
                 QString("platform.txt: line 1: empty field; expected `HOST, ARCH, "
                         "slots=FIRST-LAST[, gpu=ARCH (API)]` or a bare host name"));
    }

    void hostNamesCannotHoldUnderscores() {
        // '_' joins host and resource in AutoDiCE's keys (nx01_gpu).
        QCOMPARE(error_of("nx_01, arm, slots=0-5\n"),
                 QString("platform.txt: line 1: expected a host name of letters, digits, '-' and "
                         "'.' (fields are separated by commas), found \"nx_01\""));
        QVERIFY(error_of("nx01 arm slots=0-5\n")
                    .startsWith("platform.txt: line 1: expected a "
                                "host name"));
    }

    void hostNamesHaveALengthLimit() {
        // HOST_NAME_MAX: a host's PE keys name the files of an exported package.
        const std::string longest(64, 'h');
        QCOMPARE(error_of(longest + "\n"), QString());
        QCOMPARE(error_of(longest + "h\n"),
                 QString("platform.txt: line 1: expected a host name of at most 64 characters, "
                         "found 65"));
    }

    void aHostTwiceNamesBothLines() {
        QCOMPARE(error_of("nx01\nnx02\n\nnx01\n"),
                 QString("platform.txt: line 4: host nx01 is already on line 1; expected each "
                         "host once"));
    }

    void theFirstBadLineIsTheOneNamed() {
        QVERIFY(
            error_of("nx01\nnx02, arm, slots=x\nnx03, arm\n").startsWith("platform.txt: line 2:"));
    }

    void emptyFileHasNoHosts() {
        QCOMPARE(error_of("# nothing\n\n"),
                 QString("platform.txt: no hosts; expected one line per host such as `nx01, "
                         "arm, slots=0-5, gpu=NVIDIAVolta (CUDA)`"));
    }

    void missingFileIsNamed() {
        QVERIFY_THROWS_EXCEPTION(cleave::InputError,
                                 cleave::device::load_platform_file("/nonexistent/platform.txt"));
    }
};

QTEST_GUILESS_MAIN(PlatformFileTest)
#include "platform_file_test.moc"
