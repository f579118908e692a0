// An exported AutoDiCE package read back for running it: the ranks in mapping.json's order with
// their hosts, sub-models and what each receives from and sends to which rank; a broken package
// refused with the file and the JSON pointer of the mistake.
#include "core/autodice/package_reader.hpp"
#include "core/graph/sub_model.hpp"
#include "core/input_error.hpp"
#include "tiny_package.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <functional>
#include <nlohmann/json.hpp>

using namespace cleave;
namespace fs = std::filesystem;

namespace {

// The AutoDiCE name of a tensor of the tiny model.
std::string buffer(const std::string& tensor) {
    return graph::sub_model_tensor_name(tensor, graph::SubModelNaming::autodice);
}

nlohmann::ordered_json read_json(const fs::path& file) {
    std::ifstream in(file);
    return nlohmann::ordered_json::parse(in);
}

void write_text(const fs::path& file, const std::string& text) {
    std::ofstream(file) << text;
}

// "file|place: problem" of the InputError read_package throws, or "no error".
QString error_of(const fs::path& folder) {
    try {
        autodice::read_package(folder);
    } catch (const InputError& e) {
        return QString::fromStdString(e.file() + "|" + e.place() + ": " + e.problem());
    }
    return "no error";
}

class Exported {
public:
    Exported() {
        const auto c = test::tiny_package_case(dir_.path().toStdString());
        autodice::write_package(c.model, test::tiny_package(c), folder());
    }
    fs::path folder() const { return fs::path(dir_.path().toStdString()) / "package"; }
    fs::path file(const std::string& name) const { return folder() / name; }
    QString path(const std::string& name) const {
        return QString::fromStdString(file(name).string());
    }

    // Rewrites `name` after `edit` changed its JSON.
    void edit(const std::string& name,
              const std::function<void(nlohmann::ordered_json&)>& change) const {
        auto json = read_json(file(name));
        change(json);
        write_text(file(name), json.dump(2));
    }

private:
    QTemporaryDir dir_;
};

} // namespace

class PackageReaderTest : public QObject {
    Q_OBJECT

private slots:
    void anExportedPackageReadsBack() {
        const Exported exported;
        const auto layout = autodice::read_package(exported.folder());
        QCOMPARE(layout.folder, exported.folder());
        QCOMPARE(layout.ranks.size(), std::size_t{3});
        const std::vector<std::string> keys{"h1_gpu", "h2_gpu", "h3_gpu"};
        for (std::size_t r = 0; r < 3; ++r) {
            QCOMPARE(layout.ranks[r].key, keys[r]);
            QCOMPARE(layout.ranks[r].host, keys[r].substr(0, 2));
            QCOMPARE(layout.ranks[r].sub_model, exported.file(keys[r] + ".onnx"));
        }
        const auto a = buffer("/blk/a"), c = buffer("/blk/c");
        // Rank 0 computes a for ranks 1 and 2; rank 1 c for rank 2.
        const auto& r0 = layout.ranks[0];
        QVERIFY(r0.receives.empty());
        QCOMPARE(r0.sends.size(), std::size_t{1});
        QCOMPARE(r0.sends[0].tensor, a);
        QCOMPARE(r0.sends[0].ranks, (std::vector<int>{1, 2}));
        const auto& r1 = layout.ranks[1];
        QCOMPARE(r1.receives.size(), std::size_t{1});
        QCOMPARE(r1.receives[0].tensor, a);
        QCOMPARE(r1.receives[0].ranks, (std::vector<int>{0}));
        QCOMPARE(r1.sends.size(), std::size_t{1});
        QCOMPARE(r1.sends[0].tensor, c);
        QCOMPARE(r1.sends[0].ranks, (std::vector<int>{2}));
        const auto& r2 = layout.ranks[2];
        QVERIFY(r2.sends.empty());
        QCOMPARE(r2.receives.size(), std::size_t{2});
        std::vector<std::pair<std::string, std::vector<int>>> received;
        for (const auto& b : r2.receives)
            received.emplace_back(b.tensor, b.ranks);
        std::sort(received.begin(), received.end());
        auto expected = std::vector<std::pair<std::string, std::vector<int>>>{{a, {0}}, {c, {1}}};
        std::sort(expected.begin(), expected.end());
        QCOMPARE(received, expected);
    }

    void missingFilesAreNamed() {
        QTemporaryDir empty;
        QCOMPARE(error_of(empty.path().toStdString()).section('|', 0, 0),
                 QString::fromStdString(
                     (fs::path(empty.path().toStdString()) / "mapping.json").string()));
        const Exported exported;
        fs::remove(exported.file("h2_gpu.onnx"));
        QCOMPARE(error_of(exported.folder()),
                 exported.path("h2_gpu.onnx") +
                     "|: missing: the package was exported with --no-submodels or is incomplete; "
                     "expected the sub-model of h2_gpu");
        const Exported again;
        fs::remove(again.file("sender.json"));
        QVERIFY(error_of(again.folder()).startsWith(again.path("sender.json") + "|"));
    }

    void brokenJsonNamesTheFile() {
        const Exported exported;
        write_text(exported.file("receiver.json"), "{\"h2_gpu\": ");
        QVERIFY2(error_of(exported.folder()).startsWith(exported.path("receiver.json") + "|"),
                 qPrintable(error_of(exported.folder())));
    }

    void badMappingKeysAreRefused() {
        const Exported exported;
        exported.edit("mapping.json", [](auto& json) { json = {{"gpu", json["h1_gpu"]}}; });
        QCOMPARE(error_of(exported.folder()),
                 exported.path("mapping.json") + "|/gpu: expected a key <host>_<resource>");
        write_text(exported.file("mapping.json"), "{}");
        QCOMPARE(error_of(exported.folder()),
                 exported.path("mapping.json") +
                     "|/: expected an object with one key per rank, found none");
    }

    void commTablesMustMatchTheRanks() {
        const auto a = buffer("/blk/a");
        {
            Exported e;
            e.edit("receiver.json",
                   [](auto& json) { json["h9_gpu"] = nlohmann::ordered_json::object(); });
            QCOMPARE(error_of(e.folder()),
                     e.path("receiver.json") + "|/h9_gpu: not a key of mapping.json");
        }
        {
            Exported e;
            e.edit("receiver.json", [&](auto& json) {
                json["h2_gpu"][a] = nlohmann::ordered_json::array({0, 2});
            });
            QCOMPARE(error_of(e.folder()), e.path("receiver.json") + "|/h2_gpu/" +
                                               QString::fromStdString(a) +
                                               ": expected [the rank producing it]");
        }
        {
            Exported e;
            e.edit("receiver.json",
                   [&](auto& json) { json["h2_gpu"][a] = nlohmann::ordered_json::array({3}); });
            QVERIFY(error_of(e.folder())
                        .startsWith(e.path("receiver.json") + "|/h2_gpu/" +
                                    QString::fromStdString(a) + "/0: expected"));
        }
        {
            Exported e;
            e.edit("sender.json", [&](auto& json) {
                json["h1_gpu"][a] = nlohmann::ordered_json::array({0, 2});
            });
            QCOMPARE(error_of(e.folder()), e.path("sender.json") + "|/h1_gpu/" +
                                               QString::fromStdString(a) +
                                               "/0: expected a peer rank, not the key's own");
        }
        {
            // h3_gpu receives a from rank 0, which no longer sends it there.
            Exported e;
            e.edit("sender.json",
                   [&](auto& json) { json["h1_gpu"][a] = nlohmann::ordered_json::array({1}); });
            QCOMPARE(error_of(e.folder()),
                     e.path("sender.json") + "|/h1_gpu/" + QString::fromStdString(a) +
                         ": expected rank 2 (h3_gpu) among the readers, as receiver.json says");
        }
    }
};

QTEST_GUILESS_MAIN(PackageReaderTest)
#include "package_reader_test.moc"
