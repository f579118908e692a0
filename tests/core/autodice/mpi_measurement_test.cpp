// Measuring a package from outside MPI, without Open MPI: the launch command the measurement
// builds, and a stand-in launcher (a shell script given as `mpirun`) that writes the run summary
// rank 0 would, fails, or never ends, to check what is read back and how each failure is told.
#include "core/autodice/mpi_measurement.hpp"
#include "core/input_error.hpp"
#include "tiny_package.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <fstream>
#include <sstream>

using namespace cleave;
namespace fs = std::filesystem;

namespace {

// What the MPI runner wrote for two ranks.
const std::string kSummary = R"json({
  "format": "cleave-run-summary", "version": 1, "package": "tiny", "model": "tiny.onnx",
  "runtime": "OpenCV 4.6.0 DNN (CPU)", "ranks": 2, "inputs": 4, "threads": 1,
  "wall_ms": 250.5, "throughput_ips": 15.97, "max_abs_diff": 0.25,
  "per_rank": [
    {"rank": 0, "key": "h1_gpu", "host": "h1", "compute_ms": 120.25,
     "compute_ms_per_input": 30.06, "receive_wait_ms": 0, "send_wait_ms": 1.5,
     "wall_ms": 250.5, "peak_rss_kib": 181234},
    {"rank": 1, "key": "h2_gpu", "host": "h2", "compute_ms": 110,
     "compute_ms_per_input": 27.5, "receive_wait_ms": 40.75, "send_wait_ms": 0,
     "wall_ms": 249, "peak_rss_kib": 170000}]
})json";

std::string read_text(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// An executable shell script `name` in `dir` whose body follows a line that sets $package to the
// argument after run-partition.
fs::path launcher(const QTemporaryDir& dir, const std::string& name, const std::string& body) {
    const fs::path path = fs::path(dir.path().toStdString()) / name;
    std::ofstream(path) << "#!/bin/sh\n"
                           "for a in \"$@\"; do [ \"$previous\" = run-partition ] && package=$a; "
                           "previous=$a; done\n"
                        << body;
    fs::permissions(path, fs::perms::owner_all);
    return path;
}

autodice::MpiLaunch launch_with(const fs::path& mpirun) {
    autodice::MpiLaunch launch;
    launch.mpirun = mpirun.string();
    launch.cleave = "/opt/cleave/bin/cleave";
    return launch;
}

} // namespace

class MpiMeasurementTest : public QObject {
    Q_OBJECT

private slots:
    void everyRankRunsHereUnlessARankfileIsAsked() {
        autodice::MpiLaunch launch;
        launch.cleave = "/opt/cleave/bin/cleave";
        QCOMPARE(autodice::mpirun_command(launch, "work/pkg", "models/tiny.onnx", 3),
                 (std::vector<std::string>{"mpirun", "-np", "3", "--oversubscribe", "--bind-to",
                                           "none", "/opt/cleave/bin/cleave", "run-partition",
                                           "work/pkg", "--model", "models/tiny.onnx", "--threads",
                                           "1", "--timeout-s", "30", "--inputs", "8"}));
        launch.mpirun = "/usr/lib/openmpi/bin/mpirun";
        launch.use_rankfile = true;
        launch.inputs = 32;
        launch.threads = 4;
        launch.rank_timeout_s = 2.5;
        QCOMPARE(autodice::mpirun_command(launch, "work/pkg", "tiny.onnx", 2),
                 (std::vector<std::string>{
                     "/usr/lib/openmpi/bin/mpirun", "-rf", "work/pkg/rankfile", "-np", "2",
                     "/opt/cleave/bin/cleave", "run-partition", "work/pkg", "--model", "tiny.onnx",
                     "--threads", "4", "--timeout-s", "2.5", "--inputs", "32"}));
        // A decoder's generation instead of a stream of inputs.
        launch.prompt_tokens = 128;
        launch.generate = 64;
        launch.sequences = 3;
        const auto decode = autodice::mpirun_command(launch, "work/pkg", "tiny.onnx", 2);
        QCOMPARE(std::vector<std::string>(decode.end() - 6, decode.end()),
                 (std::vector<std::string>{"--prompt-tokens", "128", "--generate", "64",
                                           "--sequences", "3"}));
        QVERIFY(std::find(decode.begin(), decode.end(), "--inputs") == decode.end());
    }

    void theRunSummaryRankZeroWroteIsRead() {
        QTemporaryDir dir;
        const fs::path package = fs::path(dir.path().toStdString()) / "pkg";
        fs::create_directory(package);
        const fs::path summary = fs::path(dir.path().toStdString()) / "summary.json";
        std::ofstream(summary) << kSummary;
        const fs::path arguments = fs::path(dir.path().toStdString()) / "arguments";
        const auto mpirun = launcher(dir, "mpirun",
                                     "printf '%s\\n' \"$@\" > '" + arguments.string() +
                                         "'\necho starting 2 ranks\ncp '" + summary.string() +
                                         "' \"$package/run-summary.json\"\n");
        const auto launch = launch_with(mpirun);
        const auto measured = autodice::measure_package(launch, package, "tiny.onnx", 2);
        QCOMPARE(measured.ranks, 2);
        QCOMPARE(measured.throughput_ips, 15.97);
        QCOMPARE(measured.max_abs_diff, 0.25);
        QCOMPARE(measured.wall_ms, 250.5);
        QCOMPARE(measured.summary, kSummary);
        // The launcher got the command mpirun_command builds, its output went to the log.
        std::string expected;
        for (const auto& arg : autodice::mpirun_command(launch, package, "tiny.onnx", 2))
            if (arg != mpirun.string())
                expected += arg + "\n";
        QCOMPARE(read_text(arguments), expected);
        QCOMPARE(read_text(package / "mpirun.log"), std::string("starting 2 ranks\n"));
    }

    void aFailedJobEndsWithItsLastOutput() {
        QTemporaryDir dir;
        const fs::path package = fs::path(dir.path().toStdString()) / "pkg";
        fs::create_directory(package);
        const auto mpirun = launcher(
            dir, "mpirun", "for i in 1 2 3 4 5 6 7 8 9 10; do echo line $i; done\nexit 3\n");
        try {
            autodice::measure_package(launch_with(mpirun), package, "tiny.onnx", 2);
            QFAIL("a failed job was read");
        } catch (const InputError&) {
            QFAIL("a failed job is no input error");
        } catch (const std::runtime_error& e) {
            const std::string message = e.what();
            QVERIFY2(message.starts_with("the measuring job failed (exit status 3); its last "
                                         "output (" +
                                         (package / "mpirun.log").string() +
                                         "):\n"
                                         "line 3\n"),
                     e.what());
            QVERIFY2(message.ends_with("line 9\nline 10"), e.what());
            QVERIFY2(message.find("line 2\n") == std::string::npos, e.what());
        }
    }

    void aJobWithoutASummaryIsAnError() {
        QTemporaryDir dir;
        const fs::path package = fs::path(dir.path().toStdString()) / "pkg";
        fs::create_directory(package);
        // A summary of an earlier run does not count: it is removed before the job starts.
        std::ofstream(package / "run-summary.json") << kSummary;
        const auto mpirun = launcher(dir, "mpirun", "echo no summary today\n");
        try {
            autodice::measure_package(launch_with(mpirun), package, "tiny.onnx", 2);
            QFAIL("no summary was accepted");
        } catch (const std::runtime_error& e) {
            QCOMPARE(QString(e.what()),
                     QString::fromStdString("the measuring job wrote no " +
                                            (package / "run-summary.json").string() +
                                            "; its last output:\nno summary today"));
        }
        // A summary cut short: refused as the file it is.
        const auto cut =
            launcher(dir, "cut", "echo '{\"format\": ' > \"$package/run-summary.json\"\n");
        try {
            autodice::measure_package(launch_with(cut), package, "tiny.onnx", 2);
            QFAIL("a broken summary was read");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.file()),
                     QString::fromStdString((package / "run-summary.json").string()));
        }
    }

    void aLauncherThatCannotStartNamesTheFlag() {
        QTemporaryDir dir;
        const fs::path package = fs::path(dir.path().toStdString()) / "pkg";
        fs::create_directory(package);
        try {
            autodice::measure_package(launch_with("/nonexistent/mpirun"), package, "tiny.onnx", 2);
            QFAIL("a missing launcher started");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.place()), QString("--measure"));
            QVERIFY2(e.problem().starts_with("could not start Open MPI's launcher "
                                             "'/nonexistent/mpirun' (install openmpi-bin): "),
                     e.what());
        }
    }

    void aJobPastItsTimeIsKilled() {
        QTemporaryDir dir;
        const fs::path package = fs::path(dir.path().toStdString()) / "pkg";
        fs::create_directory(package);
        const auto mpirun = launcher(dir, "mpirun", "echo waiting for ever\nsleep 60\n");
        auto launch = launch_with(mpirun);
        launch.job_timeout_s = 0.2;
        try {
            autodice::measure_package(launch, package, "tiny.onnx", 2);
            QFAIL("an endless job ended");
        } catch (const std::runtime_error& e) {
            QVERIFY2(std::string(e.what()).starts_with(
                         "the measuring job ran past 0.2 s and was killed; its last output (" +
                         (package / "mpirun.log").string() + "):\nwaiting for ever"),
                     e.what());
        }
    }

    // The tiny model's package on h1, h2 and h3: written with its sub-models, measured, and
    // removed again; a failed run keeps it for its log.
    void anAssignmentIsWrittenMeasuredAndRemoved() {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        const auto c = test::tiny_package_case(root);
        const fs::path work = root / "work";
        fs::create_directory(work);
        const fs::path summary = root / "summary.json";
        std::ofstream(summary) << kSummary;
        const auto mpirun = launcher(dir, "mpirun",
                                     "ls \"$package\" > '" + (root / "files").string() + "'\ncp '" +
                                         summary.string() + "' \"$package/run-summary.json\"\n");
        const auto measured = autodice::measure_assignment(launch_with(mpirun), c.model, c.kernels,
                                                           c.assignment, c.cluster, work);
        QCOMPARE(measured.throughput_ips, 15.97);
        QVERIFY(fs::is_empty(work));
        const auto files = read_text(root / "files");
        for (const char* name :
             {"h1_gpu.onnx\n", "h2_gpu.onnx\n", "h3_gpu.onnx\n", "mapping.json\n", "rankfile\n",
              "receiver.json\n", "sender.json\n"})
            QVERIFY2(files.find(name) != std::string::npos, files.c_str());

        const auto failing = launcher(dir, "failing", "echo no MPI here\nexit 1\n");
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, autodice::measure_assignment(
                                                         launch_with(failing), c.model, c.kernels,
                                                         c.assignment, c.cluster, work));
        int kept = 0;
        for (const auto& entry : fs::directory_iterator(work)) {
            ++kept;
            QVERIFY(entry.path().filename().string().starts_with("measure-"));
            QCOMPARE(read_text(entry.path() / "mpirun.log"), std::string("no MPI here\n"));
        }
        QCOMPARE(kept, 1);
    }
};

QTEST_GUILESS_MAIN(MpiMeasurementTest)
#include "mpi_measurement_test.moc"
