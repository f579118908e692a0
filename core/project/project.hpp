// The .cleave project file: everything a studio session needs to come back as it was (the model
// with its input shapes and dim bindings, the cluster, the fusion rules, the device predicted on,
// the mapping, the DSE and grouping state), as one versioned JSON object (schema: docs/studio.md).
// Paths are held absolute in memory and written relative to the project's folder when they lie
// below it.
#pragma once

#include "core/device/cluster.hpp"
#include "core/graph/dim_bindings.hpp"
#include "core/graph/model.hpp"
#include "core/partition/llm_memory.hpp"

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cleave::project {

// The schema version this build writes; files with a newer one are refused.
inline constexpr int kSchemaVersion = 1;
inline constexpr const char* kFormat = "cleave-project";

struct ClusterRef {
    std::filesystem::path path;            // the file it came from; empty for an edited cluster
    std::optional<nlohmann::json> inline_; // device::cluster_to_json's object, if stored
};

// What an autosave side file adds: the project it is a copy of (empty for an untitled one).
struct AutosaveInfo {
    std::filesystem::path project;
    std::string written; // ISO 8601, UTC
};

struct Project {
    int version = kSchemaVersion;
    std::filesystem::path model;           // empty: no model yet
    std::vector<std::string> input_shapes; // "NAME=DIMS" as --input-shape takes them
    graph::DimBindings dims;               // --dim, --batch, --prefill, --decode
    std::optional<ClusterRef> cluster;
    std::string rules;  // a shipped rule set name, a rule file or "learned:FILE"; empty: default
    std::string device; // the device the Kernels dock predicts on (an id or a device file)
    nlohmann::json mapping = nlohmann::json::object();  // AutoDiCE mapping.json; {}: none
    nlohmann::json dse = nlohmann::json::object();      // the DSE tab's settings and results
    nlohmann::json grouping = nlohmann::json::object(); // the grouping panel's state
    // A decoder's workload (the Partition tab's LLM panel): context, sequences in flight, prompt
    // and generated tokens; the batch is the model's, bound by dims. nullopt: none set.
    std::optional<partition::LlmWorkload> workload;
    std::optional<AutosaveInfo> autosave;               // only in autosave side files
    // What reading the file found and worked around, for people (a model found in its other
    // form: x.onnx.xz for a missing x.onnx); never written.
    std::vector<std::string> notes;
};

// Reads and checks a project; relative paths are resolved against its folder. A model that is
// not there is looked for in its other forms (.onnx, .onnx.xz, .onnx.gz), and one found is
// used, with a note. Throws InputError naming the file, the JSON pointer and what was expected;
// a newer schema version is refused.
Project load_project(const std::filesystem::path& path);
Project parse_project(const std::string& json_text, const std::filesystem::path& path);

// The project as the file's JSON text, paths relative to `path`'s folder where below it.
std::string project_json(const Project& project, const std::filesystem::path& path);
// Written atomically: a crash leaves the old file or the new one, never half of either.
void save_project(const std::filesystem::path& path, const Project& project);

// The input shapes by input name (parse_input_shape); InputError names the file and pointer.
std::map<std::string, graph::Shape> input_shape_map(const Project& project,
                                                    const std::filesystem::path& file);
// The stored cluster (inline when present, else read from its path); errors name the project
// file and the pointer below /cluster/inline, or the cluster file itself.
device::Cluster load_cluster(const Project& project, const std::filesystem::path& file);
// The model node -> cluster PE index of the stored mapping, checked as AutoDiCE checks a
// mapping.json; errors name the project file and the pointer below /mapping.
std::vector<int> mapping_pe_of_node(const Project& project, const std::filesystem::path& file,
                                    const graph::Model& model, const device::Cluster& cluster);

} // namespace cleave::project
