// The OpenCV rank engine: OpenCV's DNN module in the rank's own process, float tensors only.
#include "core/graph/clip_bounds_to_attributes.hpp"
#include "core/input_error.hpp"
#include "rank_engine.hpp"

#include <cstring>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/dnn.hpp>
#include <stdexcept>

namespace cleave::autodice {

namespace {

class OpenCvEngine final : public RankEngine {
public:
    OpenCvEngine(const std::filesystem::path& model, int threads) : file_(model.string()) {
        cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_ERROR);
        // OpenCV 4.6 reads Clip's bounds only as attributes.
        const auto rewrite = graph::clip_bounds_to_attributes(model);
        net_ = rewrite ? cv::dnn::readNetFromONNX(rewrite->model.data(), rewrite->model.size())
                       : cv::dnn::readNetFromONNX(model.string());
        net_.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
        net_.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
        cv::setNumThreads(threads);
    }

    void start(const std::vector<NamedTensor>& inputs, const std::vector<std::string>& outputs,
               const KeptState* state) override {
        if (state)
            throw std::runtime_error("OpenCV's DNN module keeps no decoder caches; a decode run "
                                     "takes --runner ort");
        results_ = compute(inputs, outputs);
    }
    bool done(int) override { return true; }
    std::vector<HostTensor> finish() override { return std::move(results_); }

    double last_run_ms() const override { return last_ms_; }

private:
    std::vector<HostTensor> compute(const std::vector<NamedTensor>& inputs,
                                    const std::vector<std::string>& outputs) {
        std::vector<cv::Mat> blobs; // kept until forward
        for (const auto& in : inputs) {
            if (in.tensor->dtype != graph::DataType::Float32)
                throw InputError(file_, in.name,
                                 "a " + std::string(graph::to_string(in.tensor->dtype)) +
                                     " tensor; the OpenCV runner carries float tensors (use "
                                     "--runner ort)");
            std::vector<int> dims(in.tensor->dims.begin(), in.tensor->dims.end());
            blobs.emplace_back(static_cast<int>(dims.size()), dims.data(), CV_32F,
                               const_cast<std::byte*>(in.tensor->bytes.data()));
            net_.setInput(blobs.back(), in.name);
        }
        const auto start = cv::getTickCount();
        std::vector<cv::Mat> results;
        net_.forward(results, outputs);
        last_ms_ = 1000.0 * static_cast<double>(cv::getTickCount() - start) / cv::getTickFrequency();
        std::vector<HostTensor> out;
        for (auto& r : results) {
            const cv::Mat m = r.isContinuous() ? r : r.clone();
            HostTensor t;
            for (int d = 0; d < m.dims; ++d)
                t.dims.push_back(m.size[d]);
            t.bytes.resize(m.total() * sizeof(float));
            std::memcpy(t.bytes.data(), m.ptr<float>(), t.bytes.size());
            out.push_back(std::move(t));
        }
        return out;
    }

    std::string file_;
    std::vector<HostTensor> results_;
    cv::dnn::Net net_;
    double last_ms_ = 0;
};

} // namespace

std::unique_ptr<RankEngine> make_opencv_engine(const std::filesystem::path& model, int threads) {
    return std::make_unique<OpenCvEngine>(model, threads);
}

std::string opencv_engine_runtime() {
    return std::string("OpenCV ") + CV_VERSION + " DNN";
}

} // namespace cleave::autodice
