// The search on resnet18 and the eight Jetson Xavier NX: all 16 PEs searchable, the GPUs fastest;
// on the eight GPUs (--max-pes 8), stages and levels, the evaluation budget, seeds, cancel,
// pause, bad settings, and fronts that hold what they claim. Small populations keep it to
// seconds.
#include "core/device/cluster.hpp"
#include "core/dse/exploration_inputs.hpp"
#include "core/dse/nsga2_search.hpp"
#include "core/dse/pareto_front.hpp"
#include "core/dse/stage_seeds.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"

#include <QtTest>
#include <chrono>
#include <thread>

using namespace cleave;

namespace {

std::unique_ptr<dse::ExplorationInputs> resnet18_on_nx8(dse::ExplorationOptions options = {}) {
    return dse::prepare_exploration(
        graph::load_model(CLEAVE_EXAMPLE_MODELS_DIR "/resnet18.onnx"),
        device::load_cluster(CLEAVE_EXAMPLE_CLUSTERS_DIR "/nx8.cluster.json"), options);
}

// The eight fastest PEs of nx8: its GPUs, the setting the stage tests below are written for.
dse::ExplorationOptions eight_fastest() {
    dse::ExplorationOptions options;
    options.max_pes = 8;
    return options;
}

// 80 generations of 16 are the fewest that leave every phase of 3 stages x 2 levels a generation.
dse::SearchSettings small(int generations = 80) {
    dse::SearchSettings settings;
    settings.population = 16;
    settings.generations = generations;
    return settings;
}

QString place_of(const std::function<void()>& run) {
    try {
        run();
    } catch (const InputError& e) {
        return QString::fromStdString(e.place());
    }
    return {};
}

} // namespace

class Nsga2SearchTest : public QObject {
    Q_OBJECT

    std::unique_ptr<dse::ExplorationInputs> inputs_ = resnet18_on_nx8(eight_fastest());

private slots:
    void everyNxPeIsSearchableTheGpusFirst() {
        // The Carmel CPUs are costed on their derived peak (182.4 GFLOP/s against the GPU's
        // 844.8), so all 16 PEs are searched, the slower CPUs after the GPUs.
        const auto all = resnet18_on_nx8();
        QCOMPARE(all->space->pes().size(), std::size_t(16));
        QVERIFY(all->searchable.notes.empty());
        for (std::size_t i = 0; i < 16; ++i)
            QCOMPARE(all->cluster.pes[static_cast<std::size_t>(all->space->pes()[i])].kind,
                     i < 8 ? device::PeKind::gpu : device::PeKind::cpu);
        QCOMPARE(dse::plan_search(small(120), 16).size(), std::size_t(8)); // 4 stages x 2 levels
    }

    void maxPesKeepsTheEightGpus() {
        QCOMPARE(inputs_->space->pes().size(), std::size_t(8));
        for (const int pe : inputs_->space->pes())
            QCOMPARE(inputs_->cluster.pes[static_cast<std::size_t>(pe)].kind, device::PeKind::gpu);
        QVERIFY(inputs_->notes[0].find("searching the 8 fastest of 16") != std::string::npos);
    }

    void stagesDoubleThePesUpToAll() {
        auto settings = small();
        const auto plan = dse::plan_search(settings, 8);
        QCOMPARE(plan.size(), std::size_t(6)); // ceil(log2 8) = 3 stages x 2 levels
        const std::vector<int> pes{2, 2, 4, 4, 8, 8};
        std::int64_t evaluations = 0;
        for (std::size_t i = 0; i < plan.size(); ++i) {
            QCOMPARE(plan[i].pes, pes[i]);
            QCOMPARE(plan[i].level, i % 2 ? dse::Level::replay : dse::Level::analytical);
            QCOMPARE(plan[i].evaluations, std::int64_t(16) * (plan[i].generations + 1));
            evaluations += plan[i].evaluations;
        }
        QVERIFY(evaluations <= 16 * 81);
        QVERIFY(evaluations > 16 * 81 - 16);
        // Stages share the budget in proportion to their PEs: 2, 4, 8 of 14.
        QVERIFY(plan[4].evaluations + plan[5].evaluations > 16 * 81 * 8 / 14 - 16);
        QCOMPARE(dse::plan_search(settings, 5).back().pes, 5);
        settings.stages = 1;
        settings.levels = 1;
        QCOMPARE(dse::plan_search(settings, 8).size(), std::size_t(1));
        QCOMPARE(dse::plan_search(settings, 8)[0].generations, 80);
    }

    void everyEvaluationCountsOnceAgainstTheBudget() {
        auto settings = small();
        settings.evaluation_budget = 16 * 100;
        int reports = 0;
        std::int64_t last = 0;
        const auto result =
            dse::run_search(*inputs_->space, settings, [&](const dse::Generation& g) {
                ++reports;
                QVERIFY(g.evaluations >= last);
                last = g.evaluations;
            });
        std::int64_t planned = 0;
        int generations = 0;
        for (const auto& phase : result.plan) {
            planned += phase.evaluations;
            generations += phase.generations + 1;
        }
        QCOMPARE(result.evaluations, planned);
        QCOMPARE(last, planned);
        QVERIFY(planned <= settings.evaluation_budget);
        QCOMPARE(reports, generations);
        QCOMPARE(static_cast<int>(result.history.size()), generations);
    }

    void stalledStagesPassTheirEvaluationsOn() {
        auto settings = small(400);
        settings.levels = 1;
        settings.stage_patience = 5;
        const auto planned = dse::plan_search(settings, 8);
        std::vector<int> ended;
        const auto result =
            dse::run_search(*inputs_->space, settings, [&](const dse::Generation& g) {
                if (g.phase_end)
                    ended.push_back(g.generation);
            });
        QCOMPARE(ended.size(), std::size_t(3));
        // The 2-PE stage of resnet18 stops improving long before its planned generations.
        QVERIFY(result.plan[0].generations < planned[0].generations);
        QCOMPARE(ended[0], result.plan[0].generations);
        QVERIFY(result.plan.back().generations > planned.back().generations);
        std::int64_t budget = 0;
        for (const auto& phase : planned)
            budget += phase.evaluations;
        QVERIFY(result.evaluations <= budget);
        QVERIFY(result.evaluations > budget - 3 * settings.population);
        settings.stage_patience = 0;
        const auto as_planned = dse::run_search(*inputs_->space, settings);
        for (std::size_t i = 0; i < planned.size(); ++i)
            QCOMPARE(as_planned.plan[i].generations, planned[i].generations);
    }

    void nextStageStartsFromThePreviousFrontRefined() {
        auto settings = small(200);
        settings.levels = 1;
        settings.stage_patience = 0;
        settings.report_population = true;
        std::vector<partition::Mapping> stage_one_front;
        std::vector<std::string> stage_two_start;
        dse::run_search(*inputs_->space, settings, [&](const dse::Generation& g) {
            if (g.phase_index == 0 && g.phase_end)
                for (const auto& s : g.front)
                    stage_one_front.push_back(s.mapping);
            if (g.phase_index == 1 && g.generation == 0)
                for (const auto& s : g.population)
                    stage_two_start.push_back(dse::mapping_id(s.mapping));
        });
        QVERIFY(!stage_one_front.empty());
        for (const auto& mapping : stage_one_front) {
            const auto contains = [&](const partition::Mapping& m) {
                return std::find(stage_two_start.begin(), stage_two_start.end(),
                                 dse::mapping_id(m)) != stage_two_start.end();
            };
            QVERIFY(contains(mapping));
            QVERIFY(contains(dse::split_longest_segments(*inputs_->space, mapping, 2, 4)));
            QVERIFY(contains(
                dse::split_longest_segments(*inputs_->space, mapping, 2, 4, dse::Balance::memory)));
        }
    }

    void sameSeedRepeatsTheRun() {
        auto settings = small();
        settings.seed = 42;
        const auto a = dse::run_search(*inputs_->space, settings);
        const auto b = dse::run_search(*inputs_->space, settings);
        QCOMPARE(a.front.size(), b.front.size());
        for (std::size_t i = 0; i < a.front.size(); ++i) {
            QCOMPARE(a.front[i].mapping.points, b.front[i].mapping.points);
            QCOMPARE(a.front[i].mapping.pes, b.front[i].mapping.pes);
            QCOMPARE(a.front[i].objectives, b.front[i].objectives);
        }
        QCOMPARE(a.history.back().hypervolume, b.history.back().hypervolume);
        settings.seed = 43;
        const auto c = dse::run_search(*inputs_->space, settings);
        bool differs = c.front.size() != a.front.size();
        for (std::size_t i = 0; !differs && i < a.front.size(); ++i)
            differs = a.front[i].objectives != c.front[i].objectives;
        QVERIFY(differs);
    }

    void frontIsNonDominatedAndTrue() {
        auto settings = small();
        settings.levels = 1;
        const auto result = dse::run_search(*inputs_->space, settings);
        QVERIFY(!result.front.empty());
        std::vector<std::vector<double>> points;
        dse::MappingSpace::Scratch scratch;
        for (const auto& s : result.front) {
            points.push_back(s.normalised);
            // The objectives are those of the mapping, evaluated afresh.
            const auto raw = inputs_->space->raw_objectives(
                inputs_->space->figures(s.mapping, dse::Level::analytical, scratch));
            for (std::size_t j = 0; j < raw.size(); ++j)
                QVERIFY(std::abs(raw[j] - s.objectives[j]) <= 1e-9 * raw[j]);
            QCOMPARE(s.throughput_per_s, 1000 / s.objectives[0]);
            QVERIFY(s.stage >= 1 && s.stage <= 3);
        }
        QCOMPARE(dse::non_dominated(points).size(), points.size());
        // The search improves on its random start.
        QVERIFY(result.history.back().hypervolume > result.history.front().hypervolume);
    }

    void naiveEncodingSearchesToo() {
        // On resnet18's kernels nearly every naive mapping has PEs waiting on each other, which
        // cannot run (docs/dse.md); AlexNet's 13 kernels leave room to find ones that can.
        const auto alexnet = dse::prepare_exploration(
            graph::load_model(CLEAVE_EXAMPLE_MODELS_DIR "/alexnet.onnx"),
            device::load_cluster(CLEAVE_EXAMPLE_CLUSTERS_DIR "/nx8.cluster.json"), eight_fastest());
        auto settings = small();
        settings.encoding = dse::Encoding::naive;
        const auto result = dse::run_search(*alexnet->space, settings);
        QVERIFY(!result.front.empty());
        dse::MappingSpace::Scratch scratch;
        for (const auto& s : result.front) {
            QCOMPARE(s.mapping.pes.size(), s.mapping.points.size() + 1);
            QVERIFY(alexnet->space->figures(s.mapping, dse::Level::analytical, scratch).feasible());
        }
    }

    void cancelReturnsTheFrontSoFar() {
        TaskControl control;
        auto settings = small();
        std::vector<dse::Solution> seen;
        const auto result = dse::run_search(
            *inputs_->space, settings,
            [&](const dse::Generation& g) {
                if (g.phase_index == 0 && g.generation == 3) {
                    seen = g.front;
                    control.cancel();
                }
            },
            &control);
        QVERIFY(result.cancelled);
        QCOMPARE(result.history.size(), std::size_t(4)); // generations 0..3
        QCOMPARE(result.evaluations, std::int64_t(16 * 4));
        QVERIFY(!result.front.empty());
        QCOMPARE(result.front.size(), seen.size());
        for (std::size_t i = 0; i < seen.size(); ++i)
            QCOMPARE(result.front[i].objectives, seen[i].objectives);
    }

    void cancelledAtItsFirstReportTheSearchGoesNoFurther() {
        TaskControl control([&](const TaskProgress&) { control.cancel(); });
        int generations = 0;
        const auto result = dse::run_search(
            *inputs_->space, small(), [&](const dse::Generation&) { ++generations; }, &control);
        QVERIFY(result.cancelled);
        QCOMPARE(generations, 1); // the initial population only
        QCOMPARE(result.history.size(), std::size_t(1));
        QCOMPARE(result.evaluations, std::int64_t(16));
        QVERIFY(!result.front.empty());
    }

    void progressFollowsTheEvaluations() {
        std::vector<dse::Generation> steps;
        std::vector<TaskProgress> reports;
        std::vector<std::string> stages;
        const TaskControl control([&](const TaskProgress& report) {
            reports.push_back(report);
            stages.emplace_back(report.stage);
        });
        // Kept: the reports' phases point into its plan.
        const auto result = dse::run_search(
            *inputs_->space, small(),
            [&](const dse::Generation& g) {
                steps.push_back(g);
                steps.back().front.clear();
            },
            &control);
        QVERIFY(!result.cancelled);
        QCOMPARE(reports.size(), steps.size());
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const auto& g = steps[i];
            QCOMPARE(reports[i].fraction.value(),
                     std::min(1.0, static_cast<double>(g.evaluations) / g.budget));
            // A phase's first and last generations are lines that stay.
            QCOMPARE(reports[i].lasting, g.generation == 0 || g.phase_end);
            const std::string stage = "stage " + std::to_string(g.phase->stage) + " (" +
                                      std::to_string(g.phase->pes) + " PEs) level ";
            QVERIFY2(stages[i].starts_with(stage), stages[i].c_str());
        }
        QVERIFY(std::is_sorted(reports.begin(), reports.end(), [](const auto& a, const auto& b) {
            return a.fraction.value() < b.fraction.value();
        }));
    }

    void pauseHoldsTheSearchUntilResumed() {
        TaskControl control;
        auto settings = small(4);
        settings.levels = 1;
        settings.stages = 1;
        std::chrono::steady_clock::time_point paused_at, next_at;
        std::thread resumer;
        const auto result = dse::run_search(
            *inputs_->space, settings,
            [&](const dse::Generation& g) {
                if (g.generation == 1) {
                    control.pause();
                    paused_at = std::chrono::steady_clock::now();
                    resumer = std::thread([&] {
                        std::this_thread::sleep_for(std::chrono::milliseconds(200));
                        control.resume();
                    });
                } else if (g.generation == 2) {
                    next_at = std::chrono::steady_clock::now();
                }
            },
            &control);
        resumer.join();
        QVERIFY(!result.cancelled);
        QCOMPARE(result.history.size(), std::size_t(5));
        QVERIFY(next_at - paused_at >= std::chrono::milliseconds(150));
    }

    void badSettingsAreRefusedNamingTheFlag() {
        const auto& space = *inputs_->space;
        const auto refused = [&](const std::function<void(dse::SearchSettings&)>& change) {
            auto settings = small();
            change(settings);
            return place_of([&] { dse::run_search(space, settings); });
        };
        QCOMPARE(refused([](auto& s) { s.population = 4; }), QString("--population"));
        QCOMPARE(refused([](auto& s) { s.population = 18; }), QString("--population"));
        QCOMPARE(refused([](auto& s) { s.generations = 0; }), QString("--generations"));
        QCOMPARE(refused([](auto& s) { s.levels = 3; }), QString("--levels"));
        QCOMPARE(refused([](auto& s) { s.stages = 2; }), QString("--stages"));
        QCOMPARE(refused([](auto& s) { s.crossover = 1; }), QString("--crossover"));
        QCOMPARE(refused([](auto& s) { s.evaluation_budget = 100; }), QString("--budget"));
        QCOMPARE(refused([](auto& s) { s.reference_point = {2, 2}; }), QString("reference_point"));
        QCOMPARE(place_of([] { dse::check_settings(small(), 1, 50); }), QString("--cluster"));
        QCOMPARE(place_of([] { dse::check_settings(small(), 0, 50); }), QString("--cluster"));
        dse::ExplorationOptions one;
        one.max_pes = 1;
        QCOMPARE(place_of([&] { resnet18_on_nx8(one); }), QString("--cluster"));
    }
};

QTEST_APPLESS_MAIN(Nsga2SearchTest)
#include "nsga2_search_test.moc"
