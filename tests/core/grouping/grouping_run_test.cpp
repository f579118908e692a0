// A grouping run as cleave group and the Grouping tab share it: every feature set available
// grouped for the comparison, the chosen one among them, a saved result's figures back without a
// search, and the requests either front end must refuse.
#include "../partition/tiny_partition_model.hpp"
#include "core/grouping/grouping_run.hpp"
#include "core/input_error.hpp"

#include <QtTest>
#include <algorithm>
#include <functional>

using namespace cleave;

namespace {

std::string error_of(const std::function<void()>& run) {
    try {
        run();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

grouping::GroupingRequest three_boards(int groups) {
    grouping::GroupingRequest request;
    request.cluster = std::make_shared<const device::Cluster>(test::tiny_cluster());
    request.groups = groups;
    return request;
}

} // namespace

class GroupingRunTest : public QObject {
    Q_OBJECT

private slots:
    void everySetIsComparedAndTheChosenIsAmongThem() {
        const auto outcome = grouping::run_grouping(three_boards(2));
        QCOMPARE(outcome.comparison.size(), grouping::kFeatureSets.size());
        QCOMPARE(outcome.chosen.table.set, std::string("flops"));
        const auto& group_of = outcome.chosen.search.best.group_of;
        QCOMPARE(group_of.size(), std::size_t{3});
        // Three equal boards in two groups: two in one, one in the other, sums to match.
        const int first = static_cast<int>(std::count(group_of.begin(), group_of.end(), 0));
        QVERIFY(first == 1 || first == 2);
        QCOMPARE(outcome.chosen.sums.size(), std::size_t{2});
        QVERIFY(!outcome.chosen.serving);
        QVERIFY(outcome.image_ms.empty());

        // The same grouping read back from a saved result: its figures, no search.
        std::vector<std::pair<std::string, std::vector<int>>> saved;
        for (const auto& set : outcome.comparison)
            saved.emplace_back(set.table.set, set.search.best.group_of);
        const auto again = grouping::regroup(three_boards(2), saved);
        QCOMPARE(again.chosen.sums, outcome.chosen.sums);
        QCOMPARE(again.chosen.search.best.objective, outcome.chosen.search.best.objective);
    }

    // A project's "grouping" member: the settings, and the grouping found with its hosts.
    void savedGroupingReadsBack() {
        auto request = three_boards(2);
        request.seed = 9;
        request.serving.batch = 4;
        const auto outcome = grouping::run_grouping(request);
        auto json = grouping::grouping_settings_json(request);
        json["result"] = grouping::grouping_result_json(outcome);

        grouping::GroupingRequest settings;
        grouping::read_grouping_settings(json, settings);
        QCOMPARE(settings.seed, std::uint64_t{9});
        QCOMPARE(settings.serving.batch, 4);
        QCOMPARE(settings.groups, 2);
        // A field left out keeps what was there.
        grouping::read_grouping_settings(nlohmann::json{{"groups", 3}}, settings);
        QCOMPARE(settings.groups, 3);
        QCOMPARE(settings.seed, std::uint64_t{9});

        const auto saved = grouping::read_grouping_result(json["result"], {});
        QCOMPARE(saved.hosts, grouping::grouping_hosts(*request.cluster));
        QCOMPARE(saved.hosts.front(), (std::pair<std::string, std::string>{"h1", "jetson-xavier-nx"}));
        QCOMPARE(saved.sets.size(), outcome.comparison.size());
        QCOMPARE(saved.sets.front().second, outcome.comparison.front().search.best.group_of);
        QCOMPARE(saved.request.seed, std::uint64_t{9});
        QVERIFY(error_of([&] { grouping::read_grouping_settings(nlohmann::json::array(), settings); })
                    .starts_with("/: expected a JSON object of grouping settings"));
    }

    void badRequestsNameTheirPlace() {
        QVERIFY(error_of([] { grouping::run_grouping(three_boards(4)); })
                    .starts_with("--groups: 4 groups for the 3 hosts of tiny.cluster.json"));
        auto request = three_boards(2);
        QVERIFY(error_of([&] { grouping::feature_table(request, "hp"); })
                    .starts_with("--features: hp comes from device vectors"));
        request.workload = "squeezenet1_1@1x3x224x224";
        QVERIFY(error_of([&] { grouping::workload_ms(request); })
                    .starts_with("--workload: the serving simulation needs a vectors file"));
        QVERIFY(error_of([] {
                    grouping::regroup(three_boards(2), {{"flops", {0, 1}}});
                }).starts_with("result/flops: expected a group from 0 to 1 for each of the 3"));
    }
};

QTEST_GUILESS_MAIN(GroupingRunTest)
#include "grouping_run_test.moc"
