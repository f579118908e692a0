// Where a plugin finds ONNX Runtime: onnxruntime-node and Cleave's session scripts kept beside
// the plugins' folder (<prefix>/lib/cleave/onnxruntime-node), in the installed package as in the
// build tree (plugins/ort_profiler/CMakeLists.txt). Compiled into each plugin that starts Node.js.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace cleave {
class ChildProcess;
}

namespace cleave::ort_node {

// The folder beside the plugins that holds the scripts (looked up once, from this plugin's file).
const std::filesystem::path& runtime_folder();

// Where onnxruntime-node is: CLEAVE_ORT_NODE_DIR when set, else runtime_folder().
std::filesystem::path modules_folder();

// onnxruntime-node's version under `modules`; InputError naming its package.json and how to
// install it when it is not there.
std::string ort_version(const std::filesystem::path& modules);

// The next JSON line a session script writes. Its {"error"} becomes InputError naming
// `model_file` ("ONNX Runtime cannot <doing>: ..."); a line that is no JSON, or none, fails the
// process with what it wrote.
nlohmann::json read_answer(ChildProcess& process, const std::string& model_file,
                           const std::string& doing);

} // namespace cleave::ort_node
