// The DSE tab's search as the studio document keeps it, on the four-kernel model of
// tests/core/partition over three Xavier NX hosts: settings and chart choices (a change the
// project keeps only when the user made it), a search's result reported step by step with each
// evaluated mapping classified against the front, the result dropped when the inputs change,
// saved and restored (at once, or once the inputs it was searched over arrive), a state that does
// not fit refused with the reason and nothing changed, and the front exported. The document keeps
// no undo history: applying a solution is the Partition tab's undo step.
#include "../../core/partition/tiny_partition_model.hpp"
#include "core/dse/search_state.hpp"
#include "ui/document/dse_document.hpp"
#include "ui/document/partition_document.hpp"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using cleave::ui::DseDocument;
using cleave::ui::PartitionDocument;
namespace dse = cleave::dse;

namespace {

// The four kernels take k + 1 ms on h1's GPU, 10 (k + 1) on h2's, 0.5 on h3's; CPUs 100 each.
cleave::ui::PartitionInputsPtr tinyInputs() {
    auto model = std::make_shared<const cleave::graph::Model>(cleave::test::tiny_partition_model());
    auto kernels =
        std::make_shared<const cleave::fusion::KernelGraph>(cleave::test::tiny_kernels(*model));
    auto cluster = std::make_shared<const cleave::device::Cluster>(cleave::test::tiny_cluster());
    cleave::ui::PartitionInputs inputs;
    inputs.request = {model, kernels, cluster, "ort-cpu"};
    inputs.kernel_ms = {{100, 100, 100, 100}, {1, 2, 3, 4},         {100, 100, 100, 100},
                        {10, 20, 30, 40},     {100, 100, 100, 100}, {0.5, 0.5, 0.5, 0.5}};
    inputs.pe_errors.assign(6, "");
    inputs.capacity_bytes.assign(6, std::nullopt);
    inputs.costs = std::make_shared<const cleave::partition::MappingCosts>(
        *model, *kernels, *cluster, inputs.kernel_ms);
    inputs.max_kernel_ms = 100;
    return std::make_shared<const cleave::ui::PartitionInputs>(std::move(inputs));
}

dse::Solution solution(std::vector<int> points, std::vector<int> pes,
                       std::vector<double> objectives, int generation, bool feasible = true) {
    dse::Solution s;
    s.mapping = {std::move(points), std::move(pes)};
    s.throughput_per_s = 1000.0 / objectives[0];
    s.normalised = {objectives[0] / 2, objectives[1] / 267264, objectives[2] / 20};
    s.objectives = std::move(objectives);
    s.stage = 1;
    s.generation = generation;
    s.feasible = feasible;
    return s;
}

// Two mappings on the front: a faster one, and one holding and drawing less.
const dse::Solution kLean = solution({2}, {1, 5}, {7, 265216, 38}, 2);
const dse::Solution kFast = solution({1}, {1, 5}, {5, 266240, 50}, 3);
// Evaluated besides: one both beat, one faster than both (found at another level), one that
// does not fit in memory.
const dse::Solution kBeaten = solution({3}, {1, 5}, {9, 266000, 60}, 1);
const dse::Solution kOther = solution({2}, {3, 5}, {4, 300000, 45}, 2);
const dse::Solution kOverflow = solution({1}, {3, 5}, {3, 900000, 10}, 1, false);

const std::vector<dse::HypervolumeStep> kHistory{{1, dse::Level::analytical, 0, 8, 0.25},
                                                 {1, dse::Level::analytical, 3, 32, 0.5}};

// A finished search: the front, four evaluated mappings, two history steps, 32 evaluations.
void search(DseDocument& document, const cleave::ui::PartitionInputsPtr& inputs) {
    document.startSearch(inputs, {}, 32);
    document.addStep({kLean, kFast}, {kLean, kFast, kBeaten, kOther}, {kHistory[0]}, 8, 32);
    dse::SearchResult result;
    result.front = {kLean, kFast};
    result.history = kHistory;
    result.evaluations = 32;
    document.finishSearch(result, {kOverflow});
}

dse::SearchSettings someSettings() {
    dse::SearchSettings settings;
    settings.encoding = dse::Encoding::naive;
    settings.population = 12;
    settings.generations = 7;
    settings.stages = 1;
    settings.levels = 1;
    settings.seed = 5;
    return settings;
}

void compareSettings(const dse::SearchSettings& a, const dse::SearchSettings& b) {
    QCOMPARE(a.encoding, b.encoding);
    QCOMPARE(a.population, b.population);
    QCOMPARE(a.generations, b.generations);
    QCOMPARE(a.stages, b.stages);
    QCOMPARE(a.levels, b.levels);
    QCOMPARE(a.seed, b.seed);
}

void compareFronts(const std::vector<dse::Solution>& a, const std::vector<dse::Solution>& b) {
    QCOMPARE(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].mapping.points, b[i].mapping.points);
        QCOMPARE(a[i].mapping.pes, b[i].mapping.pes);
        QCOMPARE(a[i].objectives, b[i].objectives);
        QCOMPARE(a[i].generation, b[i].generation);
        QCOMPARE(a[i].feasible, b[i].feasible);
    }
}

// What saveState wrote, as a project file keeps it (text, read back).
nlohmann::json asSaved(const nlohmann::json& state) {
    return nlohmann::json::parse(state.dump());
}

} // namespace

class DseDocumentTest : public QObject {
    Q_OBJECT

private slots:
    void settingsAndViewAreAChangeOnlyWhenEdited() {
        PartitionDocument mapping;
        DseDocument document(&mapping);
        QSignalSpy changed(&document, &DseDocument::changed);
        QCOMPARE(document.settings().population, dse::SearchSettings{}.population);
        QVERIFY(!document.latencyObjective());
        // What the tab starts from: held, no change to keep.
        document.setSettings(someSettings(), true, false);
        compareSettings(document.settings(), someSettings());
        QVERIFY(document.latencyObjective());
        QCOMPARE(changed.count(), 0);
        auto edited = someSettings();
        edited.population = 16;
        document.setSettings(edited, false, true);
        QCOMPARE(document.settings().population, 16);
        QVERIFY(!document.latencyObjective());
        QCOMPARE(changed.count(), 1);

        const nlohmann::json view{{"colour", "generation"}, {"tab", 1}};
        document.setView(view, false);
        QCOMPARE(document.view(), view);
        QCOMPARE(changed.count(), 1);
        document.setView(view, true); // the same choices: nothing changed
        QCOMPARE(changed.count(), 1);
        document.setView({{"colour", "stage"}}, true);
        QCOMPARE(document.view()["colour"], "stage");
        QCOMPARE(changed.count(), 2);
    }

    void aSearchReportsItsFrontFastestFirstAndClassifiesWhatItEvaluated() {
        PartitionDocument mapping;
        const auto inputs = tinyInputs();
        mapping.setInputs(inputs);
        DseDocument document(&mapping);
        QSignalSpy result(&document, &DseDocument::resultChanged);
        QSignalSpy changed(&document, &DseDocument::changed);
        document.startSearch(inputs, {}, 32);
        QCOMPARE(result.count(), 1);
        QCOMPARE(document.inputs(), inputs);
        QCOMPARE(document.budget(), std::int64_t{32});
        QVERIFY(document.front().empty());

        document.addStep({kLean, kFast}, {kLean, kFast, kBeaten, kOther}, {kHistory[0]}, 8, 32);
        QCOMPARE(result.count(), 2);
        compareFronts(document.front(), {kFast, kLean});
        QCOMPARE(document.evaluations(), std::int64_t{8});
        QCOMPARE(document.history().size(), std::size_t{1});
        using Kind = DseDocument::PointKind;
        QCOMPARE(document.evaluated().size(), std::size_t{4});
        QCOMPARE(document.kindOf(0), Kind::front);
        QCOMPARE(document.kindOf(1), Kind::front);
        QCOMPARE(document.kindOf(2), Kind::dominated);
        QCOMPARE(document.kindOf(3), Kind::undominated);
        QCOMPARE(document.kindOf(4), Kind::undominated); // out of range
        QCOMPARE(changed.count(), 0); // a running search is not yet a change to keep

        dse::SearchResult done;
        done.front = {kLean, kFast};
        done.history = kHistory;
        done.evaluations = 32;
        done.cancelled = true;
        document.finishSearch(done, {kOverflow});
        QCOMPARE(result.count(), 3);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(document.history().size(), std::size_t{2}); // the result's, complete
        QCOMPARE(document.evaluations(), std::int64_t{32});
        QVERIFY(document.cancelled());
        QCOMPARE(document.evaluated().size(), std::size_t{5});
        QCOMPARE(document.kindOf(4), Kind::infeasible);

        document.clearResult();
        QCOMPARE(result.count(), 4);
        QVERIFY(!document.inputs());
        QVERIFY(document.front().empty());
        QVERIFY(document.evaluated().empty());
        QVERIFY(!document.cancelled());
        document.clearResult(); // nothing left to clear: no signal
        QCOMPARE(result.count(), 4);
    }

    void otherInputsDropTheResult() {
        PartitionDocument mapping;
        mapping.setInputs(tinyInputs());
        DseDocument document(&mapping);
        search(document, mapping.inputs());
        QSignalSpy result(&document, &DseDocument::resultChanged);
        mapping.setInputs(mapping.inputs()); // the same inputs: the result stays
        QCOMPARE(document.front().size(), std::size_t{2});
        mapping.setInputs(tinyInputs());
        QCOMPARE(result.count(), 1);
        QVERIFY(document.front().empty());
        QVERIFY(!document.inputs());
    }

    void stateRoundTripsWithItsResult() {
        PartitionDocument mapping;
        mapping.setInputs(tinyInputs());
        DseDocument document(&mapping);
        document.setSettings(someSettings(), true, true);
        document.setView({{"colour", "generation"}}, true);
        search(document, mapping.inputs());
        const auto saved = asSaved(document.saveState());
        QCOMPARE(saved["result"]["kernels"], 4);
        QCOMPARE(saved["result"]["cluster"], "tiny.cluster.json");

        DseDocument restored(&mapping);
        QSignalSpy told(&restored, &DseDocument::restored);
        QSignalSpy result(&restored, &DseDocument::resultChanged);
        QCOMPARE(restored.restoreState(saved), QString());
        QCOMPARE(told.count(), 1);
        QCOMPARE(told[0][0].toString(), QString());
        QCOMPARE(told[0][1].toBool(), true);
        QCOMPARE(result.count(), 1);
        compareSettings(restored.settings(), someSettings());
        QVERIFY(restored.latencyObjective());
        QCOMPARE(restored.view(), (nlohmann::json{{"colour", "generation"}}));
        QCOMPARE(restored.inputs(), mapping.inputs());
        compareFronts(restored.front(), document.front());
        compareFronts(restored.evaluated(), document.evaluated());
        QCOMPARE(restored.history().size(), std::size_t{2});
        QCOMPARE(restored.history()[1].hypervolume, 0.5);
        QCOMPARE(restored.evaluations(), std::int64_t{32});
        QCOMPARE(restored.budget(), std::int64_t{32});
        QCOMPARE(restored.kindOf(2), DseDocument::PointKind::dominated);
        QCOMPARE(restored.kindOf(4), DseDocument::PointKind::infeasible);
        QVERIFY(!restored.isWaiting());
        // Saved again: the same state.
        QCOMPARE(asSaved(restored.saveState()), saved);
    }

    void aRestoredResultWaitsForItsInputs() {
        PartitionDocument searched;
        searched.setInputs(tinyInputs());
        DseDocument document(&searched);
        document.setSettings(someSettings(), false, true);
        search(document, searched.inputs());
        const auto saved = asSaved(document.saveState());

        PartitionDocument later;
        DseDocument waiting(&later);
        QSignalSpy told(&waiting, &DseDocument::restored);
        QCOMPARE(waiting.restoreState(saved), QString());
        // The settings at once, the result once the kernels and cluster are there.
        compareSettings(waiting.settings(), someSettings());
        QVERIFY(waiting.isWaiting());
        QVERIFY(waiting.front().empty());
        QCOMPARE(told.count(), 1);
        QCOMPARE(told[0][1].toBool(), false);
        QCOMPARE(asSaved(waiting.saveState())["result"], saved["result"]);
        later.setInputs(tinyInputs());
        QCOMPARE(told.count(), 2);
        QCOMPARE(told[1][0].toString(), QString());
        QCOMPARE(told[1][1].toBool(), true);
        QVERIFY(!waiting.isWaiting());
        compareFronts(waiting.front(), document.front());
        QCOMPARE(waiting.inputs(), later.inputs());
    }

    void aStateThatDoesNotFitIsRefusedAndChangesNothing() {
        PartitionDocument mapping;
        mapping.setInputs(tinyInputs());
        DseDocument document(&mapping);
        search(document, mapping.inputs());
        const auto saved = asSaved(document.saveState());
        document.setSettings(someSettings(), false, false);
        QSignalSpy told(&document, &DseDocument::restored);

        auto otherKernels = saved;
        otherKernels["result"]["kernels"] = 5;
        otherKernels["settings"]["population"] = 40;
        const QString error = document.restoreState(otherKernels);
        QVERIFY2(error.contains("DSE state") && error.contains("5 kernels"), qPrintable(error));
        QCOMPARE(told.count(), 1);
        QCOMPARE(told[0][0].toString(), error);
        QCOMPARE(told[0][1].toBool(), false);
        compareSettings(document.settings(), someSettings());
        QCOMPARE(document.front().size(), std::size_t{2});

        // Not a state at all, or a setting of the wrong kind: the reason, no crash.
        QVERIFY(!document.restoreState(nlohmann::json(42)).isEmpty());
        auto wrongKind = saved;
        wrongKind["settings"]["population"] = "many";
        QVERIFY(!document.restoreState(wrongKind).isEmpty());
        compareSettings(document.settings(), someSettings());
        QCOMPARE(document.evaluations(), std::int64_t{32});
    }

    void theFrontExportsAsCsvOrJson() {
        QTemporaryDir dir;
        PartitionDocument mapping;
        mapping.setInputs(tinyInputs());
        DseDocument document(&mapping);
        QCOMPARE(document.exportFront(dir.filePath("none.csv")),
                 QString("No front to export: run a search first."));
        QVERIFY(!QFile::exists(dir.filePath("none.csv")));
        search(document, mapping.inputs());

        QCOMPARE(document.exportFront(dir.filePath("front.csv")), QString());
        QFile csv(dir.filePath("front.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const auto lines = QString::fromUtf8(csv.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3); // a header and the two mappings
        QVERIFY2(lines[0].contains("bottleneck_ms") && lines[0].contains("max_energy_mj"),
                 qPrintable(lines[0]));
        QVERIFY2(lines[1].contains("h1_gpu"), qPrintable(lines[1]));

        QCOMPARE(document.exportFront(dir.filePath("front.json")), QString());
        QFile json(dir.filePath("front.json"));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const auto front = nlohmann::json::parse(json.readAll().toStdString());
        QCOMPARE(front["kernels"], 4);
        QCOMPARE(front["cluster"], "tiny.cluster.json");
        QCOMPARE(front["rules"], "ort-cpu");
        QCOMPARE(front["evaluations"], 32);
        QCOMPARE(front["objectives"],
                 (nlohmann::json{"bottleneck_ms", "max_memory_bytes", "max_energy_mj"}));
        QCOMPARE(front["front"].size(), std::size_t{2});
        QCOMPARE(front["front"][0]["generation"], 3); // the faster first
        QCOMPARE(front["hypervolume"].size(), std::size_t{2});

        const QString refused = document.exportFront(dir.filePath("no/such/folder/front.json"));
        QVERIFY2(refused.startsWith("Cannot export the front: "), qPrintable(refused));
    }
};

QTEST_MAIN(DseDocumentTest)
#include "dse_document_test.moc"
