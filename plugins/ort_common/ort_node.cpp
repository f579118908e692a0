#include "ort_node.hpp"

#include "core/child_process.hpp"
#include "core/input_error.hpp"

#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <nlohmann/json.hpp>

namespace cleave::ort_node {

namespace fs = std::filesystem;

const fs::path& runtime_folder() {
    static const fs::path folder = [] {
        Dl_info info{};
        if (dladdr(reinterpret_cast<const void*>(&runtime_folder), &info) == 0 || !info.dli_fname)
            return fs::path();
        return fs::path(info.dli_fname).parent_path().parent_path() / "onnxruntime-node";
    }();
    return folder;
}

fs::path modules_folder() {
    if (const char* dir = std::getenv("CLEAVE_ORT_NODE_DIR"); dir && *dir)
        return dir;
    return runtime_folder();
}

std::string ort_version(const fs::path& modules) {
    const fs::path file = modules / "node_modules" / "onnxruntime-node" / "package.json";
    std::ifstream in(file);
    if (!in)
        throw InputError(file.string(), "",
                         "onnxruntime-node is not installed there: run scripts/setup.sh (npm ci), "
                         "or point CLEAVE_ORT_NODE_DIR at a folder holding "
                         "node_modules/onnxruntime-node");
    try {
        return nlohmann::json::parse(in).at("version").get<std::string>();
    } catch (const nlohmann::json::exception&) {
        throw InputError(file.string(), "/version", "onnxruntime-node's version, a string");
    }
}

nlohmann::json read_answer(ChildProcess& process, const std::string& model_file,
                           const std::string& doing) {
    const std::string line = process.read_line(doing);
    nlohmann::json answer;
    try {
        answer = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception&) {
        process.fail(doing, "it answered '" + line + "'");
    }
    if (answer.contains("error"))
        throw InputError(model_file, "",
                         "ONNX Runtime cannot " + doing + ": " + answer["error"].get<std::string>());
    return answer;
}

} // namespace cleave::ort_node
