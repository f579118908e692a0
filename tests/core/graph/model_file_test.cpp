// The forms a model file takes: named with or without .xz/.gz, found in its other form when the
// one named is missing, one per model in a folder, and unpacked for engines that read paths.
#include "../gzip_stream.hpp"
#include "core/graph/model_file.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/xz_codec.hpp"
#include "onnx_builder.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

using namespace cleave;
using namespace cleave::graph;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::span<const std::uint8_t> as_bytes(const std::string& text) {
    return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

// input -> Conv(w) -> output, w 4x3x3x3 zeros.
test::OnnxBuilder conv_model() {
    test::OnnxBuilder b;
    b.input("x", {1, 3, 8, 8});
    b.initializer("w", {4, 3, 3, 3});
    b.node("Conv", {"x", "w"}, {"y"}, "conv");
    b.output("y");
    return b;
}

std::string serialized(const test::OnnxBuilder& b) {
    const auto bytes = b.bytes();
    return {bytes.begin(), bytes.end()};
}

} // namespace

class ModelFileTest : public QObject {
    Q_OBJECT

private slots:
    void theModelsNameDropsEveryModelSuffix() {
        QCOMPARE(model_name("a/resnet18.onnx"), std::string("resnet18"));
        QCOMPARE(model_name("a/resnet18.onnx.xz"), std::string("resnet18"));
        QCOMPARE(model_name("resnet18.onnx.gz"), std::string("resnet18"));
        QCOMPARE(model_name("resnet18.bin"), std::string("resnet18"));
        QVERIFY(is_model_file_name("m.onnx.gz"));
        QVERIFY(!is_model_file_name("m.json.xz"));
        QVERIFY(!is_model_file_name(".onnx"));
    }

    void compressionIsToldByTheNameThenTheBytes() {
        const std::string xz = xz_compress("x");
        const std::string gz = test::gzip("x");
        QVERIFY(model_compression("m.onnx.xz", as_bytes("plain")) == ModelCompression::xz);
        QVERIFY(model_compression("m.onnx.gz", as_bytes(xz)) == ModelCompression::gzip);
        QVERIFY(model_compression("m.onnx", as_bytes(xz)) == ModelCompression::xz);
        QVERIFY(model_compression("m.onnx", as_bytes(gz)) == ModelCompression::gzip);
        QVERIFY(model_compression("m.onnx", as_bytes("\x08\x08")) == ModelCompression::none);
    }

    void aMissingModelIsFoundInItsOtherForm() {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        write(folder / "a.onnx.xz", "x");
        write(folder / "b.onnx", "x");
        write(folder / "c.onnx.gz", "x");
        write(folder / "c.onnx", "x");
        QCOMPARE(existing_model_file(folder / "a.onnx"), folder / "a.onnx.xz");
        QCOMPARE(existing_model_file(folder / "a.onnx.gz"), folder / "a.onnx.xz");
        QCOMPARE(existing_model_file(folder / "b.onnx.xz"), folder / "b.onnx");
        QCOMPARE(existing_model_file(folder / "c.onnx.xz"), folder / "c.onnx");    // plain first
        QCOMPARE(existing_model_file(folder / "c.onnx.gz"), folder / "c.onnx.gz"); // as named
        QVERIFY(existing_model_file(folder / "d.onnx").empty());
        QVERIFY(existing_model_file(folder / "a.bin").empty());
    }

    void exampleModelsAreFoundPackedOrUnpackedOncePerName() {
        QTemporaryDir dir;
        const std::string folder = dir.path().toStdString();
        std::ofstream(folder + "/a.onnx") << "x";
        std::ofstream(folder + "/a.onnx.xz") << "x";
        std::ofstream(folder + "/b.onnx.xz") << "x";
        std::ofstream(folder + "/readme.txt") << "x";
        const auto found = model_files_in(folder);
        QCOMPARE(found.size(), std::size_t{2});
        QCOMPARE(found[0].filename().string(), std::string("a.onnx")); // unpacked, read in place
        QCOMPARE(found[1].filename().string(), std::string("b.onnx.xz"));
        QVERIFY(model_files_in(folder + "/none").empty());
    }

    void gzipModelsAreFoundInAFolderToo() {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        write(folder / "a.onnx.gz", "x");
        write(folder / "b.onnx.gz", "x");
        write(folder / "b.onnx.xz", "x");
        const auto found = model_files_in(folder);
        QCOMPARE(found, (std::vector<fs::path>{folder / "a.onnx.gz", folder / "b.onnx.xz"}));
    }

    void aPlainModelIsGivenAsItIs() {
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / "m.onnx";
        conv_model().save(file.string());
        const Model model = load_model(file);
        const UnpackedModelFile unpacked(model);
        QCOMPARE(unpacked.path(), file);
    }

    void aCompressedModelIsUnpackedForAsLongAsItIsHeld_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("xz") << "m.onnx.xz";
        QTest::newRow("gzip") << "m.onnx.gz";
    }
    void aCompressedModelIsUnpackedForAsLongAsItIsHeld() {
        QFETCH(QString, name);
        QTemporaryDir dir;
        const fs::path file = fs::path(dir.path().toStdString()) / name.toStdString();
        const std::string plain = serialized(conv_model());
        write(file, name.endsWith(".xz") ? xz_compress(plain) : test::gzip(plain));
        const Model model = load_model(file);
        fs::path copy;
        {
            const UnpackedModelFile unpacked(model);
            copy = unpacked.path();
            QCOMPARE(copy.filename().string(), std::string("m.onnx"));
            QVERIFY(copy.parent_path() != file.parent_path());
            QCOMPARE(read(copy), plain);
        }
        QVERIFY(!fs::exists(copy));
        QVERIFY(!fs::exists(copy.parent_path()));
    }

    void theUnpackedCopyFindsTheModelsExternalData() {
        QTemporaryDir dir;
        const fs::path folder = dir.path().toStdString();
        test::OnnxBuilder b = conv_model();
        const std::string payload = b.make_external(0, "weights/w.bin");
        fs::create_directories(folder / "weights");
        write(folder / "weights" / "w.bin", payload);
        write(folder / "m.onnx.xz", xz_compress(serialized(b)));
        const Model model = load_model(folder / "m.onnx.xz");
        const UnpackedModelFile unpacked(model);
        const Model copy = load_model(unpacked.path()); // reads weights/w.bin beside the copy
        QCOMPARE(copy.weight_parameters, std::int64_t(4 * 3 * 3 * 3));
        QCOMPARE(read(unpacked.path().parent_path() / "weights" / "w.bin"), payload);
    }
};

QTEST_APPLESS_MAIN(ModelFileTest)
#include "model_file_test.moc"
