// The one protocol of long work (core/task_control.hpp) on real operations: a cancel from another
// thread stops an import with cleave::Cancelled and no model; fractions rise to 1; a pause holds
// the work until resumed (or cancelled); a child control stops with its parent but not the other
// way round; an import or a layout cancelled at its first report goes no further.
#include "core/graph/onnx_import.hpp"
#include "core/layout/graph_layout.hpp"
#include "core/modelgen/model_writer.hpp"
#include "core/modelgen/simulation_spaces.hpp"
#include "core/task_control.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace cleave;

namespace {

// A generated network written into `dir`, as a calibration writes its pool.
std::filesystem::path generated_model(const QTemporaryDir& dir) {
    const auto spec = modelgen::simulation_models(1, 3, "blocks").front();
    return std::filesystem::path(dir.path().toStdString()) /
           modelgen::write_model(spec, dir.path().toStdString(), 3).file;
}

const graph::Model& resnet18() {
    static const graph::Model model =
        graph::load_model(std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx");
    return model;
}

// Runs `work` on a thread of its own; what it threw, if anything, comes back from join().
class Worker {
public:
    template <typename Work>
    explicit Worker(Work work)
        : thread_([this, work = std::move(work)]() mutable {
              try {
                  work();
              } catch (...) {
                  error_ = std::current_exception();
              }
          }) {}
    std::exception_ptr join() {
        thread_.join();
        return error_;
    }

private:
    std::exception_ptr error_;
    std::thread thread_;
};

bool cancelled(const std::exception_ptr& error) {
    try {
        if (error)
            std::rethrow_exception(error);
    } catch (const Cancelled&) {
        return true;
    } catch (...) {
    }
    return false;
}

// Waits (yielding) until `done` holds or `limit` has passed; whether it held.
template <typename Done>
bool wait_for(Done done, std::chrono::milliseconds limit = std::chrono::seconds(30)) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (!done()) {
        if (std::chrono::steady_clock::now() > until)
            return false;
        std::this_thread::yield();
    }
    return true;
}

} // namespace

class TaskControlTest : public QObject {
    Q_OBJECT

private slots:
    void cancelFromAnotherThreadStopsAnImport() {
        QTemporaryDir dir;
        const auto file = generated_model(dir);
        std::atomic<int> reports = 0;
        // The first report waits for the other thread's cancel, so the import is under way
        // when it comes.
        TaskControl control([&](const TaskProgress&) {
            ++reports;
            while (!control.cancelled())
                std::this_thread::yield();
        });
        std::optional<graph::Model> model;
        Worker worker([&] {
            graph::LoadOptions options;
            options.control = &control;
            model = graph::load_model(file, options);
        });
        QVERIFY(wait_for([&] { return reports > 0; }));
        control.cancel();
        QVERIFY(cancelled(worker.join()));
        QCOMPARE(reports.load(), 1); // stopped at the first report
        QVERIFY(!model);
        // Uncancelled, the same file loads.
        QVERIFY(graph::load_model(file).nodes.size() > 10);
    }

    void importFractionsRiseToOne() {
        std::vector<double> fractions;
        std::vector<std::string> stages;
        const TaskControl control([&](const TaskProgress& report) {
            fractions.push_back(report.fraction.value());
            stages.emplace_back(report.stage);
        });
        graph::LoadOptions options;
        options.control = &control;
        const auto model =
            graph::load_model(std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx", options);
        QCOMPARE(model.nodes.size(), resnet18().nodes.size());
        QVERIFY(fractions.size() >= 5);
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        QVERIFY(fractions.front() >= 0);
        QCOMPARE(fractions.back(), 1.0);
        QCOMPARE(stages.front(), std::string("reading"));
        QCOMPARE(stages.back(), std::string("done"));
    }

    void layoutFractionsRiseToOne() {
        std::vector<double> fractions;
        const TaskControl control(
            [&](const TaskProgress& report) { fractions.push_back(report.fraction.value()); });
        layout::LayoutOptions options;
        options.control = &control;
        QCOMPARE(layout::layout_graph(resnet18(), options).nodes.size(), resnet18().nodes.size());
        QVERIFY(fractions.size() >= 2);
        QVERIFY(std::is_sorted(fractions.begin(), fractions.end()));
        QCOMPARE(fractions.front(), 0.0);
        QCOMPARE(fractions.back(), 1.0);
    }

    void pauseHoldsTheWorkUntilResumed() {
        constexpr int kSteps = 50;
        std::atomic<int> reported = 0, passed = 0;
        TaskControl control([&](const TaskProgress&) { ++reported; });
        control.pause();
        Worker worker([&] {
            for (int i = 0; i < kSteps; ++i) {
                control.report({.fraction = static_cast<double>(i) / kSteps, .stage = "step"});
                ++passed;
            }
        });
        QVERIFY(wait_for([&] { return reported > 0; }));
        // Held after its first report: nothing passes it while paused.
        QVERIFY(!wait_for([&] { return passed > 0; }, std::chrono::milliseconds(100)));
        QCOMPARE(reported.load(), 1);
        QVERIFY(control.paused());
        control.resume();
        QVERIFY(!worker.join());
        QCOMPARE(passed.load(), kSteps);
        QCOMPARE(reported.load(), kSteps);
    }

    void cancelReleasesPausedWork() {
        TaskControl control;
        control.pause();
        std::atomic<bool> started = false;
        Worker worker([&] {
            started = true;
            control.check();
        });
        QVERIFY(wait_for([&] { return started.load(); }));
        control.cancel();
        QVERIFY(cancelled(worker.join()));
    }

    void aChildStopsWithItsParentOnly() {
        std::vector<std::string> parent_stages, child_stages;
        TaskControl parent([&](const TaskProgress& r) { parent_stages.emplace_back(r.stage); });
        TaskControl child(&parent,
                          [&](const TaskProgress& r) { child_stages.emplace_back(r.stage); });
        child.report({.fraction = 0.5, .stage = "inner"});
        QCOMPARE(child_stages, std::vector<std::string>{"inner"});
        QVERIFY(parent_stages.empty()); // a child's progress is its own

        child.cancel();
        QVERIFY_THROWS_EXCEPTION(Cancelled, child.check());
        parent.check(); // cancelling the child leaves the parent running
        QVERIFY(!parent.cancelled());

        const TaskControl other(&parent);
        other.check();
        parent.cancel();
        QVERIFY(other.cancelled());
        QVERIFY_THROWS_EXCEPTION(Cancelled, other.check());
    }

    void noControlReportsNothingAndNeverStops() {
        checkpoint(nullptr);
        report_progress(nullptr, {.fraction = 1.0, .stage = "done"});
        QCOMPARE(graph::load_model(std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx")
                     .nodes.size(),
                 resnet18().nodes.size());
    }

    void importCancelledAtItsFirstReportGoesNoFurther() {
        QTemporaryDir dir;
        const auto file = generated_model(dir);
        std::vector<std::string> stages;
        TaskControl control([&](const TaskProgress& report) {
            stages.emplace_back(report.stage);
            control.cancel();
        });
        graph::LoadOptions options;
        options.control = &control;
        std::optional<graph::Model> model;
        QVERIFY_THROWS_EXCEPTION(Cancelled, model = graph::load_model(file, options));
        QVERIFY(!model);
        QCOMPARE(stages, std::vector<std::string>{"reading"});
    }

    void layoutCancelledAtItsFirstReportGoesNoFurther() {
        int reports = 0;
        TaskControl control([&](const TaskProgress&) {
            ++reports;
            control.cancel();
        });
        layout::LayoutOptions options;
        options.control = &control;
        std::optional<layout::GraphLayout> laid_out;
        QVERIFY_THROWS_EXCEPTION(Cancelled, laid_out = layout::layout_graph(resnet18(), options));
        QVERIFY(!laid_out);
        QCOMPARE(reports, 1);
    }
};

QTEST_GUILESS_MAIN(TaskControlTest)
#include "task_control_test.moc"
