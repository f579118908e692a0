// The measured sample (tests/data/ort-cpu-xeon-sample.json: five CNNs at 1 thread, ONNX Runtime
// on a Xeon) with the example model behind each run, for tests that train on real measurements.
#pragma once

#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"
#include "core/predict/predictor_training.hpp"
#include "core/profile/measured_dataset.hpp"
#include "input_error_of.hpp"

#include <functional>
#include <string>
#include <vector>

namespace cleave::test {

inline const std::string kMeasuredSample =
    std::string(CLEAVE_TEST_DATA_DIR) + "/ort-cpu-xeon-sample.json";

struct MeasuredSample {
    profile::MeasuredDataset data = profile::load_measured_dataset(kMeasuredSample);
    std::vector<graph::Model> models; // models[i] is the model of data.runs[i]

    MeasuredSample() {
        models.reserve(data.runs.size());
        for (const auto& run : data.runs)
            models.push_back(graph::load_model(std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/" +
                                               run.model + ".onnx"));
    }
};

// The sample's runs prepared for training (predict::prepare_run), loaded once per test program.
struct PreparedSample : MeasuredSample {
    std::vector<predict::RunData> runs;
    PreparedSample() {
        for (std::size_t i = 0; i < data.runs.size(); ++i)
            runs.push_back(predict::prepare_run(models[i], data.runs[i]));
    }
    std::vector<const predict::RunData*> all() const {
        std::vector<const predict::RunData*> out;
        for (const auto& r : runs)
            out.push_back(&r);
        return out;
    }
};

inline const PreparedSample& prepared_sample() {
    static const PreparedSample sample;
    return sample;
}

} // namespace cleave::test
