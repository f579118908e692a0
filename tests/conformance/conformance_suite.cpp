// Walks ONNX conformance cases, loads each model with the importer and compares output shapes
// with the recorded tensors; the protobuf side (test code may read it) only classifies outputs.
#include "conformance_suite.hpp"

#include "core/graph/onnx_import.hpp"
#include "core/input_error.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <onnx/onnx_pb.h>
#include <sstream>
#include <stdexcept>
#include <stop_token>
#include <thread>
#include <unordered_set>

namespace cleave::conformance {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

std::string type_kind(const onnx::TypeProto& type) {
    switch (type.value_case()) {
    case onnx::TypeProto::kSequenceType:
        return "a sequence";
    case onnx::TypeProto::kMapType:
        return "a map";
    case onnx::TypeProto::kOptionalType:
        return "an optional";
    case onnx::TypeProto::kSparseTensorType:
        return "a sparse tensor";
    default:
        return "untyped";
    }
}

// True when a graph input (not an initializer) has an unknown rank or a dim without a value:
// the importer then assumes 1, which the recorded data need not share.
bool has_unfixed_input_dims(const onnx::GraphProto& graph) {
    std::unordered_set<std::string> initializers;
    for (const auto& t : graph.initializer())
        initializers.insert(t.name());
    for (const auto& input : graph.input()) {
        if (initializers.count(input.name()) || !input.type().has_tensor_type())
            continue;
        const auto& tensor = input.type().tensor_type();
        if (!tensor.has_shape())
            return true;
        for (const auto& dim : tensor.shape().dim())
            if (!dim.has_dim_value())
                return true;
    }
    return false;
}

ConformanceCase describe_case(const fs::path& folder, const fs::path& root) {
    ConformanceCase c;
    c.folder = folder;
    c.name = folder.lexically_relative(root).generic_string();
    onnx::ModelProto model;
    if (!model.ParseFromString(read_file(folder / "model.onnx"))) {
        c.excluded_because = "model.onnx does not parse as a ModelProto";
        return c;
    }
    c.unfixed_input_dims = has_unfixed_input_dims(model.graph());
    const auto& outputs = model.graph().output();
    for (int i = 0; i < outputs.size(); ++i) {
        const std::string label = "output " + std::to_string(i) + " '" + outputs[i].name() + "'";
        if (!outputs[i].type().has_tensor_type()) {
            c.excluded_because = label + " is " + type_kind(outputs[i].type());
            c.recorded.clear();
            return c;
        }
        const auto file = "test_data_set_0/output_" + std::to_string(i) + ".pb";
        onnx::TensorProto recorded;
        if (!fs::is_regular_file(folder / file) ||
            !recorded.ParseFromString(read_file(folder / file))) {
            c.excluded_because = label + ": no TensorProto recorded in " + file;
            c.recorded.clear();
            return c;
        }
        c.recorded.emplace_back(recorded.dims().begin(), recorded.dims().end());
    }
    return c;
}

// A thread that aborts the process when one load runs past the limit, naming the case first.
class HangGuard {
public:
    explicit HangGuard(double limit_s)
        : limit_(
              std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit_s))),
          thread_([this](std::stop_token stop) { watch(stop); }) {}

    void start(const std::string& name) {
        const std::lock_guard lock(mutex_);
        name_ = name;
        started_ = Clock::now();
        active_ = true;
    }

    void stop() {
        const std::lock_guard lock(mutex_);
        active_ = false;
    }

private:
    void watch(std::stop_token stop) {
        std::unique_lock lock(mutex_);
        while (!stop.stop_requested()) {
            if (active_ && Clock::now() - started_ > limit_) {
                std::fprintf(stderr, "%s: still loading after %g s; taken for a hang\n",
                             name_.c_str(), std::chrono::duration<double>(limit_).count());
                std::abort();
            }
            wake_.wait_for(lock, stop, std::chrono::milliseconds(200), [] { return false; });
        }
    }

    const Clock::duration limit_;
    std::mutex mutex_;
    std::condition_variable_any wake_;
    std::string name_;
    Clock::time_point started_;
    bool active_ = false;
    std::jthread thread_; // last: joined before the members it reads are destroyed
};

std::string describe_shape(const std::optional<graph::Shape>& shape) {
    return shape ? graph::shape_to_string(shape) : "unknown rank";
}

// Empty when every output's shape is known and equal to the recorded one.
std::string compare_outputs(const graph::Model& model, const ConformanceCase& c) {
    if (model.outputs.size() != c.recorded.size())
        return std::to_string(model.outputs.size()) + " graph outputs, " +
               std::to_string(c.recorded.size()) + " recorded";
    std::string differences;
    for (std::size_t i = 0; i < c.recorded.size(); ++i) {
        const auto& tensor = model.tensors[static_cast<std::size_t>(model.outputs[i])];
        if (tensor.shape == c.recorded[i])
            continue;
        differences += (differences.empty() ? "" : "; ") + std::string("output ") +
                       std::to_string(i) + " '" + tensor.name + "': inferred " +
                       describe_shape(tensor.shape) + ", recorded " + describe_shape(c.recorded[i]);
    }
    if (!differences.empty() && c.unfixed_input_dims)
        differences += " (a graph input has unfixed dims, taken as 1)";
    return differences;
}

} // namespace

std::vector<ConformanceCase> find_cases(const fs::path& root) {
    if (!fs::is_directory(root))
        throw std::runtime_error(root.string() + ": not a folder of ONNX test cases");
    std::vector<ConformanceCase> cases;
    for (const auto& entry : fs::recursive_directory_iterator(root))
        if (entry.path().filename() == "model.onnx" && entry.is_regular_file())
            cases.push_back(describe_case(entry.path().parent_path(), root));
    std::sort(cases.begin(), cases.end(),
              [](const ConformanceCase& a, const ConformanceCase& b) { return a.name < b.name; });
    return cases;
}

SuiteResult run_suite(const std::vector<ConformanceCase>& cases, bool keep_declared_shapes,
                      double hang_limit_s) {
    SuiteResult result;
    result.keep_declared_shapes = keep_declared_shapes;
    graph::LoadOptions options;
    options.keep_declared_shapes = keep_declared_shapes;
    HangGuard guard(hang_limit_s);
    for (const auto& c : cases) {
        ++result.models;
        guard.start(c.name);
        const auto start = Clock::now();
        try {
            const auto model = graph::load_model(c.folder / "model.onnx", options);
            ++result.loaded;
            if (!c.excluded_because.empty()) {
                result.excluded.push_back({c.name, c.excluded_because});
            } else {
                ++result.compared;
                auto difference = compare_outputs(model, c);
                if (difference.empty())
                    ++result.matched;
                else
                    result.mismatches.push_back({c.name, std::move(difference)});
            }
        } catch (const InputError& e) {
            ++result.refused;
            result.refusals.push_back({c.name, e.what()});
        } catch (const std::exception& e) {
            ++result.crashed;
            result.crashes.push_back({c.name, std::string("exception: ") + e.what()});
        } catch (...) {
            ++result.crashed;
            result.crashes.push_back({c.name, "an exception not derived from std::exception"});
        }
        guard.stop();
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        if (seconds > 1.0) {
            char text[32];
            std::snprintf(text, sizeof text, "%.2f s", seconds);
            result.slow.push_back({c.name, text});
        }
    }
    return result;
}

std::string summary(const SuiteResult& r) {
    return std::string(r.keep_declared_shapes ? "declared shapes kept"
                                              : "declared shapes removed and re-inferred") +
           ": " + std::to_string(r.loaded) + " of " + std::to_string(r.models) + " loaded, " +
           std::to_string(r.refused) + " refused, " + std::to_string(r.crashed) + " crashed; " +
           std::to_string(r.matched) + " of " + std::to_string(r.compared) +
           " match the recorded output shapes (" + std::to_string(r.excluded.size()) +
           " excluded: an output not a tensor or not recorded)";
}

} // namespace cleave::conformance
