// The measured sample (tests/data/ort-cpu-xeon-sample.json: five CNNs at 1 thread, ONNX Runtime
// on a Xeon) with the example model behind each run, for tests that train on real measurements.
#pragma once

#include "core/graph/onnx_import.hpp"
#include "core/profile/measured_dataset.hpp"

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

} // namespace cleave::test
