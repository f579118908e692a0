#include "measured_dataset.hpp"

#include "../atomic_file.hpp"
#include "../input_error.hpp"
#include "../json_file.hpp"
#include "../json_reader.hpp"

#include <limits>
#include <nlohmann/json.hpp>
#include <set>

namespace cleave::profile {

using nlohmann::json;

MeasuredDataset load_measured_dataset(const std::string& path) {
    const json root = read_json_file(path, "a measured dataset (.json or .json.xz)");
    const JsonReader r(path);
    r.expect_object(root, "", "an object with \"runs\"");
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
    const auto present = [](const json& object, const char* key) {
        const auto it = object.find(key);
        return it != object.end() && !it->is_null();
    };
    // Text fields may be empty: ONNX Runtime names no node for the kernels it adds
    // (HardSwish's HardSigmoid) and gives standard ops the empty domain.
    const auto text = [&](const json& object, const std::string& pointer, const char* key,
                          const char* expected) {
        return r.string_at(*r.member(object, pointer, key, true, expected),
                           child_pointer(pointer, key), expected, true);
    };
    const json& runs = *r.array(root, "", "runs", true, "a list of runs");
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const std::string at = child_pointer("/runs", i);
        const json& run = runs[i];
        r.expect_object(run, at, "a run object");
        MeasuredRun m;
        m.model = r.string(run, at, "model", true, "the model's name");
        m.threads = r.whole_number(run, at, "threads", false, 0, 65536).value_or(m.threads);
        if (run.contains("dtype"))
            m.dtype = text(run, at, "dtype", "an element type such as float32");
        const json& shape = *r.array(run, at, "input_shape", true, "a list of dims");
        for (std::size_t d = 0; d < shape.size(); ++d)
            m.input_shape.push_back(r.whole_number_at(
                shape[d], child_pointer(at + "/input_shape", d), 0, std::numeric_limits<int>::max()));
        if (present(run, "dims")) {
            const std::string dims =
                text(run, at, "dims", "bound dims such as \"decode=256 batch=1\"");
            try {
                m.dims = graph::parse_dim_bindings_text(dims);
            } catch (const InputError& e) {
                throw InputError(path, at + "/dims", "'" + e.place() + "': " + e.problem());
            }
        }
        const json& e2e = *r.array(run, at, "e2e_ms", true, "a list of times in ms");
        m.e2e_ms = r.finite_numbers_at(e2e, at + "/e2e_ms", e2e.size(), "times in ms");
        if (present(run, "cv"))
            m.cv = r.number(run, at, "cv", true, "a coefficient of variation", true).value();
        if (const auto* kernels = r.array(run, at, "kernels", false, "a list of kernels")) {
            for (std::size_t k = 0; k < kernels->size(); ++k) {
                const std::string kat = child_pointer(at + "/kernels", k);
                const json& kernel = (*kernels)[k];
                r.expect_object(kernel, kat, "a kernel object");
                MeasuredKernel mk;
                mk.name = text(kernel, kat, "name", "the kernel's name");
                if (kernel.contains("op"))
                    mk.op = text(kernel, kat, "op", "an op type");
                if (kernel.contains("domain"))
                    mk.domain = text(kernel, kat, "domain", "an op domain");
                if (const auto* covers = r.array(kernel, kat, "covers", false, "a list of node names"))
                    for (std::size_t c = 0; c < covers->size(); ++c)
                        mk.covers.push_back(r.string_at(
                            (*covers)[c], child_pointer(kat + "/covers", c), "a node name", true));
                if (present(kernel, "us"))
                    mk.us = r.number(kernel, kat, "us", true, "us", true).value();
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
            existing.input_shape == run.input_shape && existing.dims == run.dims &&
            existing.dtype == run.dtype) {
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
        if (!run.dims.empty())
            entry["dims"] = graph::dim_bindings_text(run.dims);
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
    static const char* const kFamilies[] = {"alexnet",    "vgg",          "resnext", "resnet",
                                            "densenet",   "mobilenet",    "mnasnet", "shufflenet",
                                            "squeezenet", "efficientnet", "regnet",  "maxvit",
                                            "vit",        "bert",         "nas9"};
    for (const char* family : kFamilies)
        if (model.rfind(family, 0) == 0)
            return family;
    // Language models as generate-models --llm names them: "llama-3.2-1b" -> "llama",
    // "qwen2.5-0.5b" -> "qwen", "phi-3-mini-4k-instruct" -> "phi".
    const auto cut = model.find_first_of("_-.0123456789");
    return model.substr(0, cut);
}

bool is_transformer_family(const std::string& family) {
    static const std::set<std::string> kTransformers{
        "vit",      "maxvit", "bert",    "deit",       "levit",           "mobilevit",  "swin",
        "convnext", "gpt",    "roberta", "distilbert", "efficientformer", "transformer",
        // decoders of language models (generate-models --llm, exports of their families)
        "smollm",   "qwen",   "llama",   "phi",        "gemma",           "mistral"};
    return kTransformers.contains(family);
}

} // namespace cleave::profile
