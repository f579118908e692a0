// Clusters: the example cluster files with their PE keys and links, a platform.txt read as the
// same cluster, device files beside a cluster file, writing, and errors by JSON pointer.
#include "core/device/cluster.hpp"
#include "core/device/device_library.hpp"
#include "core/device/link_kinds.hpp"
#include "core/input_error.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <stdexcept>

using cleave::device::Cluster;
using cleave::device::load_cluster;
using cleave::device::parse_cluster_file;

namespace {

std::string example(const char* name) {
    return std::string(CLEAVE_EXAMPLE_CLUSTERS_DIR) + "/" + name;
}

std::vector<std::string> keys(const Cluster& cluster) {
    std::vector<std::string> out;
    for (const auto& pe : cluster.pes)
        out.push_back(pe.key);
    return out;
}

std::vector<std::string> devices(const Cluster& cluster) {
    std::vector<std::string> out;
    for (const auto& host : cluster.hosts)
        out.push_back(host.device.id);
    return out;
}

QString error_of(const std::string& text) {
    try {
        parse_cluster_file(text, "my.cluster.json");
    } catch (const cleave::InputError& e) {
        return e.what();
    }
    return {};
}

const std::string kTwoHosts = R"({"version": 1, "hosts": [
  {"host": "nx01", "device": "jetson-xavier-nx"}, {"host": "pi", "device": "raspberry-pi-4"}]})";

} // namespace

class ClusterTest : public QObject {
    Q_OBJECT

private slots:
    void eightXavierNxHaveTwoPesEach() {
        const Cluster nx8 = load_cluster(example("nx8.cluster.json"));
        QCOMPARE(nx8.hosts.size(), std::size_t(8));
        QCOMPARE(nx8.pes.size(), std::size_t(16));
        QCOMPARE(nx8.pes[0].key, std::string("nx01_arm012345"));
        QCOMPARE(nx8.pes[1].key, std::string("nx01_gpu"));
        QCOMPARE(nx8.pes[15].key, std::string("nx08_gpu"));
        QCOMPARE(nx8.pes[15].host_index, std::size_t(7));
        QCOMPARE(nx8.find_pe("nx03_gpu")->spec.cuda_cores, 384);
        QVERIFY(!nx8.find_pe("nx09_gpu"));
        QCOMPARE(nx8.find_host("nx05")->device_ref, std::string("jetson-xavier-nx"));
        QVERIFY(nx8.find_host("nx01")->match.empty());
        QVERIFY(nx8.note.find("AutoDiCE testbed") != std::string::npos);
    }

    void linksAreThePairsElseTheDefault() {
        const Cluster mixed = load_cluster(example("mixed4.cluster.json"));
        QCOMPARE(devices(mixed), (std::vector<std::string>{"jetson-agx-xavier", "jetson-xavier-nx",
                                                           "intel-nuc", "raspberry-pi-4"}));
        QCOMPARE(keys(mixed),
                 (std::vector<std::string>{"agx01_arm01234567", "agx01_gpu", "nx01_arm012345",
                                           "nx01_gpu", "nuc01_cpu0123", "rpi01_arm0123"}));
        QCOMPARE(mixed.pairs.size(), std::size_t(3));
        QCOMPARE(mixed.link("rpi01", "nx01").bandwidth_gbps, 0.1);
        QCOMPARE(mixed.link("nx01", "rpi01").latency_us, 2000.0);
        QCOMPARE(mixed.link("agx01", "nx01").bandwidth_gbps, 1.0);
        QCOMPARE(mixed.link("agx01", "nuc01").latency_us, 100.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, mixed.link("agx01", "agx01"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, mixed.link("agx01", "nx09"));
    }

    void platformTxtIsTheSameClusterAsItsClusterFile() {
        const Cluster from_file = load_cluster(example("nx8.cluster.json"));
        const Cluster from_platform = load_cluster(example("nx8.platform.txt"));
        QCOMPARE(keys(from_platform), keys(from_file));
        QCOMPARE(devices(from_platform), devices(from_file));
        QCOMPARE(from_platform.default_link, cleave::device::kDefaultLink);
        QCOMPARE(from_platform.default_link.bandwidth_gbps, 1.0); // AutoDiCE's Gigabit switch
        QVERIFY(from_platform.pairs.empty());
        QCOMPARE(from_platform.hosts[2].match,
                 std::string("nx03: arm, 6 cores, gpu NVIDIAVolta -> jetson-xavier-nx"));
    }

    void mixedPlatformTxtMatchesEachLine() {
        const Cluster from_platform = load_cluster(example("mixed4.platform.txt"));
        const Cluster from_file = load_cluster(example("mixed4.cluster.json"));
        QCOMPARE(devices(from_platform), devices(from_file));
        QCOMPARE(keys(from_platform), keys(from_file));
    }

    void clusterWritesItsPlatformTxt() {
        const Cluster nx8 = load_cluster(example("nx8.cluster.json"));
        std::ifstream in(example("nx8.platform.txt"));
        const std::string expected((std::istreambuf_iterator<char>(in)),
                                   std::istreambuf_iterator<char>());
        QCOMPARE(cleave::device::platform_file_text(cleave::device::platform_of(nx8)), expected);
    }

    void hostWithoutCpuIsABareLine() {
        const Cluster cluster = parse_cluster_file(
            R"({"version": 1, "hosts": [{"host": "gpu01", "device": "nvidia-t4"},
                {"host": "tx2", "device": "jetson-tx2"}]})",
            "c.json");
        QCOMPARE(keys(cluster),
                 (std::vector<std::string>{"gpu01_gpu", "tx2_arm12", "tx2_arm0345", "tx2_gpu"}));
        QCOMPARE(cleave::device::platform_file_text(cleave::device::platform_of(cluster)),
                 std::string("gpu01\ntx2, arm, slots=0-5, gpu=NVIDIAPascal (CUDA)\n"));
    }

    void writtenClusterFileReadsBackUnchanged() {
        const Cluster mixed = load_cluster(example("mixed4.cluster.json"));
        QTemporaryDir dir;
        const std::string path = dir.filePath("copy.cluster.json").toStdString();
        cleave::device::save_cluster_file(mixed, path);
        const Cluster again = load_cluster(path);
        QCOMPARE(cleave::device::cluster_file_json(again),
                 cleave::device::cluster_file_json(mixed));
        QCOMPARE(keys(again), keys(mixed));
        QCOMPARE(again.link("agx01", "rpi01"), mixed.link("agx01", "rpi01"));
        QCOMPARE(again.note, mixed.note);
    }

    void deviceFilesAreFoundBesideTheClusterFile() {
        QTemporaryDir dir;
        auto board = *cleave::device::library_device("raspberry-pi-5");
        board.id = "my-pi";
        QVERIFY(QDir(dir.path()).mkdir("devices"));
        std::ofstream(dir.filePath("devices/my-pi.json").toStdString())
            << cleave::device::device_spec_json(board);
        const std::string path = dir.filePath("lab.cluster.json").toStdString();
        std::ofstream(path) << R"({"version": 1, "hosts": [
            {"host": "pi", "device": "devices/my-pi.json"}]})";
        const Cluster lab = load_cluster(path);
        QCOMPARE(lab.hosts[0].device.id, std::string("my-pi"));
        QCOMPARE(lab.hosts[0].device_ref, std::string("devices/my-pi.json"));
        QCOMPARE(keys(lab), (std::vector<std::string>{"pi_arm0123"}));
    }

    void linksDefaultToOneGigabitThroughASwitch() {
        const Cluster two = parse_cluster_file(kTwoHosts, "c.json");
        QCOMPARE(two.default_link.bandwidth_gbps, 1.0);
        QCOMPARE(two.default_link.latency_us, 100.0);
        QCOMPARE(two.link("nx01", "pi"), cleave::device::kDefaultLink);
    }

    void linksByKind() {
        const std::string head = kTwoHosts.substr(0, kTwoHosts.size() - 1) + R"(, "links": )";
        const Cluster c = parse_cluster_file(head + R"({"default": {"kind": "2.5gbe"},
                       "pairs": [{"a": "pi", "b": "nx01", "kind": "wifi-6", "latency_us": 3000}]}})",
                                             "c.json");
        QCOMPARE(c.default_link, cleave::device::find_link_kind("2.5gbe")->link);
        QCOMPARE(c.default_link.bandwidth_gbps, 2.5);
        // A figure given beside a kind overrides the kind's.
        QCOMPARE(c.link("pi", "nx01").bandwidth_gbps, 0.6);
        QCOMPARE(c.link("pi", "nx01").latency_us, 3000.0);
        for (const auto& kind : cleave::device::link_kinds()) {
            QVERIFY(kind.link.bandwidth_gbps > 0 && kind.link.latency_us > 0);
            QVERIFY(!kind.source.empty());
        }
        QCOMPARE(cleave::device::link_kind_ids(), std::string("1gbe, 2.5gbe, wifi-6, thunderbolt"));
        QCOMPARE(error_of(head + R"({"default": {"kind": "5g"}}})"),
                 QString("my.cluster.json: /links/default/kind: expected a link kind, one of "
                         "1gbe, 2.5gbe, wifi-6, thunderbolt, found \"5g\""));
    }

    void unknownDeviceNamesItsPointer() {
        const QString error = error_of(R"({"version": 1, "hosts": [
            {"host": "nx01", "device": "jetson-xavier-nx"}, {"host": "nx02", "device": "xavier"}]})");
        QVERIFY2(error.startsWith("my.cluster.json: /hosts/1/device: no such device \"xavier\"; "
                                  "expected one of jetson-xavier-nx, "),
                 qPrintable(error));
    }

    void aHostsCpuRunsAtItsThreads() {
        // Two NUCs (4 cores, 358.4 GFLOP/s), one at 1 thread: a quarter of the peak, same PE key
        const auto text = std::string(R"({"version": 1, "hosts": [
          {"host": "a", "device": "intel-nuc"}, {"host": "b", "device": "intel-nuc",
          "threads": 1}]})");
        const Cluster cluster = parse_cluster_file(text, "my.cluster.json");
        QCOMPARE(keys(cluster), (std::vector<std::string>{"a_cpu0123", "b_cpu0123"}));
        QCOMPARE(cluster.pes[0].spec.peak_gflops.fp32.value_or(0), 358.4);
        QCOMPARE(cluster.pes[1].spec.peak_gflops.fp32.value_or(0), 358.4 / 4);
        QCOMPARE(cluster.pes[1].spec.cores, 1);
        QVERIFY(!cluster.hosts[0].threads);
        QCOMPARE(cluster.hosts[1].threads.value_or(0), 1);
        const auto written = cleave::device::cluster_to_json(cluster);
        QCOMPARE(written["hosts"][1]["threads"].get<int>(), 1);
        QVERIFY(!written["hosts"][0].contains("threads"));
        QCOMPARE(cleave::device::cluster_file_json(
                     cleave::device::cluster_from_json(written, "my.cluster.json")),
                 cleave::device::cluster_file_json(cluster));
        QCOMPARE(error_of(R"({"version": 1, "hosts": [{"host": "a", "device": "intel-nuc",
                                                      "threads": 8}]})"),
                 QString("my.cluster.json: /hosts/0/threads: a thread count from 1 to 4, the "
                         "cores of intel-nuc's largest CPU PE; found 8"));
        QCOMPARE(error_of(R"({"version": 1, "hosts": [{"host": "a", "device": "nvidia-t4",
                                                      "threads": 1}]})"),
                 QString("my.cluster.json: /hosts/0/threads: a thread count for a CPU; device "
                         "nvidia-t4 has no CPU PE"));
        QVERIFY(error_of(R"({"version": 1, "hosts": [{"host": "a", "device": "intel-nuc",
                                                     "threads": "2"}]})")
                    .startsWith("my.cluster.json: /hosts/0/threads: "));
    }

    void badHostsAreNamed() {
        QCOMPARE(
            error_of(R"({"version": 1, "hosts": [{"host": "nx_01", "device": "jetson-tx2"}]})"),
            QString("my.cluster.json: /hosts/0/host: expected a host name of letters, digits, "
                    "'-' and '.' ('_' joins host and resource in AutoDiCE keys), found "
                    "\"nx_01\""));
        QCOMPARE(error_of(R"({"version": 1, "hosts": [{"host": "a", "device": "jetson-tx2"},
                                                    {"host": "a", "device": "jetson-tx2"}]})"),
                 QString("my.cluster.json: /hosts/1/host: host a is already at /hosts/0; "
                         "expected each host once"));
        QCOMPARE(error_of(R"({"version": 1, "hosts": [{"host": ")" + std::string(65, 'h') +
                          R"(", "device": "jetson-tx2"}]})"),
                 QString("my.cluster.json: /hosts/0/host: expected a host name of at most 64 "
                         "characters, found 65"));
        QCOMPARE(error_of(R"({"version": 1, "hosts": []})"),
                 QString("my.cluster.json: /hosts: expected at least one host"));
        QCOMPARE(error_of(R"({"version": 1, "hosts": [{"host": "a"}]})"),
                 QString("my.cluster.json: /hosts/0: missing \"device\"; expected a string"));
    }

    void badLinksAreNamed() {
        const std::string head = kTwoHosts.substr(0, kTwoHosts.size() - 1) + R"(, "links": )";
        QCOMPARE(error_of(head + R"({"pairs": [{"a": "nx01", "b": "nx02", "bandwidth_gbps": 1,
                                                 "latency_us": 1}]}})"),
                 QString("my.cluster.json: /links/pairs/0/b: no host \"nx02\" in /hosts; "
                         "expected one of its hosts"));
        QCOMPARE(error_of(head + R"({"pairs": [{"a": "pi", "b": "nx01", "latency_us": 1}]}})"),
                 QString("my.cluster.json: /links/pairs/0: missing \"bandwidth_gbps\"; expected "
                         "a number > 0 (Gbit/s)"));
        QCOMPARE(error_of(head + R"({"pairs": [{"a": "pi", "b": "pi", "bandwidth_gbps": 1,
                                                 "latency_us": 1}]}})"),
                 QString("my.cluster.json: /links/pairs/0/b: expected a host other than a "
                         "(\"pi\")"));
        QCOMPARE(error_of(head + R"({"pairs": [
                {"a": "pi", "b": "nx01", "bandwidth_gbps": 1, "latency_us": 1},
                {"a": "nx01", "b": "pi", "bandwidth_gbps": 2, "latency_us": 1}]}})"),
                 QString("my.cluster.json: /links/pairs/1: the link nx01 - pi is given twice; "
                         "expected each pair once"));
        QCOMPARE(error_of(head + R"({"default": {"bandwidth_gbps": 0}}})"),
                 QString("my.cluster.json: /links/default/bandwidth_gbps: expected a number > 0 "
                         "(Gbit/s), found 0"));
        QCOMPARE(error_of(head + R"({"switch": {}}})"),
                 QString("my.cluster.json: /links/switch: unknown field; expected one of "
                         "default, pairs"));
    }

    void versionIsChecked() {
        QCOMPARE(error_of(R"({"version": 2, "hosts": []})"),
                 QString("my.cluster.json: /version: version 2 is not known; expected 1"));
        QCOMPARE(error_of(R"({"hosts": []})"),
                 QString("my.cluster.json: /: missing \"version\"; expected 1, the format's "
                         "version"));
        QCOMPARE(error_of(R"({"version": "1", "hosts": []})"),
                 QString("my.cluster.json: /version: expected the whole number 1, found \"1\""));
    }

    void aBadDeviceFileIsNamedByItsOwnPath() {
        QTemporaryDir dir;
        std::ofstream(dir.filePath("bad.json").toStdString()) << R"({"format": "cleave-device"})";
        const std::string path = dir.filePath("c.cluster.json").toStdString();
        std::ofstream(path) << R"({"version": 1, "hosts": [{"host": "b", "device": "bad.json"}]})";
        try {
            load_cluster(path);
            QFAIL("accepted");
        } catch (const cleave::InputError& e) {
            QCOMPARE(QString::fromStdString(e.file()), dir.filePath("bad.json"));
            QCOMPARE(QString::fromStdString(e.place()), QString("/"));
        }
    }
};

QTEST_GUILESS_MAIN(ClusterTest)
#include "cluster_test.moc"
