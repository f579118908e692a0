// A cluster as the cluster file's JSON object (cluster_to_json / cluster_from_json), as a project
// file keeps it: the example clusters round-trip host for host and link for link, the object is
// the one the cluster file holds, and a bad object gets parse_cluster_file's messages.
#include "core/device/cluster.hpp"
#include "core/input_error.hpp"

#include <QtTest>

using cleave::device::Cluster;
using cleave::device::cluster_from_json;
using cleave::device::cluster_to_json;
using cleave::device::load_cluster;

namespace {

std::string example(const char* name) {
    return std::string(CLEAVE_EXAMPLE_CLUSTERS_DIR) + "/" + name;
}

QString error_of(const nlohmann::json& root) {
    try {
        cluster_from_json(root, "project.cleave");
    } catch (const cleave::InputError& e) {
        return e.what();
    }
    return {};
}

} // namespace

class ClusterJsonTest : public QObject {
    Q_OBJECT

private slots:
    void exampleClustersRoundTrip() {
        for (const char* name : {"mixed4.cluster.json", "nx8.cluster.json", "xeon4.cluster.json",
                                 "measured160.cluster.json", "mixed4.platform.txt"}) {
            const Cluster cluster = load_cluster(example(name));
            const Cluster back = cluster_from_json(cluster_to_json(cluster), cluster.file);
            QCOMPARE(back.hosts.size(), cluster.hosts.size());
            for (std::size_t h = 0; h < cluster.hosts.size(); ++h) {
                QCOMPARE(back.hosts[h].host, cluster.hosts[h].host);
                QCOMPARE(back.hosts[h].device.id, cluster.hosts[h].device.id);
            }
            QCOMPARE(back.pes.size(), cluster.pes.size());
            for (std::size_t p = 0; p < cluster.pes.size(); ++p)
                QCOMPARE(back.pes[p].key, cluster.pes[p].key);
            QCOMPARE(back.default_link, cluster.default_link);
            QCOMPARE(back.pairs.size(), cluster.pairs.size());
            for (std::size_t p = 0; p < cluster.pairs.size(); ++p) {
                QCOMPARE(back.pairs[p].a, cluster.pairs[p].a);
                QCOMPARE(back.pairs[p].b, cluster.pairs[p].b);
                QCOMPARE(back.pairs[p].link, cluster.pairs[p].link);
            }
            QCOMPARE(back.note, cluster.note);
        }
    }

    void objectIsTheClusterFilesObject() {
        const Cluster cluster = load_cluster(example("mixed4.cluster.json"));
        const nlohmann::json root = cluster_to_json(cluster);
        QCOMPARE(root, nlohmann::json::parse(cleave::device::cluster_file_json(cluster)));
        QCOMPARE(root["version"], 1);
        QCOMPARE(root["hosts"][3]["host"], "rpi01");
        QCOMPARE(root["hosts"][3]["device"], "raspberry-pi-4");
        QCOMPARE(root["links"]["pairs"][0]["bandwidth_gbps"], 0.1);
        QCOMPARE(root["links"]["default"]["latency_us"], 100.0);
    }

    void badObjectsNameThePointer() {
        nlohmann::json root = cluster_to_json(load_cluster(example("mixed4.cluster.json")));
        root["hosts"][1]["host"] = "agx01";
        QVERIFY2(error_of(root).contains("project.cleave: /hosts/1/host: host agx01 is already at "
                                         "/hosts/0"),
                 qPrintable(error_of(root)));
        root["hosts"][1]["host"] = "nx01";
        root["hosts"][2]["device"] = "jetson-xavier";
        QVERIFY(error_of(root).contains("/hosts/2/device: no such device \"jetson-xavier\""));
        root["hosts"][2]["device"] = "intel-nuc";
        root["links"]["pairs"][0]["b"] = "nx02";
        QVERIFY(error_of(root).contains("/links/pairs/0/b: no host \"nx02\""));
        QVERIFY(error_of(nlohmann::json::array()).contains("project.cleave"));
        QVERIFY(error_of({{"version", 1}, {"hosts", nlohmann::json::array()}})
                    .contains("/hosts: expected at least one host"));
    }
};

QTEST_GUILESS_MAIN(ClusterJsonTest)
#include "cluster_json_test.moc"
