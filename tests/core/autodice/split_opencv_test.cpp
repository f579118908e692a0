// Split correctness: resnet18, densenet121, mobilenet_v2 and vgg19 cut into 24 sub-models (at
// the kernel boundaries nearest to equal node counts) and run one after another with OpenCV DNN,
// each fed the tensors the earlier ones produced, give the whole model's output within 1e-4.
#include "core/autodice/export.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/clip_bounds_to_attributes.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/partition/equal_node_points.hpp"

#include <QTemporaryDir>
#include <QtTest>
#include <map>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/dnn.hpp>

using namespace cleave;
namespace fs = std::filesystem;

namespace {

constexpr int kParts = 24;

cv::dnn::Net read_net(const fs::path& file) {
    // OpenCV 4.6 reads Clip's bounds only as attributes (as the OpenCV profiler plugin does).
    const auto rewrite = graph::clip_bounds_to_attributes(file);
    cv::dnn::Net net = rewrite
                           ? cv::dnn::readNetFromONNX(rewrite->model.data(), rewrite->model.size())
                           : cv::dnn::readNetFromONNX(file.string());
    net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
    net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
    return net;
}

cv::Mat random_input(const graph::Tensor& input) {
    std::vector<int> dims(input.shape->begin(), input.shape->end());
    cv::Mat blob(static_cast<int>(dims.size()), dims.data(), CV_32F);
    cv::RNG random(7);
    random.fill(blob, cv::RNG::UNIFORM, 0.0, 1.0);
    return blob;
}

} // namespace

class SplitOpenCvTest : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    void sub_models_give_the_whole_output(const std::string& name) {
        const auto model =
            graph::load_model(std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/" + name + ".onnx");
        const auto kernels = fusion::detect_kernels(model, fusion::find_fusion_method("ort-cpu"));
        const auto points = partition::equal_node_points(kernels, kParts);
        const int count = static_cast<int>(kernels.kernels.size());
        std::vector<int> pes(kParts);
        for (int s = 0; s < kParts; ++s)
            pes[static_cast<std::size_t>(s)] = s;
        const auto assignment = partition::assignment_of({points, pes}, count);
        std::vector<autodice::PackagePart> parts(kParts);
        for (int s = 0; s < kParts; ++s)
            parts[static_cast<std::size_t>(s)].key = "h" + std::to_string(s) + "_gpu";
        for (std::size_t n = 0; n < model.nodes.size(); ++n)
            parts[static_cast<std::size_t>(
                      assignment.pe_of_kernel[static_cast<std::size_t>(kernels.kernel_of_node[n])])]
                .nodes.push_back(static_cast<int>(n));
        const auto package = autodice::make_package(model, parts, nullptr, name);
        const fs::path folder = fs::path(dir_.path().toStdString()) / name;
        autodice::write_package(model, package, folder);

        QCOMPARE(model.inputs.size(), std::size_t{1});
        QCOMPARE(model.outputs.size(), std::size_t{1});
        const auto& input = model.tensors[static_cast<std::size_t>(model.inputs[0])];
        const auto& output = model.tensors[static_cast<std::size_t>(model.outputs[0])];
        const cv::Mat blob = random_input(input);

        cv::dnn::Net whole = read_net(model.file);
        whole.setInput(blob, input.name);
        const cv::Mat expected = whole.forward(output.name).clone();

        std::map<std::string, cv::Mat> tensors{{input.name, blob}};
        for (std::size_t r = 0; r < package.parts.size(); ++r) {
            cv::dnn::Net net = read_net(folder / (package.parts[r].key + ".onnx"));
            std::vector<std::string> outputs;
            for (const int t : package.sub_models[r].inputs) {
                const auto tensor =
                    graph::sub_model_tensor_name(model.tensors[static_cast<std::size_t>(t)].name,
                                                 graph::SubModelNaming::autodice);
                QVERIFY2(tensors.count(tensor), tensor.c_str());
                net.setInput(tensors[tensor], tensor);
            }
            for (const int t : package.sub_models[r].outputs)
                outputs.push_back(
                    graph::sub_model_tensor_name(model.tensors[static_cast<std::size_t>(t)].name,
                                                 graph::SubModelNaming::autodice));
            std::vector<cv::Mat> results;
            net.forward(results, outputs);
            QCOMPARE(results.size(), outputs.size());
            for (std::size_t o = 0; o < outputs.size(); ++o)
                tensors[outputs[o]] = results[o].clone();
        }
        const cv::Mat& got = tensors.at(output.name);
        QCOMPARE(got.total(), expected.total());
        const double difference = cv::norm(got.reshape(1, 1), expected.reshape(1, 1), cv::NORM_INF);
        const double scale = cv::norm(expected.reshape(1, 1), cv::NORM_INF);
        qInfo("%s: %d sub-models, max abs diff %.3g (largest output %.3g)", name.c_str(), kParts,
              difference, scale);
        QVERIFY2(difference <= 1e-4, std::to_string(difference).c_str());
    }

private slots:
    void initTestCase() { cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_ERROR); }
    void resnet18() { sub_models_give_the_whole_output("resnet18"); }
    void densenet121() { sub_models_give_the_whole_output("densenet121"); }
    void mobilenetV2() { sub_models_give_the_whole_output("mobilenet_v2"); }
    void vgg19() { sub_models_give_the_whole_output("vgg19"); }
};

QTEST_GUILESS_MAIN(SplitOpenCvTest)
#include "split_opencv_test.moc"
