#include "measured_dataset.hpp"

#include "../atomic_file.hpp"
#include "../input_error.hpp"
#include "../json_file.hpp"

#include <nlohmann/json.hpp>

namespace cleave::profile {

namespace {

using nlohmann::json;

class Reader {
public:
    explicit Reader(std::string file) : file_(std::move(file)) {}

    [[noreturn]] void fail(const std::string& pointer, const std::string& expected) const {
        throw InputError(file_, pointer, "expected " + expected);
    }
    const json& need(const json& object, const std::string& pointer, const char* key) const {
        const auto it = object.find(key);
        if (it == object.end())
            fail(pointer, std::string("a field \"") + key + "\"");
        return *it;
    }
    std::string text(const json& value, const std::string& pointer) const {
        if (!value.is_string())
            fail(pointer, "a string");
        return value.get<std::string>();
    }

private:
    std::string file_;
};

} // namespace

MeasuredDataset load_measured_dataset(const std::string& path) {
    const json root = read_json_file(path, "a measured dataset (.json or .json.xz)");
    Reader r(path);
    if (!root.is_object())
        r.fail("", "an object with \"runs\"");
    MeasuredDataset data;
    data.file = path;
    if (root.contains("runtime") && root["runtime"].is_string())
        data.runtime = root["runtime"].get<std::string>();
    else if (root.contains("ort") && root["ort"].is_string())
        data.runtime = "ONNX Runtime " + root["ort"].get<std::string>();
    else if (root.contains("torch") && root["torch"].is_string())
        data.runtime = "PyTorch " + root["torch"].get<std::string>();
    for (const char* key : {"cpu", "device"})
        if (root.contains(key) && root[key].is_string())
            data.device = root[key].get<std::string>();
    const json& runs = r.need(root, "", "runs");
    if (!runs.is_array())
        r.fail("/runs", "a list of runs");
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const std::string at = "/runs/" + std::to_string(i);
        const json& run = runs[i];
        if (!run.is_object())
            r.fail(at, "a run object");
        MeasuredRun m;
        m.model = r.text(r.need(run, at, "model"), at + "/model");
        if (run.contains("threads")) {
            if (!run["threads"].is_number_integer())
                r.fail(at + "/threads", "a whole number");
            m.threads = run["threads"].get<int>();
        }
        if (run.contains("dtype"))
            m.dtype = r.text(run["dtype"], at + "/dtype");
        const json& shape = r.need(run, at, "input_shape");
        if (!shape.is_array())
            r.fail(at + "/input_shape", "a list of dims");
        for (std::size_t d = 0; d < shape.size(); ++d) {
            if (!shape[d].is_number_integer())
                r.fail(at + "/input_shape/" + std::to_string(d), "a whole number");
            m.input_shape.push_back(shape[d].get<std::int64_t>());
        }
        const json& e2e = r.need(run, at, "e2e_ms");
        if (!e2e.is_array())
            r.fail(at + "/e2e_ms", "a list of times in ms");
        for (std::size_t t = 0; t < e2e.size(); ++t) {
            if (!e2e[t].is_number())
                r.fail(at + "/e2e_ms/" + std::to_string(t), "a time in ms");
            m.e2e_ms.push_back(e2e[t].get<double>());
        }
        if (run.contains("cv") && !run["cv"].is_null()) {
            if (!run["cv"].is_number())
                r.fail(at + "/cv", "a coefficient of variation or null");
            m.cv = run["cv"].get<double>();
        }
        if (run.contains("kernels")) {
            const json& kernels = run["kernels"];
            if (!kernels.is_array())
                r.fail(at + "/kernels", "a list of kernels");
            for (std::size_t k = 0; k < kernels.size(); ++k) {
                const std::string kat = at + "/kernels/" + std::to_string(k);
                const json& kernel = kernels[k];
                if (!kernel.is_object())
                    r.fail(kat, "a kernel object");
                MeasuredKernel mk;
                mk.name = r.text(r.need(kernel, kat, "name"), kat + "/name");
                if (kernel.contains("op"))
                    mk.op = r.text(kernel["op"], kat + "/op");
                if (kernel.contains("domain"))
                    mk.domain = r.text(kernel["domain"], kat + "/domain");
                if (kernel.contains("covers")) {
                    if (!kernel["covers"].is_array())
                        r.fail(kat + "/covers", "a list of node names");
                    for (std::size_t c = 0; c < kernel["covers"].size(); ++c)
                        mk.covers.push_back(
                            r.text(kernel["covers"][c], kat + "/covers/" + std::to_string(c)));
                }
                if (kernel.contains("us") && !kernel["us"].is_null()) {
                    if (!kernel["us"].is_number())
                        r.fail(kat + "/us", "a time in microseconds or null");
                    mk.us = kernel["us"].get<double>();
                }
                m.kernels.push_back(std::move(mk));
            }
        }
        data.runs.push_back(std::move(m));
    }
    return data;
}

void put_run(MeasuredDataset& data, MeasuredRun run) {
    for (auto& existing : data.runs)
        if (existing.model == run.model && existing.threads == run.threads &&
            existing.input_shape == run.input_shape && existing.dtype == run.dtype) {
            existing = std::move(run);
            return;
        }
    data.runs.push_back(std::move(run));
}

void save_measured_dataset(const MeasuredDataset& data, const std::filesystem::path& path) {
    auto runs = nlohmann::ordered_json::array();
    for (const auto& run : data.runs) {
        auto kernels = nlohmann::ordered_json::array();
        for (const auto& k : run.kernels)
            kernels.push_back({{"name", k.name},
                               {"op", k.op},
                               {"domain", k.domain},
                               {"covers", k.covers},
                               {"us", k.us ? nlohmann::ordered_json(*k.us) : nullptr}});
        nlohmann::ordered_json entry{{"model", run.model}};
        if (run.threads != 0)
            entry["threads"] = run.threads;
        entry["input_shape"] = run.input_shape;
        if (!run.dtype.empty())
            entry["dtype"] = run.dtype;
        entry["e2e_ms"] = run.e2e_ms;
        if (run.cv)
            entry["cv"] = *run.cv;
        entry["kernels"] = std::move(kernels);
        runs.push_back(std::move(entry));
    }
    const nlohmann::ordered_json root{
        {"runtime", data.runtime}, {"cpu", data.device}, {"runs", std::move(runs)}};
    write_file_atomically(path, root.dump(1) + "\n");
}

std::string model_family(const std::string& model) {
    // Longer prefixes first: resnext before resnet, mobilenet before mnasnet does not matter.
    static const char* const kFamilies[] = {
        "alexnet",    "vgg",        "resnext",      "resnet", "densenet", "mobilenet", "mnasnet",
        "shufflenet", "squeezenet", "efficientnet", "regnet", "maxvit",   "vit",       "bert"};
    for (const char* family : kFamilies)
        if (model.rfind(family, 0) == 0)
            return family;
    const auto cut = model.find_first_of("_0123456789");
    return model.substr(0, cut);
}

bool is_transformer_family(const std::string& family) {
    return family == "vit" || family == "maxvit" || family == "bert";
}

} // namespace cleave::profile
