// The DSE tab's saved search (a project's "dse" member): written and read back with its front,
// evaluated points and history, and refused where it does not fit what is open.
#include "../partition/tiny_partition_model.hpp"
#include "core/dse/search_state.hpp"
#include "core/input_error.hpp"

#include <QtTest>

using namespace cleave;

namespace {

dse::SearchState saved() {
    dse::SearchState state;
    state.settings.encoding = dse::Encoding::naive;
    state.settings.population = 12;
    state.settings.generations = 7;
    state.settings.stages = 1;
    state.settings.levels = 1;
    state.settings.seed = 5;
    state.latency = true;
    state.view = {{"x", "throughput"}, {"tab", 1}};
    dse::SearchStateResult r;
    r.kernels = 4;
    r.cluster = "tiny.cluster.json";
    r.objectives = {true, true};
    r.evaluations = 96;
    r.budget = 96;
    dse::Solution s;
    s.mapping = {{2}, {1, 3}};
    s.objectives = {6.0, 4096.0, 30.0, 9.5};
    s.normalised = {3.0, 0.5, 1.5, 2.0};
    s.throughput_per_s = 1000.0 / 6.0;
    s.stage = 1;
    s.generation = 3;
    r.front = {s};
    s.feasible = false;
    s.mapping = {{1}, {3, 5}};
    r.evaluated = {r.front.front(), s};
    r.history = {{1, dse::Level::analytical, 0, 12, 0.25}, {1, dse::Level::analytical, 7, 96, 0.5}};
    state.result = r;
    return state;
}

std::string error_of(const nlohmann::json& json, const dse::SearchStateTarget* target) {
    try {
        dse::parse_search_state(json, target, "DSE state");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

} // namespace

class SearchStateTest : public QObject {
    Q_OBJECT

    device::Cluster cluster_ = test::tiny_cluster();

private slots:
    void roundTrip() {
        const auto json = dse::search_state_json(saved(), &cluster_);
        const dse::SearchStateTarget target{&cluster_, 4, [](int) { return true; }};
        const auto back = dse::parse_search_state(json, &target, "DSE state");
        QCOMPARE(back.settings.encoding, dse::Encoding::naive);
        QCOMPARE(back.settings.population, 12);
        QCOMPARE(back.settings.seed, 5u);
        QVERIFY(back.latency);
        QCOMPARE(back.view.at("tab").get<int>(), 1);
        QVERIFY(back.result);
        const auto& r = *back.result;
        QCOMPARE(r.objectives.count(), 4);
        QCOMPARE(r.front.size(), std::size_t{1});
        QCOMPARE(r.front[0].mapping.points, (std::vector<int>{2}));
        QCOMPARE(r.front[0].mapping.pes, (std::vector<int>{1, 3}));
        QCOMPARE(r.front[0].objectives, (std::vector<double>{6.0, 4096.0, 30.0, 9.5}));
        QCOMPARE(r.evaluated.size(), std::size_t{2});
        QVERIFY(!r.evaluated[1].feasible);
        QCOMPARE(r.evaluated[1].generation, 3);
        QCOMPARE(r.history.size(), std::size_t{2});
        QCOMPARE(r.history[1].hypervolume, 0.5);
        QCOMPARE(r.evaluations, std::int64_t{96});
        QVERIFY(r.exact.empty());
        QVERIFY(!json["result"].contains("exact"));
        // Written again, the same document.
        QCOMPARE(dse::search_state_json(back, &cluster_), json);
    }

    // A decoder's exact optima travel with the result; a file without them reads as none.
    void exactOptimaRoundTrip() {
        auto state = saved();
        auto optimum = state.result->front.front();
        optimum.mapping = {{1, 3}, {0, 2, 4}};
        state.result->exact = {optimum};
        const auto json = dse::search_state_json(state, &cluster_);
        QVERIFY(json["result"].contains("exact"));
        const dse::SearchStateTarget target{&cluster_, 4, [](int) { return true; }};
        const auto back = dse::parse_search_state(json, &target, "DSE state");
        QCOMPARE(back.result->exact.size(), std::size_t{1});
        QCOMPARE(back.result->exact[0].mapping.points, (std::vector<int>{1, 3}));
        QCOMPARE(back.result->exact[0].objectives, optimum.objectives);
        QCOMPARE(dse::search_state_json(back, &cluster_), json);
        const dse::SearchStateTarget three{&cluster_, 4, [](int pe) { return pe != 4; }};
        QCOMPARE(QString::fromStdString(error_of(json, &three)),
                 QString("DSE state: /result/exact/0: ") +
                     QString::fromStdString(cluster_.pes[4].key) + " has no latencies");
    }

    void settingsAloneNeedNothingOpen() {
        auto state = saved();
        state.result.reset();
        const auto back = dse::parse_search_state(dse::search_state_json(state, nullptr), nullptr,
                                                  "DSE state");
        QVERIFY(!back.result);
        QCOMPARE(back.settings.generations, 7);
    }

    void whatDoesNotFitIsRefused() {
        const auto json = dse::search_state_json(saved(), &cluster_);
        QVERIFY(error_of(json, nullptr).starts_with("DSE state: /: expected a model and cluster open"));
        const dse::SearchStateTarget three{&cluster_, 3, {}};
        QVERIFY(error_of(json, &three).starts_with("DSE state: /result/kernels: the front was "
                                                   "searched over 4 kernels; the model has 3"));
        const dse::SearchStateTarget no_h3{&cluster_, 4, [](int pe) { return pe != 5; }};
        QCOMPARE(QString::fromStdString(error_of(json, &no_h3)),
                 QString("DSE state: /result/evaluated/1: h3_gpu has no latencies"));
        auto later = json;
        later["version"] = 2;
        QVERIFY(error_of(later, &no_h3).starts_with("DSE state: /version: expected 1"));
        auto broken = json;
        broken["settings"].erase("seed");
        QVERIFY(error_of(broken, &no_h3).starts_with("DSE state: "));
    }

    // A misspelt field is named, not silently left at its default.
    void anUnknownFieldIsRefusedWhereItIs() {
        const dse::SearchStateTarget four{&cluster_, 4, {}};
        auto json = dse::search_state_json(saved(), &cluster_);
        json["settings"]["generation"] = 9;
        QVERIFY2(error_of(json, &four)
                     .starts_with("DSE state: /settings/generation: unknown field; "
                                  "expected one of encoding, population"),
                 error_of(json, &four).c_str());
        json = dse::search_state_json(saved(), &cluster_);
        json["results"] = nullptr;
        QVERIFY(error_of(json, &four).starts_with("DSE state: /results: unknown field"));
        json = dse::search_state_json(saved(), &cluster_);
        json["result"]["budjet"] = 3;
        QVERIFY(error_of(json, &four).starts_with("DSE state: /result/budjet: unknown field"));
    }
};

QTEST_GUILESS_MAIN(SearchStateTest)
#include "search_state_test.moc"
