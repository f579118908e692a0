#include "measured_dataset.hpp"

#include "../input_error.hpp"

#include <array>
#include <fstream>
#include <lzma.h>
#include <nlohmann/json.hpp>
#include <sstream>

namespace cleave::profile {

namespace {

using nlohmann::json;

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "",
                         "cannot read the file; expected a measured dataset (.json or .json.xz)");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string decompress_xz(const std::string& compressed, const std::string& path) {
    lzma_stream stream = LZMA_STREAM_INIT;
    if (lzma_stream_decoder(&stream, UINT64_MAX, 0) != LZMA_OK)
        throw std::runtime_error("cannot start the xz decoder");
    std::string out;
    std::array<std::uint8_t, 1 << 16> buffer{};
    stream.next_in = reinterpret_cast<const std::uint8_t*>(compressed.data());
    stream.avail_in = compressed.size();
    lzma_ret status = LZMA_OK;
    while (status == LZMA_OK) {
        stream.next_out = buffer.data();
        stream.avail_out = buffer.size();
        status = lzma_code(&stream, LZMA_FINISH);
        out.append(reinterpret_cast<const char*>(buffer.data()), buffer.size() - stream.avail_out);
    }
    lzma_end(&stream);
    if (status != LZMA_STREAM_END)
        throw InputError(
            path, "byte " + std::to_string(stream.total_in),
            "the xz stream is corrupt or truncated; expected an .xz-compressed JSON file");
    return out;
}

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
    std::string text = read_file(path);
    if (text.size() >= 6 && text.compare(0, 6,
                                         "\xFD"
                                         "7zXZ\x00",
                                         6) == 0)
        text = decompress_xz(text, path);
    json root;
    try {
        root = json::parse(text);
    } catch (const json::parse_error& e) {
        throw InputError(path, "byte " + std::to_string(e.byte),
                         "not valid JSON; expected a measured dataset");
    }
    Reader r(path);
    if (!root.is_object())
        r.fail("", "an object with \"runs\"");
    MeasuredDataset data;
    data.file = path;
    if (root.contains("ort") && root["ort"].is_string())
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
