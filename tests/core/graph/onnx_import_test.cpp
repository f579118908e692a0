// The ONNX importer: real models give torchvision's published figures, and every kind of bad
// file is refused with one precise message.
#include "../gzip_stream.hpp"
#include "core/graph/model_file.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/task_control.hpp"
#include "core/xz_codec.hpp"
#include "onnx_builder.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <random>

using cleave::InputError;
using cleave::graph::load_model;
using cleave::graph::load_model_from_bytes;
using cleave::graph::LoadOptions;
using cleave::graph::Model;
using cleave::test::OnnxBuilder;

namespace {

std::string example(const char* name) {
    return std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/" + name + ".onnx";
}

// A two-node model: input -> Conv(w) -> Relu -> output.
OnnxBuilder small_conv_model() {
    OnnxBuilder b;
    b.input("x", {1, 3, 8, 8});
    b.initializer("w", {4, 3, 3, 3});
    auto& conv = b.node("Conv", {"x", "w"}, {"c"}, "conv");
    OnnxBuilder::set_ints(conv, "pads", {1, 1, 1, 1});
    b.node("Relu", {"c"}, {"y"}, "relu");
    b.output("y");
    return b;
}

// The same model whose input batch dim is the symbol "N".
OnnxBuilder symbolic_batch_model() {
    OnnxBuilder b = small_conv_model();
    b.graph()
        .mutable_input(0)
        ->mutable_type()
        ->mutable_tensor_type()
        ->mutable_shape()
        ->mutable_dim(0)
        ->set_dim_param("N");
    return b;
}

// Loads bytes and returns the InputError message, or fails the test when loading succeeds.
QString load_error(const std::vector<std::uint8_t>& bytes, const LoadOptions& options = {}) {
    try {
        load_model_from_bytes(bytes, "model.onnx", options);
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

QString file_error(const std::string& path) {
    try {
        load_model(path);
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class OnnxImportTest : public QObject {
    Q_OBJECT

private slots:
    void publishedFigures_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<qlonglong>("parameters");
        QTest::addColumn<double>("gmacs");
        QTest::newRow("resnet18") << "resnet18" << 11689512LL << 1.81;
        QTest::newRow("resnet50") << "resnet50" << 25557032LL << 4.09;
        QTest::newRow("resnet101") << "resnet101" << 44549160LL << 7.80;
        QTest::newRow("vgg16") << "vgg16" << 138357544LL << 15.47;
        QTest::newRow("vgg19") << "vgg19" << 143667240LL << 19.63;
        QTest::newRow("densenet121") << "densenet121" << 7978856LL << 2.83;
        QTest::newRow("mobilenet_v2") << "mobilenet_v2" << 3504872LL << 0.30;
        QTest::newRow("efficientnet_b0") << "efficientnet_b0" << 5288548LL << 0.39;
        QTest::newRow("alexnet") << "alexnet" << 61100840LL << 0.71;
        QTest::newRow("squeezenet1_1") << "squeezenet1_1" << 1235496LL << 0.35;
    }
    void publishedFigures() {
        QFETCH(QString, name);
        QFETCH(qlonglong, parameters);
        QFETCH(double, gmacs);
        const Model model = load_model(example(name.toStdString().c_str()));
        QCOMPARE(model.weight_parameters, parameters);
        std::int64_t macs = 0;
        for (const auto& node : model.nodes)
            if (node.op == "Conv" || node.op == "Gemm" || node.op == "MatMul")
                macs += node.cost.macs;
        QCOMPARE(std::round(static_cast<double>(macs) / 1e7) / 100.0, gmacs);
        QCOMPARE(model.macs, macs);
    }

    void resnet18Structure() {
        const Model model = load_model(example("resnet18"));
        QCOMPARE(model.nodes.size(), std::size_t(69));
        QCOMPARE(model.opset, std::int64_t(17));
        QCOMPARE(model.inputs.size(), std::size_t(1));
        QCOMPARE(model.tensors[model.inputs[0]].name, std::string("input"));
        QCOMPARE(model.tensors[model.outputs[0]].shape,
                 std::optional(cleave::graph::Shape{1, 1000}));
        QVERIFY(model.warnings.empty());
        // BatchNormalization running mean and var are initializers but not parameters.
        QCOMPARE(model.initializer_elements - model.weight_parameters, std::int64_t(2 * 4800));
    }

    void nodesComeInTopologicalOrder() {
        const Model model = load_model(example("densenet121"));
        for (std::size_t n = 0; n < model.nodes.size(); ++n)
            for (const int t : model.nodes[n].inputs)
                if (t >= 0)
                    QVERIFY(model.tensors[t].producer < static_cast<int>(n));
    }

    void everyShapeIsInferred() {
        const Model model = load_model(example("efficientnet_b0"));
        for (const auto& node : model.nodes) {
            QVERIFY2(node.cost.complete, node.name.c_str());
            for (const int t : node.outputs)
                QVERIFY2(model.tensors[t].elements() > 0, model.tensors[t].name.c_str());
        }
    }

    void unsortedFileIsSorted() {
        OnnxBuilder b = small_conv_model();
        b.graph().mutable_node()->SwapElements(0, 1);
        const Model model = load_model_from_bytes(b.bytes(), "unsorted.onnx");
        QCOMPARE(model.nodes[0].name, std::string("conv"));
        QCOMPARE(model.nodes[1].name, std::string("relu"));
        QCOMPARE(model.tensors[model.outputs[0]].shape,
                 std::optional(cleave::graph::Shape{1, 4, 8, 8}));
    }

    void validFileOrderIsKept() {
        OnnxBuilder b;
        b.input("x", {1, 4});
        b.node("Relu", {"x"}, {"a"}, "second_branch");
        b.node("Sigmoid", {"x"}, {"b"}, "first_branch");
        b.node("Add", {"a", "b"}, {"y"}, "join");
        b.output("y");
        const Model model = load_model_from_bytes(b.bytes(), "branches.onnx");
        QCOMPARE(model.nodes[0].name, std::string("second_branch"));
        QCOMPARE(model.nodes[1].name, std::string("first_branch"));
    }

    void inputShapeIsReinferred() {
        LoadOptions options;
        options.input_shapes["input"] = {1, 3, 160, 160};
        const Model model = load_model(example("resnet18"), options);
        QCOMPARE(model.tensors[model.inputs[0]].shape,
                 std::optional(cleave::graph::Shape{1, 3, 160, 160}));
        QCOMPARE(model.tensors[model.outputs[0]].shape,
                 std::optional(cleave::graph::Shape{1, 1000}));
        const auto& first_conv = model.nodes[0];
        QCOMPARE(model.tensors[first_conv.outputs[0]].shape,
                 std::optional(cleave::graph::Shape{1, 64, 80, 80}));
        // Conv MACs scale with the spatial area; the classifier does not.
        const Model full = load_model(example("resnet18"));
        QCOMPARE(model.nodes[0].cost.macs * 224 * 224, full.nodes[0].cost.macs * 160 * 160);
    }

    void symbolicBatchBecomesOne() {
        const OnnxBuilder b = symbolic_batch_model();
        const Model model = load_model_from_bytes(b.bytes(), "batch.onnx");
        QCOMPARE(model.tensors[model.outputs[0]].shape,
                 std::optional(cleave::graph::Shape{1, 4, 8, 8}));
        QCOMPARE(model.warnings.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(model.warnings[0]).contains("(N) is not fixed; using 1"));
    }

    void symbolicBatchCanBeSet() {
        const OnnxBuilder b = symbolic_batch_model();
        LoadOptions options;
        options.input_shapes["x"] = {8, 3, 8, 8};
        const Model model = load_model_from_bytes(b.bytes(), "batch.onnx", options);
        QCOMPARE(model.tensors[model.outputs[0]].shape,
                 std::optional(cleave::graph::Shape{8, 4, 8, 8}));
        QVERIFY(model.warnings.empty());
    }

    void inputShapeForUnknownInputIsRefused() {
        LoadOptions options;
        options.input_shapes["image"] = {1, 3, 8, 8};
        const QString message = load_error(small_conv_model().bytes(), options);
        QVERIFY2(message.contains("--input-shape 'image'") && message.contains("its inputs are: x"),
                 qPrintable(message));
    }

    void inputShapeOfWrongRankIsRefused() {
        LoadOptions options;
        options.input_shapes["x"] = {1, 3, 8};
        const QString message = load_error(small_conv_model().bytes(), options);
        QVERIFY2(message.contains("gives 3 dims but the input has rank 4"), qPrintable(message));
    }

    void autodiceNamesOnRequest() {
        LoadOptions options;
        options.autodice_names = true;
        const Model model = load_model(example("resnet18"), options);
        QCOMPARE(model.nodes[0].name, std::string("_conv1_Conv_output_0"));
    }

    void emptyAndRepeatedNamesGetAutodiceNames() {
        OnnxBuilder b;
        b.input("x", {1, 4});
        b.node("Relu", {"x"}, {"/block/a"}, "same");
        b.node("Relu", {"/block/a"}, {"/block/b"}, "same");
        b.node("Relu", {"/block/b"}, {"y"}, "kept");
        b.graph().mutable_node(2)->set_name("");
        b.node("Relu", {"y"}, {"z"}, "kept");
        b.output("z");
        const Model model = load_model_from_bytes(b.bytes(), "names.onnx");
        QCOMPARE(model.nodes[0].name, std::string("_block_a"));
        QCOMPARE(model.nodes[1].name, std::string("_block_b"));
        QCOMPARE(model.nodes[2].name, std::string("y"));
        QCOMPARE(model.nodes[3].name, std::string("kept"));
    }

    void externalDataInsideTheFolderLoads() {
        QTemporaryDir dir;
        OnnxBuilder b = small_conv_model();
        const std::string payload = b.make_external(0, "weights/w.bin");
        QDir(dir.path()).mkpath("weights");
        std::ofstream(dir.filePath("weights/w.bin").toStdString(), std::ios::binary) << payload;
        b.save(dir.filePath("model.onnx").toStdString());
        const Model model = load_model(dir.filePath("model.onnx").toStdString());
        QCOMPARE(model.weight_parameters, std::int64_t(4 * 3 * 3 * 3));
    }

    // Inspecting, fusing and predicting need the dims only; what runs the model needs the file.
    void externalDataThatIsAbsentStillLoads() {
        QTemporaryDir dir;
        OnnxBuilder b = small_conv_model();
        b.make_external(0, "weights/w.bin");
        b.save(dir.filePath("model.onnx").toStdString());
        const Model model = load_model(dir.filePath("model.onnx").toStdString());
        QCOMPARE(model.weight_parameters, std::int64_t(4 * 3 * 3 * 3));
        QVERIFY(model.warnings.empty());
        QCOMPARE(model.missing_external_data, std::vector<std::string>{"weights/w.bin"});
        QCOMPARE(model.notes, std::vector<std::string>{
                                  "external data file 'weights/w.bin' is absent: the weights are "
                                  "not needed to inspect, fuse or predict; profiling, splitting "
                                  "and running need them"});
        try {
            cleave::graph::UnpackedModelFile unpacked(model);
            QFAIL("an engine was given a model without its weights");
        } catch (const cleave::InputError& e) {
            QCOMPARE(std::string(e.what()),
                     model.file + ": external data: the file weights/w.bin beside the model is "
                                  "missing; running the model reads the weights");
        }
    }

    void compressedModelsLoadAsThePlainOne_data() {
        QTest::addColumn<QString>("format");
        QTest::newRow("xz, as committed") << "xz";
        QTest::newRow("gzip") << "gz";
    }
    void compressedModelsLoadAsThePlainOne() {
        QFETCH(QString, format);
        QTemporaryDir dir;
        std::string file = std::string(CLEAVE_SOURCE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx.xz";
        if (format == "gz") {
            std::ifstream in(example("resnet18"), std::ios::binary);
            const std::string plain{std::istreambuf_iterator<char>(in), {}};
            file = dir.filePath("resnet18.onnx.gz").toStdString();
            std::ofstream(file, std::ios::binary) << cleave::test::gzip(plain);
        }
        const Model packed = load_model(file);
        const Model plain = load_model(example("resnet18"));
        QCOMPARE(packed.file, file);
        QCOMPARE(packed.nodes.size(), plain.nodes.size());
        QCOMPARE(packed.weight_parameters, plain.weight_parameters);
        QCOMPARE(packed.macs, plain.macs);
        QCOMPARE(packed.nodes.back().name, plain.nodes.back().name);
    }

    void externalDataOfACompressedModelIsReadFromItsFolder() {
        QTemporaryDir dir;
        OnnxBuilder b = small_conv_model();
        const std::string payload = b.make_external(0, "weights/w.bin");
        QDir(dir.path()).mkpath("weights");
        std::ofstream(dir.filePath("weights/w.bin").toStdString(), std::ios::binary) << payload;
        const auto bytes = b.bytes();
        std::ofstream(dir.filePath("model.onnx.xz").toStdString(), std::ios::binary)
            << cleave::xz_compress({reinterpret_cast<const char*>(bytes.data()), bytes.size()});
        const Model model = load_model(dir.filePath("model.onnx.xz").toStdString());
        QCOMPARE(model.weight_parameters, std::int64_t(4 * 3 * 3 * 3));
    }

    // Bad input: each is refused with one message naming the file, the place and what was expected.

    void truncatedFileIsRefused() {
        auto bytes = small_conv_model().bytes();
        bytes.resize(bytes.size() - 40);
        const QString message = load_error(bytes);
        QVERIFY2(message.startsWith("model.onnx: byte ") && message.contains("truncated"),
                 qPrintable(message));
    }

    void randomBytesAreRefused() {
        std::mt19937 random(7);
        std::vector<std::uint8_t> bytes(4096);
        for (auto& b : bytes)
            b = static_cast<std::uint8_t>(random());
        const QString message = load_error(bytes);
        QVERIFY2(message.startsWith("model.onnx: ") && !message.isEmpty(), qPrintable(message));
    }

    void emptyFileIsRefused() {
        QTemporaryDir dir;
        const auto path = dir.filePath("empty.onnx").toStdString();
        std::ofstream{path};
        const QString message = file_error(path);
        QVERIFY2(
            message.endsWith("empty.onnx: the file is empty (0 bytes); expected an ONNX model"),
            qPrintable(message));
    }

    void directoryIsRefused() {
        QTemporaryDir dir;
        const QString message = file_error(dir.path().toStdString());
        QVERIFY2(message.endsWith("is a directory; expected an ONNX model file"),
                 qPrintable(message));
    }

    void missingFileIsRefused() {
        const QString message = file_error("/nonexistent/model.onnx");
        QCOMPARE(message,
                 QString("/nonexistent/model.onnx: no such file; expected an ONNX model file"));
    }

    void cyclicGraphIsRefused() {
        OnnxBuilder b;
        b.input("x", {1, 4});
        b.node("Add", {"x", "c"}, {"a"}, "first");
        b.node("Relu", {"a"}, {"b"}, "second");
        b.node("Relu", {"b"}, {"c"}, "third");
        b.output("c");
        const QString message = load_error(b.bytes());
        QVERIFY2(message.contains("the graph has a cycle: first -> second -> third -> first"),
                 qPrintable(message));
    }

    void danglingInputIsRefused() {
        OnnxBuilder b;
        b.input("x", {1, 4});
        b.node("Add", {"x", "ghost"}, {"y"}, "add");
        b.output("y");
        const QString message = load_error(b.bytes());
        QCOMPARE(
            message,
            QString("model.onnx: node 'add': input 'ghost' is produced by no node and is neither a "
                    "graph input nor an initializer"));
    }

    void externalDataOutsideTheFolderIsRefused_data() {
        QTest::addColumn<QString>("location");
        QTest::newRow("absolute") << "/etc/passwd";
        QTest::newRow("parent") << "../secret.bin";
        QTest::newRow("nested parent") << "weights/../../secret.bin";
    }
    void externalDataOutsideTheFolderIsRefused() {
        QFETCH(QString, location);
        QTemporaryDir dir;
        OnnxBuilder b = small_conv_model();
        b.make_external(0, location.toStdString());
        QDir(dir.path()).mkpath("model");
        const auto path = dir.filePath("model/model.onnx").toStdString();
        b.save(path);
        const QString message = file_error(path);
        QVERIFY2(message.contains("initializer 'w': external data location '" + location + "'") &&
                     (message.contains("outside") || message.contains("leaves")),
                 qPrintable(message));
    }

    void symlinkOutOfTheFolderIsRefused() {
        QTemporaryDir dir;
        QDir(dir.path()).mkpath("model");
        std::ofstream(dir.filePath("secret.bin").toStdString())
            << std::string(4 * 3 * 3 * 3 * 4, 'x');
        QFile::link(dir.filePath("secret.bin"), dir.filePath("model/w.bin"));
        OnnxBuilder b = small_conv_model();
        b.make_external(0, "w.bin");
        b.save(dir.filePath("model/model.onnx").toStdString());
        const QString message = file_error(dir.filePath("model/model.onnx").toStdString());
        QVERIFY2(message.contains("resolves outside the model's folder"), qPrintable(message));
    }

    void dimsOverflowingSixtyFourBitsAreRefused() {
        OnnxBuilder b;
        b.input("x", {1LL << 40, 1LL << 30});
        b.node("Relu", {"x"}, {"y"}, "relu");
        b.output("y");
        const QString message = load_error(b.bytes());
        QVERIFY2(message.contains("input 'x'") && message.contains("does not fit in 64 bits"),
                 qPrintable(message));
    }

    void initializerDimsOverflowingAreRefused() {
        OnnxBuilder b = small_conv_model();
        auto& w = *b.graph().mutable_initializer(0);
        w.clear_dims();
        w.add_dims(1LL << 33);
        w.add_dims(1LL << 33);
        const QString message = load_error(b.bytes());
        QVERIFY2(message.contains("initializer 'w'") && message.contains("does not fit in 64 bits"),
                 qPrintable(message));
    }

    void inferredDimsOverflowingAreRefused() {
        OnnxBuilder b;
        b.input("x", {1});
        b.int64_initializer("huge", {1LL << 40, 1LL << 40});
        b.node("Expand", {"x", "huge"}, {"y"}, "expand");
        b.output("y");
        const QString message = load_error(b.bytes());
        QVERIFY2(message.startsWith("model.onnx: tensor 'y': inferred shape: ") &&
                     message.contains("does not fit in 64 bits"),
                 qPrintable(message));
    }

    void initializerOfWrongSizeIsRefused() {
        OnnxBuilder b = small_conv_model();
        b.graph().mutable_initializer(0)->mutable_raw_data()->resize(100);
        const QString message = load_error(b.bytes());
        QCOMPARE(
            message,
            QString(
                "model.onnx: initializer 'w': holds 100 bytes of data but dims 4x3x3x3 of float32 "
                "need 432"));
    }

    void opsetNewerThanTheImporterReadsIsRefused() {
        OnnxBuilder b = small_conv_model();
        b.model.mutable_opset_import(0)->set_version(cleave::graph::newest_known_opset() + 1);
        const QString message = load_error(b.bytes());
        QVERIFY2(message.contains("opset_import 'ai.onnx': version") &&
                     message.contains("is not one this build reads (1 to 21)"),
                 qPrintable(message));
    }

    void nodeNotFittingItsSchemaIsRefused() {
        // A Scan without its body graph: libonnx's inference would dereference the missing body.
        OnnxBuilder b;
        b.input("x", {2, 3});
        auto& scan = b.node("Scan", {"x"}, {"y"}, "scan");
        OnnxBuilder::set_int(scan, "num_scan_inputs", 1);
        b.output("y");
        const QString message = load_error(b.bytes());
        QVERIFY2(message.startsWith("model.onnx: node 'scan': does not fit the Scan schema: "),
                 qPrintable(message));
        QVERIFY(!message.contains('\n'));
    }

    void nodeAfterAnUntypedValueStaysUnknown() {
        // libonnx's Shape inference dereferences an untyped input; such nodes are not inferred.
        OnnxBuilder b;
        b.input("x", {2, 3});
        b.node("Mystery", {"x"}, {"a"}, "custom").set_domain("com.example");
        auto& shape = b.node("Shape", {"a"}, {"y"}, "shape");
        OnnxBuilder::set_int(shape, "start", -1);
        b.output("y", onnx::TensorProto::INT64);
        auto* custom = b.model.add_opset_import();
        custom->set_domain("com.example");
        custom->set_version(1);
        const Model model = load_model_from_bytes(b.bytes(), "untyped.onnx");
        QCOMPARE(model.tensors[model.outputs[0]].shape, std::nullopt);
        QVERIFY(!model.warnings.empty());
    }

    void gemmWithAVectorOperandIsNotInferred() {
        // libonnx 1.12's Gemm-6 inference reads dim 1 of B whatever its rank.
        OnnxBuilder b(6);
        b.input("a", {2, 3});
        b.input("v", {3});
        b.input("c", {1});
        b.node("Gemm", {"a", "v", "c"}, {"y"}, "gemm");
        b.output("y");
        const Model model = load_model_from_bytes(b.bytes(), "gemm.onnx");
        QCOMPARE(model.tensors[model.outputs[0]].shape, std::nullopt);
    }

    void constantOfWrongSizeIsRefused() {
        OnnxBuilder b;
        b.input("x", {6});
        auto& constant = b.node("Constant", {}, {"c"}, "constant");
        auto* value = constant.add_attribute();
        value->set_name("value");
        value->set_type(onnx::AttributeProto::TENSOR);
        value->mutable_t()->set_data_type(onnx::TensorProto::INT64);
        value->mutable_t()->add_dims(6);
        value->mutable_t()->set_raw_data(std::string(46, '\0'));
        b.node("Add", {"x", "c"}, {"y"}, "add");
        b.output("y");
        const QString message = load_error(b.bytes());
        QCOMPARE(
            message,
            QString(
                "model.onnx: node 'constant' attribute 'value': holds 46 bytes of data but dims 6 "
                "of int64 need 48"));
    }

    void zeroStrideIsRefused() {
        OnnxBuilder b;
        b.input("x", {1, 2, 8, 8});
        auto& pool = b.node("MaxPool", {"x"}, {"y"}, "pool");
        OnnxBuilder::set_ints(pool, "kernel_shape", {2, 2});
        OnnxBuilder::set_ints(pool, "strides", {0, 1});
        b.output("y");
        QCOMPARE(
            load_error(b.bytes()),
            QString("model.onnx: node 'pool': attribute 'strides' holds 0; expected strides >= 1"));
    }

    void modelWithoutGraphIsRefused() {
        onnx::ModelProto proto;
        proto.set_ir_version(8);
        const std::string s = proto.SerializeAsString();
        const QString message = load_error({s.begin(), s.end()});
        QCOMPARE(
            message,
            QString(
                "model.onnx: ModelProto.graph: the file holds no graph; expected an ONNX model"));
    }

    void progressIsReportedAndCanCancel() {
        std::vector<double> seen;
        cleave::TaskControl control([&](const cleave::TaskProgress& report) {
            seen.push_back(report.fraction.value());
            if (report.fraction.value() >= 0.5)
                control.cancel();
        });
        LoadOptions options;
        options.control = &control;
        QVERIFY_THROWS_EXCEPTION(cleave::Cancelled, load_model(example("resnet18"), options));
        QVERIFY(seen.size() >= 3);
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    }
};

QTEST_GUILESS_MAIN(OnnxImportTest)
#include "onnx_import_test.moc"
