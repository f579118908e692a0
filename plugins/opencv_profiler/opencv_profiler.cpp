// The OpenCV DNN profiler: runs an ONNX model with OpenCV's own back end on the CPU, times each
// inference and reads per-layer times from Net::getPerfProfile, mapped back to the model's nodes
// (layer_kernels.hpp). docs/profiling.md says which models OpenCV 4.6 runs.
#include "core/graph/clip_bounds_to_attributes.hpp"
#include "core/graph/model_file.hpp"
#include "core/input_error.hpp"
#include "core/plugin/plugin_registry.hpp"
#include "core/profile/measurement_rounds.hpp"
#include "core/profile/profiler.hpp"
#include "core/statistics.hpp"
#include "layer_kernels.hpp"

#include <chrono>
#include <climits>
#include <map>
#include <opencv2/core/utility.hpp>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/dnn.hpp>

namespace cleave::opencv_profiler {

namespace {

// OpenCV reports a node its importer refuses as "... Node [Expand@ai.onnx]:(onnx_node!/Expand)
// parse error: OpenCV(4.6.0) <file>:<line>: error: (-2:Unspecified error) <reason> in function
// 'parseExpand'": the place is the node, the problem the innermost reason.
InputError refusal(const std::string& file, const std::string& stage, const cv::Exception& e) {
    const std::string text = e.what();
    std::string place;
    if (const auto at = text.find("Node ["); at != std::string::npos) {
        const auto op_end = text.find_first_of("@]", at);
        const auto open = text.find("]:(", at);
        const auto close = open == std::string::npos ? open : text.find(')', open);
        if (op_end != std::string::npos && close != std::string::npos) {
            std::string layer = text.substr(open + 3, close - open - 3);
            if (layer.starts_with("onnx_node!"))
                layer.erase(0, 10);
            place = "node " + layer + " (" + text.substr(at + 6, op_end - at - 6) + ")";
        }
    }
    std::string reason = text;
    if (const auto error = text.rfind("error: ("); error != std::string::npos)
        if (const auto kind_end = text.find(") ", error); kind_end != std::string::npos)
            reason = text.substr(kind_end + 2);
    reason = reason.substr(0, reason.find('\n'));
    return InputError(file, place,
                      "OpenCV " + cv::getVersionString() + " DNN cannot " + stage + ": " + reason);
}

cv::dnn::Net read_net(const graph::Model& model, const profile::ProfileOptions& options) {
    std::optional<graph::ClipBoundsRewrite> rewrite;
    for (const auto& node : model.nodes)
        if (node.op == "Clip" && node.inputs.size() > 1) {
            rewrite = graph::clip_bounds_to_attributes(model.file);
            break;
        }
    if (rewrite)
        report_line(options.control, "opencv: the bounds of " + std::to_string(rewrite->clips) +
                                         " Clip nodes given as attributes, the only form OpenCV " +
                                         cv::getVersionString() + " reads");
    // The importer logs each refusal before throwing it; the exception says the same.
    const auto level = cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
    try {
        cv::dnn::Net net =
            rewrite ? cv::dnn::readNetFromONNX(rewrite->model.data(), rewrite->model.size())
                    : cv::dnn::readNetFromONNX(graph::UnpackedModelFile(model).path().string());
        cv::utils::logging::setLogLevel(level);
        return net;
    } catch (const cv::Exception& e) {
        cv::utils::logging::setLogLevel(level);
        throw refusal(model.file, "import it", e);
    }
}

void set_inputs(cv::dnn::Net& net, const graph::Model& model) {
    cv::RNG random(1);
    for (const int t : model.inputs) {
        const auto& input = model.tensors[static_cast<std::size_t>(t)];
        const std::string place = "input " + input.name;
        if (input.dtype != graph::DataType::Float32)
            throw InputError(model.file, place,
                             "is " + std::string(graph::to_string(input.dtype)) +
                                 "; the OpenCV profiler feeds float32 inputs only");
        if (!input.shape || input.shape->empty())
            throw InputError(model.file, place,
                             "has no known dims; give them with --input-shape NAME=DIMS");
        std::vector<int> dims;
        for (const auto d : *input.shape) {
            if (d < 1 || d > INT_MAX)
                throw InputError(model.file, place,
                                 "dims " + graph::shape_to_string(input.shape) +
                                     "; expected dims from 1 to " + std::to_string(INT_MAX));
            dims.push_back(static_cast<int>(d));
        }
        cv::Mat blob(static_cast<int>(dims.size()), dims.data(), CV_32F);
        random.fill(blob, cv::RNG::UNIFORM, 0.0, 1.0);
        net.setInput(blob, input.name);
    }
}

class OpenCvProfiler final : public profile::Profiler {
public:
    std::string runtime() const override {
        return "OpenCV " + cv::getVersionString() + " DNN, OpenCV backend, CPU target";
    }

    profile::MeasuredRun profile(const graph::Model& model,
                                 const profile::ProfileOptions& options) override {
        cv::setNumThreads(options.threads);
        cv::dnn::Net net = read_net(model, options);
        net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
        net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
        set_inputs(net, model);
        const std::vector<cv::String> outputs = net.getUnconnectedOutLayersNames();
        std::vector<cv::Mat> results;
        auto forward = [&] {
            try {
                net.forward(results, outputs);
            } catch (const cv::Exception& e) {
                throw refusal(model.file, "run it at these input shapes", e);
            }
        };

        // Per timed run, each layer's ticks; the plugin's progress lines start with its name.
        const std::vector<cv::String> layer_names = net.getLayerNames();
        std::vector<std::vector<double>> layer_ticks;
        const TaskControl rounds_control(options.control, [&](const TaskProgress& p) {
            report_progress(options.control,
                            {p.fraction, "opencv: " + std::string(p.stage), p.lasting});
        });
        profile::ProfileOptions rounds = options;
        rounds.control = &rounds_control;
        const auto measured = profile::measure_rounds(rounds, [&](int timed_run) {
            const auto start = std::chrono::steady_clock::now();
            forward();
            const auto stop = std::chrono::steady_clock::now();
            if (timed_run >= 0) {
                std::vector<double> ticks;
                net.getPerfProfile(ticks);
                if (ticks.size() != layer_names.size())
                    throw std::runtime_error("OpenCV timed " + std::to_string(ticks.size()) +
                                             " layers of " + std::to_string(layer_names.size()));
                layer_ticks.push_back(std::move(ticks));
            }
            return std::chrono::duration<double, std::milli>(stop - start).count();
        });
        const auto first = layer_ticks.begin() + measured.first_run;
        const std::vector<std::vector<double>> best_ticks(
            first, first + static_cast<std::ptrdiff_t>(measured.e2e_ms.size()));
        std::vector<bool> ran(layer_names.size(), false);
        for (const auto& ticks : layer_ticks)
            for (std::size_t l = 0; l < ticks.size(); ++l)
                ran[l] = ran[l] || ticks[l] > 0;

        // Skipped layers take zero ticks in every run: OpenCV fused them into another layer.
        std::map<int, int> index_of_id; // layer ids to indices into layer_names
        for (std::size_t l = 0; l < layer_names.size(); ++l)
            index_of_id[net.getLayerId(layer_names[l])] = static_cast<int>(l);
        std::vector<Layer> layers;
        for (std::size_t l = 0; l < layer_names.size(); ++l) {
            const int id = net.getLayerId(layer_names[l]);
            Layer layer{layer_names[l], net.getLayer(id)->type, {}, !ran[l]};
            for (const auto& in : net.getLayerInputs(id)) {
                const auto it = index_of_id.find(net.getLayerId(in->name));
                layer.inputs.push_back(it == index_of_id.end() ? -1 : it->second);
            }
            layers.push_back(std::move(layer));
        }

        profile::MeasuredRun run;
        run.model = graph::model_name(model.file);
        run.threads = options.threads;
        run.dtype = "float32";
        if (!model.inputs.empty())
            run.input_shape = *model.tensors[static_cast<std::size_t>(model.inputs[0])].shape;
        run.e2e_ms = measured.e2e_ms;
        run.cv = measured.cv;
        const double us_per_tick = 1e6 / cv::getTickFrequency();
        for (auto& kernel : group_layers(model, layers)) {
            std::vector<double> per_run;
            for (const auto& ticks : best_ticks) {
                double sum = 0;
                for (const int l : kernel.layers)
                    sum += ticks[static_cast<std::size_t>(l)];
                per_run.push_back(sum * us_per_tick);
            }
            run.kernels.push_back({std::move(kernel.name), std::move(kernel.op), "",
                                   std::move(kernel.covers), cleave::median(per_run)});
        }
        return run;
    }
};

} // namespace

} // namespace cleave::opencv_profiler

extern "C" __attribute__((visibility("default"))) const cleave::plugin::PluginDescriptor*
cleave_plugin() {
    static const cleave::plugin::PluginDescriptor descriptor{
        cleave::plugin::kPluginAbiVersion, cleave::profile::Profiler::kPluginKind, "opencv",
        "OpenCV " CV_VERSION " DNN module: ONNX models on the CPU, per-layer times", []() -> void* {
            return static_cast<cleave::profile::Profiler*>(
                new cleave::opencv_profiler::OpenCvProfiler);
        }};
    return &descriptor;
}
