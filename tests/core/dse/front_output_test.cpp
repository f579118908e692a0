// What a search explored beyond its front (SearchSettings::report_population: every distinct
// mapping of each generation, infeasible ones with their true figures) and the front written as
// cleave dse's JSON and as CSV, read back unchanged. resnet18 on the 16 PEs of nx8, with a memory
// capacity small enough that no single board can hold the model.
#include "core/device/cluster.hpp"
#include "core/dse/exploration_inputs.hpp"
#include "core/dse/front_output.hpp"
#include "core/dse/nsga2_search.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"

#include <QtTest>
#include <set>
#include <sstream>

using namespace cleave;

namespace {

std::unique_ptr<dse::ExplorationInputs> resnet18_on_nx8() {
    return dse::prepare_exploration(
        graph::load_model(CLEAVE_EXAMPLE_MODELS_DIR "/resnet18.onnx"),
        device::load_cluster(CLEAVE_EXAMPLE_CLUSTERS_DIR "/nx8.cluster.json"), {});
}

dse::SearchSettings small(int generations = 40) {
    dse::SearchSettings settings;
    settings.population = 16;
    settings.generations = generations;
    settings.levels = 1;
    return settings;
}

} // namespace

class FrontOutputTest : public QObject {
    Q_OBJECT

    std::unique_ptr<dse::ExplorationInputs> inputs_ = resnet18_on_nx8();

private slots:
    void populationsAreReportedOnlyWhenAsked() {
        int reports = 0, withPopulation = 0;
        dse::run_search(*inputs_->space, small(), [&](const dse::Generation& g) {
            QCOMPARE(g.serial, reports++);
            withPopulation += g.population.empty() ? 0 : 1;
        });
        QCOMPARE(withPopulation, 0);
    }

    // 30 MB per device: ResNet-18's ~45 MB of weights do not fit on one GPU.
    void infeasibleMappingsAreReportedWithTheirTrueFigures() {
        const auto& space = *inputs_->space;
        const std::vector<std::optional<std::int64_t>> tight(inputs_->cluster.hosts.size(),
                                                             std::int64_t{30'000'000});
        const dse::MappingSpace small_devices(space.costs(), space.pes(), tight,
                                              space.objectives());
        auto settings = small();
        settings.report_population = true;
        int infeasible = 0, feasible = 0, serial = 0;
        std::vector<dse::Solution> last_front;
        const auto result = dse::run_search(small_devices, settings, [&](const dse::Generation& g) {
            QCOMPARE(g.serial, serial++);
            QVERIFY(!g.population.empty());
            QVERIFY(static_cast<int>(g.population.size()) <= settings.population);
            std::set<std::pair<std::vector<int>, std::vector<int>>> distinct;
            dse::MappingSpace::Scratch scratch;
            for (const auto& s : g.population) {
                QVERIFY(distinct.insert({s.mapping.points, s.mapping.pes}).second);
                QVERIFY(s.generation <= g.serial);
                const auto figures = small_devices.figures(s.mapping, g.phase->level, scratch);
                QCOMPARE(s.feasible, figures.feasible());
                const auto raw = small_devices.raw_objectives(figures);
                for (std::size_t j = 0; j < raw.size(); ++j)
                    QVERIFY(std::abs(raw[j] - s.objectives[j]) <= 1e-9 * raw[j]);
                QVERIFY(s.normalised[0] < 1e3); // no penalty
                (s.feasible ? feasible : infeasible) += 1;
            }
            for (const auto& s : g.front) {
                QVERIFY(s.feasible);
                QVERIFY(s.generation <= g.serial);
            }
            last_front = g.front;
        });
        QVERIFY(infeasible > 0);
        QVERIFY(feasible > 0);
        QVERIFY(!result.front.empty());
        for (const auto& s : result.front)
            QVERIFY(s.objectives[1] <= 30'000'000);
    }

    void frontJsonReadsBackAsWritten() {
        const auto result = dse::run_search(*inputs_->space, small(200));
        QVERIFY(result.front.size() >= 2);
        const auto names = dse::objective_names(inputs_->space->objectives());
        const auto& cluster = inputs_->cluster;
        const auto json =
            nlohmann::json::parse(dse::front_json(result.front, names, cluster).dump());
        QCOMPARE(json.size(), result.front.size());
        QCOMPARE(json[0]["pes"][0].get<std::string>(),
                 cluster.pes[static_cast<std::size_t>(result.front[0].mapping.pes[0])].key);
        for (std::size_t i = 0; i < json.size(); ++i) {
            const auto s = dse::solution_from_json(json[i], names, cluster, "front.json",
                                                   "/front/" + std::to_string(i));
            const auto& t = result.front[i];
            QCOMPARE(s.mapping.points, t.mapping.points);
            QCOMPARE(s.mapping.pes, t.mapping.pes);
            QCOMPARE(s.objectives, t.objectives);
            QCOMPARE(s.normalised, t.normalised);
            QCOMPARE(s.throughput_per_s, t.throughput_per_s);
            QCOMPARE(s.stage, t.stage);
            QCOMPARE(s.level, t.level);
        }
        const auto history =
            dse::history_from_json(nlohmann::json::parse(dse::history_json(result.history).dump()),
                                   "front.json", "/hypervolume");
        QCOMPARE(history.size(), result.history.size());
        QCOMPARE(history.back().hypervolume, result.history.back().hypervolume);
        QCOMPARE(history.back().evaluations, result.history.back().evaluations);

        // A PE the cluster lacks is named with its place.
        auto bad = json[1];
        bad["pes"][0] = "nx99_gpu";
        try {
            dse::solution_from_json(bad, names, cluster, "front.json", "/front/1");
            QFAIL("accepted an unknown PE");
        } catch (const InputError& e) {
            QCOMPARE(QString::fromStdString(e.place()), QString("/front/1/pes/0"));
            QVERIFY(std::string(e.what()).find("nx99_gpu") != std::string::npos);
        }
    }

    void csvHasOneRowPerSolution() {
        const auto result = dse::run_search(*inputs_->space, small(200));
        QVERIFY(result.front.size() >= 2);
        const auto names = dse::objective_names(inputs_->space->objectives());
        const auto csv = dse::front_csv(result.front, names, inputs_->cluster);
        std::istringstream lines(csv);
        std::string line;
        std::getline(lines, line);
        QCOMPARE(QString::fromStdString(line),
                 QString("throughput_per_s,bottleneck_ms,max_memory_bytes,max_energy_mj,stage,"
                         "level,generation,feasible,points,pes"));
        std::size_t rows = 0;
        while (std::getline(lines, line)) {
            const auto& s = result.front[rows++];
            // The numbers read back exactly; the mapping is quoted.
            QCOMPARE(std::stod(line.substr(0, line.find(','))), s.throughput_per_s);
            std::string pes;
            for (const int pe : s.mapping.pes)
                pes += (pes.empty() ? "" : ",") +
                       inputs_->cluster.pes[static_cast<std::size_t>(pe)].key;
            QVERIFY(line.ends_with(",\"" + pes + "\""));
        }
        QCOMPARE(rows, result.front.size());
    }
};

QTEST_APPLESS_MAIN(FrontOutputTest)
#include "front_output_test.moc"
