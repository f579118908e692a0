// Mappings in the DSE's two encodings: split points with a PE per segment, checked against the
// model and cluster; the kernel assignment they give and the runs an assignment falls into; and
// the CLI's --points / --pes text, refused with the flag and what was expected.
#include "core/input_error.hpp"
#include "core/partition/mapping.hpp"
#include "tiny_partition_model.hpp"

#include <QtTest>
#include <functional>

using namespace cleave;
using partition::KernelAssignment;
using partition::Mapping;

namespace {

// "file|place: problem" of the InputError `call` throws, or "no error".
QString error_of(const std::function<void()>& call) {
    try {
        call();
    } catch (const InputError& e) {
        return QString::fromStdString(e.file() + "|" + e.place() + ": " + e.problem());
    }
    return "no error";
}

} // namespace

class MappingTest : public QObject {
    Q_OBJECT

private slots:
    void segmentsBecomeAKernelAssignment() {
        // Kernels [0, 2) on PE 5, [2, 3) on PE 1, [3, 5) on PE 4.
        QCOMPARE(partition::assignment_of(Mapping{{2, 3}, {5, 1, 4}}, 5).pe_of_kernel,
                 (std::vector<int>{5, 5, 1, 4, 4}));
        QCOMPARE(partition::assignment_of(Mapping{{}, {2}}, 3).pe_of_kernel,
                 (std::vector<int>{2, 2, 2}));
    }

    void anAssignmentFallsIntoRuns() {
        // PE 1 comes back after PE 2: three runs, two cuts.
        const auto runs = partition::runs_of(KernelAssignment{{1, 1, 2, 1}});
        QCOMPARE(runs.points, (std::vector<int>{2, 3}));
        QCOMPARE(runs.pes, (std::vector<int>{1, 2, 1}));
        // Neighbouring segments on one PE become one run.
        const auto merged =
            partition::runs_of(partition::assignment_of(Mapping{{1, 2}, {3, 3, 0}}, 4));
        QCOMPARE(merged.points, (std::vector<int>{2}));
        QCOMPARE(merged.pes, (std::vector<int>{3, 0}));
        QVERIFY(partition::runs_of(KernelAssignment{}).pes.empty());
    }

    void checkRefusesPointsAndPesThatCannotBe() {
        const auto check = [](Mapping m) {
            return error_of([&] { partition::check_mapping(m, 4, 6); });
        };
        QCOMPARE(check({{1, 3}, {0, 1, 2}}), QString("no error"));
        QCOMPARE(check({{3, 1}, {0, 1, 2}}),
                 QString("|--points: split point 1: points must ascend strictly and lie between 1 "
                         "and 3 (the model has 4 kernels)"));
        QVERIFY(check({{0}, {0, 1}}).startsWith("|--points: split point 0:"));
        QVERIFY(check({{4}, {0, 1}}).startsWith("|--points: split point 4:"));
        QVERIFY(check({{2, 2}, {0, 1, 2}}).startsWith("|--points: split point 2:"));
        QCOMPARE(check({{1}, {0, 1, 2}}),
                 QString("|--pes: 1 split points make 2 segments, but 3 PEs were given"));
        QCOMPARE(check({{1}, {0, 6}}), QString("|--pes: PE index 6 is not in the cluster"));
        QCOMPARE(check({{1}, {-1, 0}}), QString("|--pes: PE index -1 is not in the cluster"));
        // The place is the caller's.
        QVERIFY(error_of([] {
                    partition::check_mapping({{5}, {0, 1}}, 4, 6, "/mapping/points");
                }).startsWith("|/mapping/points: split point 5:"));
    }

    void theCliTextNamesPesByKey() {
        const auto cluster = test::tiny_cluster();
        const auto mapping = partition::parse_mapping("1,3", "h1_gpu,h2_gpu,h3_gpu", cluster, 4);
        QCOMPARE(mapping.points, (std::vector<int>{1, 3}));
        QCOMPARE(mapping.pes, (std::vector<int>{1, 3, 5}));
        // No points: the whole model on one PE.
        const auto whole = partition::parse_mapping("", "h2_arm012345", cluster, 4);
        QVERIFY(whole.points.empty());
        QCOMPARE(whole.pes, (std::vector<int>{2}));
    }

    void badCliTextNamesTheFlag() {
        const auto cluster = test::tiny_cluster();
        const auto parse = [&](const std::string& points, const std::string& pes) {
            return error_of([&] { partition::parse_mapping(points, pes, cluster, 4); });
        };
        QCOMPARE(parse("1,x", "h1_gpu,h2_gpu,h3_gpu"),
                 QString("|--points: 'x' is not a kernel count; expected comma-separated integers "
                         "such as 12,40"));
        QVERIFY(parse("2.5", "h1_gpu,h2_gpu").startsWith("|--points: '2.5' is not"));
        QCOMPARE(parse("2", "h1_gpu,h9_gpu"),
                 QString("tiny.cluster.json|--pes: no PE 'h9_gpu' in the cluster; its PEs are "
                         "h1_arm012345, h1_gpu, h2_arm012345, h2_gpu, h3_arm012345, h3_gpu"));
        // Parsed, then checked.
        QVERIFY(parse("2", "h1_gpu")
                    .startsWith("|--pes: 1 split points make 2 segments, but 1 PEs were given"));
        QVERIFY(parse("4", "h1_gpu,h2_gpu").startsWith("|--points: split point 4:"));
    }
};

QTEST_GUILESS_MAIN(MappingTest)
#include "mapping_test.moc"
