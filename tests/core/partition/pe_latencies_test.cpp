// Every PE's kernel latencies, or why it has none: the one prediction the DSE, the mapping
// commands and the Partition tab share.
#include "core/input_error.hpp"
#include "core/partition/pe_latencies.hpp"
#include "tiny_partition_model.hpp"

#include <QtTest>

using namespace cleave;

namespace {

// h2's device stripped of its peak rates: no shipped predictor, no roofline.
device::Cluster clusterWithAPeWithoutFigures() {
    auto cluster = test::tiny_cluster();
    auto& device = cluster.hosts[1].device;
    device.id = "nx-without-figures";
    for (auto& pe : device.processing_elements)
        pe.peak_gflops = {};
    for (auto& pe : cluster.pes)
        if (pe.host_index == 1)
            pe.spec.peak_gflops = {};
    return cluster;
}

} // namespace

class PeLatenciesTest : public QObject {
    Q_OBJECT

private slots:
    void everyPeOfAPredictableDeviceHasARowPerKernel() {
        const auto model = test::tiny_partition_model();
        const auto kernels = test::tiny_kernels(model);
        const auto cluster = test::tiny_cluster();
        const auto latencies = partition::predict_pe_latencies(model, kernels, cluster, "ort-cpu");
        QCOMPARE(latencies.usable(), (std::vector<int>{0, 1, 2, 3, 4, 5}));
        QVERIFY(latencies.left_out_notes(cluster).empty());
        for (const auto& row : latencies.kernel_ms) {
            QCOMPARE(row.size(), kernels.kernels.size());
            for (const double ms : row)
                QVERIFY(ms > 0);
        }
        // The same device and PE name on another host: the same figures.
        QCOMPARE(latencies.kernel_ms[1], latencies.kernel_ms[5]);
    }

    void aPeWithoutFiguresIsLeftOutWithOneNoteAndTheOthersStay() {
        const auto model = test::tiny_partition_model();
        const auto kernels = test::tiny_kernels(model);
        const auto cluster = clusterWithAPeWithoutFigures();
        const auto latencies = partition::predict_pe_latencies(model, kernels, cluster, "ort-cpu");
        QCOMPARE(latencies.usable(), (std::vector<int>{0, 1, 4, 5}));
        QVERIFY(!latencies.has(2));
        QVERIFY(latencies.kernel_ms[2].empty());
        const auto notes = latencies.left_out_notes(cluster);
        QCOMPARE(notes.size(), std::size_t{2});
        QVERIFY2(notes[0].rfind("left out h2_arm012345 (", 0) == 0, notes[0].c_str());
        QVERIFY2(notes[0].find("of nx-without-figures): its kernel latencies cannot be "
                               "predicted: ") != std::string::npos,
                 notes[0].c_str());
        QVERIFY2(notes[1].rfind("left out h2_gpu (", 0) == 0, notes[1].c_str());
    }

    void onlyTheNeededPesArePredicted() {
        const auto model = test::tiny_partition_model();
        const auto kernels = test::tiny_kernels(model);
        const auto cluster = clusterWithAPeWithoutFigures();
        const auto latencies =
            partition::predict_pe_latencies(model, kernels, cluster, "ort-cpu", {1, 5});
        QCOMPARE(latencies.usable(), (std::vector<int>{1, 5}));
        QVERIFY(latencies.left_out_notes(cluster).empty()); // h2 was not asked for
    }

    void aMappingOnAPeWithoutLatenciesIsAnErrorNamingIt() {
        const auto model = test::tiny_partition_model();
        const auto kernels = test::tiny_kernels(model);
        const auto cluster = clusterWithAPeWithoutFigures();
        QCOMPARE(partition::pe_kernel_latencies_ms(model, kernels, cluster, "ort-cpu", {1, 5})[5]
                     .size(),
                 kernels.kernels.size());
        try {
            partition::pe_kernel_latencies_ms(model, kernels, cluster, "ort-cpu", {1, 3});
            QFAIL("a PE without latencies was accepted");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("PE h2_gpu (") != std::string::npos, e.what());
        }
    }
};

QTEST_APPLESS_MAIN(PeLatenciesTest)
#include "pe_latencies_test.moc"
