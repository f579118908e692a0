#include "project.hpp"

#include "core/atomic_file.hpp"
#include "core/autodice/mapping_file.hpp"
#include "core/device/device_library.hpp"
#include "core/fusion/rule_set.hpp"
#include "core/graph/input_shape.hpp"
#include "core/graph/model_file.hpp"
#include "core/input_error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"

#include <algorithm>
#include <climits>
#include <limits>

namespace cleave::project {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

constexpr auto kExpected = "a Cleave project (.cleave, docs/studio.md)";
constexpr auto kLearned = "learned:";

fs::path folder_of(const fs::path& project_file) {
    return fs::absolute(project_file).lexically_normal().parent_path();
}

// Relative to `folder` when below it, else absolute; written with '/' on every system.
std::string stored_path(const fs::path& path, const fs::path& folder) {
    const fs::path absolute = fs::absolute(path).lexically_normal();
    const fs::path relative = absolute.lexically_relative(folder);
    const bool below = !relative.empty() && *relative.begin() != ".." && relative != ".";
    return (below ? relative : absolute).generic_string();
}

fs::path resolved_path(const std::string& stored, const fs::path& folder) {
    const fs::path path(stored);
    return (path.is_absolute() ? path : folder / path).lexically_normal();
}

bool is_shipped_rule_set(const std::string& spec) {
    const auto names = fusion::builtin_rule_set_names();
    return std::find(names.begin(), names.end(), spec) != names.end();
}

// Rule and device references name files, ids or shipped sets; only files are paths.
std::string stored_rules(const std::string& spec, const fs::path& folder) {
    if (spec.starts_with(kLearned))
        return kLearned + stored_path(spec.substr(std::string(kLearned).size()), folder);
    return spec.empty() || is_shipped_rule_set(spec) ? spec : stored_path(spec, folder);
}

std::string resolved_rules(const std::string& spec, const fs::path& folder) {
    if (spec.starts_with(kLearned))
        return kLearned + resolved_path(spec.substr(std::string(kLearned).size()), folder).string();
    return is_shipped_rule_set(spec) ? spec : resolved_path(spec, folder).string();
}

std::string stored_device(const std::string& device, const fs::path& folder) {
    return device::is_device_file(device) ? stored_path(device, folder) : device;
}

std::string resolved_device(const std::string& device, const fs::path& folder) {
    return device::is_device_file(device) ? resolved_path(device, folder).string() : device;
}

json optional_object(const JsonReader& reader, const json& root, const std::string& key,
                     const std::string& expected) {
    const json* value = reader.object(root, "", key, false, expected);
    return value ? *value : json::object();
}

// The format and a schema version this Cleave reads; returns the version.
int checked_version(const JsonReader& reader, const json& root) {
    const std::string format = reader.string(root, "", "format", true, "\"cleave-project\"");
    if (format != kFormat)
        reader.fail("/format", "expected \"cleave-project\", found \"" + format + "\"");
    const json* version = reader.member(root, "", "version", true, "a whole number");
    if (!version->is_number_integer() || version->get<std::int64_t>() < 1)
        reader.fail("/version", "expected a whole number >= 1, found " + version->dump());
    if (version->get<std::int64_t>() > kSchemaVersion)
        reader.fail("/version", "this project was written by a newer Cleave (schema version " +
                                    version->dump() + "); this Cleave reads versions up to " +
                                    std::to_string(kSchemaVersion) +
                                    ": open it with a newer Cleave");
    return version->get<int>();
}

// {"batch": B, "prefill": N or "decode": L, "names": {"NAME": VALUE}}, as the flags give them.
void parse_dims(const JsonReader& reader, const json& model, Project& project) {
    const std::string at = "/model/dims";
    const json* dims = reader.object(model, "/model", "dims", false,
                                     "an object with \"batch\", \"prefill\" or \"decode\", "
                                     "and \"names\"");
    if (!dims)
        return;
    reader.only_known(*dims, at, {"batch", "prefill", "decode", "names"});
    constexpr int kMost = std::numeric_limits<int>::max();
    graph::DimBindings& b = project.dims;
    if (const auto batch = reader.whole_number(*dims, at, "batch", false, 1, kMost))
        b.batch = *batch;
    if (const auto prefill = reader.whole_number(*dims, at, "prefill", false, 1, kMost))
        b.prefill = *prefill;
    if (const auto decode = reader.whole_number(*dims, at, "decode", false, 0, kMost))
        b.decode = *decode;
    if (b.prefill && b.decode)
        reader.fail(at, "holds \"prefill\" and \"decode\"; expected one of them");
    if (const json* names =
            reader.object(*dims, at, "names", false, "an object of dim names and whole numbers"))
        for (const auto& [name, value] : names->items())
            b.names[name] =
                reader.whole_number_at(value, child_pointer(at + "/names", name), 0, kMost);
}

void parse_model(const JsonReader& reader, const json& root, const fs::path& folder,
                 Project& project) {
    const std::string& file = reader.file();
    if (const json* model = reader.object(
            root, "", "model", false, "an object with \"path\", \"input_shapes\" and \"dims\"")) {
        reader.only_known(*model, "/model", {"path", "input_shapes", "dims"});
        const std::string stored =
            reader.string(*model, "/model", "path", true, "the path of an ONNX model");
        project.model = resolved_path(stored, folder);
        if (const fs::path found = graph::existing_model_file(project.model);
            !found.empty() && found != project.model) {
            const bool packed = graph::is_compressed_model_file(found);
            project.notes.push_back(file + " /model/path: " + stored + " is not there; " +
                                    stored_path(found, folder) + ", the same model " +
                                    (packed ? "compressed" : "unpacked") + ", is opened instead");
            project.model = found;
        }
        if (const json* shapes = reader.array(*model, "/model", "input_shapes", false,
                                              "a list of \"NAME=DIMS\" strings")) {
            for (std::size_t i = 0; i < shapes->size(); ++i) {
                const std::string pointer = child_pointer("/model/input_shapes", i);
                const json& shape = (*shapes)[i];
                if (!shape.is_string())
                    reader.fail(pointer,
                                "expected \"NAME=DIMS\" such as input=1x3x224x224, found " +
                                    std::string(shape.type_name()));
                try {
                    graph::parse_input_shape(shape.get<std::string>());
                } catch (const InputError& e) {
                    reader.fail(pointer, e.problem());
                }
                project.input_shapes.push_back(shape.get<std::string>());
            }
        }
        parse_dims(reader, *model, project);
    }
}

void parse_cluster(const JsonReader& reader, const json& root, const fs::path& folder,
                   Project& project) {
    const std::string& file = reader.file();
    if (const json* cluster = reader.object(root, "", "cluster", false,
                                            "an object with \"path\" and/or \"inline\"")) {
        reader.only_known(*cluster, "/cluster", {"path", "inline"});
        ClusterRef ref;
        const std::string stored =
            reader.string(*cluster, "/cluster", "path", false, "the path of a cluster file");
        if (!stored.empty())
            ref.path = resolved_path(stored, folder);
        if (const json* object = reader.object(*cluster, "/cluster", "inline", false,
                                               "a cluster file's object (docs/devices.md)")) {
            ref.inline_ = *object;
            try { // checked now, so a bad project is refused before anything is opened
                device::cluster_from_json(*object, file);
            } catch (const InputError& e) {
                rethrow_under(e, file, "/cluster/inline");
            }
        }
        if (ref.path.empty() && !ref.inline_)
            reader.fail("/cluster", "expected \"path\", \"inline\" or both");
        project.cluster = std::move(ref);
    }
}

void parse_kernels(const JsonReader& reader, const json& root, const fs::path& folder,
                   Project& project) {
    if (const json* kernels =
            reader.object(root, "", "kernels", false, "an object with \"rules\" and \"device\"")) {
        reader.only_known(*kernels, "/kernels", {"rules", "device"});
        const std::string rules = reader.string(*kernels, "/kernels", "rules", false,
                                                "a shipped rule set, a rule file or learned:FILE");
        if (!rules.empty())
            project.rules = resolved_rules(rules, folder);
        const std::string device =
            reader.string(*kernels, "/kernels", "device", false, "a device id or a device file");
        if (!device.empty())
            project.device = resolved_device(device, folder);
    }
}

// The mapping as AutoDiCE writes it: per PE a list of node names.
void parse_mapping(const JsonReader& reader, const json& root, Project& project) {
    project.mapping = optional_object(reader, root, "mapping", "an AutoDiCE mapping.json object");
    for (const auto& [key, nodes] : project.mapping.items()) {
        const std::string pointer = child_pointer("/mapping", key);
        if (!nodes.is_array())
            reader.fail(pointer,
                        "expected a list of node names, found " + std::string(nodes.type_name()));
        for (std::size_t i = 0; i < nodes.size(); ++i)
            if (!nodes[i].is_string())
                reader.fail(child_pointer(pointer, i),
                            "expected a node name, found " + std::string(nodes[i].type_name()));
    }
}

void parse_autosave(const JsonReader& reader, const json& root, const fs::path& folder,
                    Project& project) {
    if (const json* autosave = reader.object(root, "", "autosave", false,
                                             "an object with \"project\" and \"written\"")) {
        reader.only_known(*autosave, "/autosave", {"project", "written"});
        AutosaveInfo info;
        const std::string of = reader.string(*autosave, "/autosave", "project", false,
                                             "the path of the project saved");
        if (!of.empty())
            info.project = resolved_path(of, folder);
        info.written = reader.string(*autosave, "/autosave", "written", false, "a time");
        project.autosave = std::move(info);
    }
}

void parse_workload(const JsonReader& reader, const json& root, Project& project) {
    const json* workload =
        reader.object(root, "", "workload", false,
                      "an object with \"context\", \"sequences\", \"prompt_tokens\" and "
                      "\"generated_tokens\"");
    if (!workload)
        return;
    reader.only_known(*workload, "/workload",
                      {"context", "sequences", "prompt_tokens", "generated_tokens"});
    constexpr int kMost = std::numeric_limits<int>::max();
    partition::LlmWorkload w;
    w.context = reader.whole_number(*workload, "/workload", "context", false, 0, kMost).value_or(0);
    w.sequences =
        reader.whole_number(*workload, "/workload", "sequences", false, 1, kMost).value_or(1);
    w.prompt_tokens =
        reader.whole_number(*workload, "/workload", "prompt_tokens", false, 0, kMost).value_or(0);
    w.generated_tokens =
        reader.whole_number(*workload, "/workload", "generated_tokens", false, 0, kMost)
            .value_or(0);
    project.workload = w;
}

} // namespace

Project parse_project(const std::string& json_text, const fs::path& path) {
    const JsonReader reader(path.string());
    const json root = reader.parse(json_text, kExpected);
    reader.expect_object(root, "", kExpected);
    Project project;
    project.version = checked_version(reader, root);
    reader.only_known(root, "",
                      {"format", "version", "model", "cluster", "kernels", "mapping", "dse",
                       "grouping", "workload", "autosave"});
    const fs::path folder = folder_of(path);
    parse_model(reader, root, folder, project);
    parse_cluster(reader, root, folder, project);
    parse_kernels(reader, root, folder, project);
    parse_mapping(reader, root, project);
    project.dse = optional_object(reader, root, "dse", "an object (the DSE tab's state)");
    project.grouping =
        optional_object(reader, root, "grouping", "an object (the grouping panel's state)");
    parse_workload(reader, root, project);
    parse_autosave(reader, root, folder, project);
    return project;
}

Project load_project(const fs::path& path) {
    // read_json_file names a missing file and a syntax error's byte; the fields are checked below.
    const json root = read_json_file(path.string(), kExpected);
    return parse_project(root.dump(), path);
}

namespace {

nlohmann::ordered_json dims_json(const graph::DimBindings& dims) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    if (dims.batch)
        out["batch"] = *dims.batch;
    if (dims.prefill)
        out["prefill"] = *dims.prefill;
    if (dims.decode)
        out["decode"] = *dims.decode;
    if (!dims.names.empty())
        out["names"] = dims.names;
    return out;
}

} // namespace

std::string project_json(const Project& project, const fs::path& path) {
    const fs::path folder = folder_of(path);
    nlohmann::ordered_json root{{"format", kFormat}, {"version", kSchemaVersion}};
    if (!project.model.empty()) {
        nlohmann::ordered_json model{{"path", stored_path(project.model, folder)}};
        if (!project.input_shapes.empty())
            model["input_shapes"] = project.input_shapes;
        if (!project.dims.empty())
            model["dims"] = dims_json(project.dims);
        root["model"] = model;
    }
    if (project.cluster) {
        nlohmann::ordered_json cluster = nlohmann::ordered_json::object();
        if (!project.cluster->path.empty())
            cluster["path"] = stored_path(project.cluster->path, folder);
        if (project.cluster->inline_)
            cluster["inline"] = *project.cluster->inline_;
        root["cluster"] = cluster;
    }
    if (!project.rules.empty() || !project.device.empty()) {
        nlohmann::ordered_json kernels = nlohmann::ordered_json::object();
        if (!project.rules.empty())
            kernels["rules"] = stored_rules(project.rules, folder);
        if (!project.device.empty())
            kernels["device"] = stored_device(project.device, folder);
        root["kernels"] = kernels;
    }
    if (!project.mapping.empty())
        root["mapping"] = project.mapping;
    if (!project.dse.empty())
        root["dse"] = project.dse;
    if (!project.grouping.empty())
        root["grouping"] = project.grouping;
    if (project.workload)
        root["workload"] = {{"context", project.workload->context},
                            {"sequences", project.workload->sequences},
                            {"prompt_tokens", project.workload->prompt_tokens},
                            {"generated_tokens", project.workload->generated_tokens}};
    if (project.autosave) {
        nlohmann::ordered_json autosave = nlohmann::ordered_json::object();
        if (!project.autosave->project.empty())
            autosave["project"] = stored_path(project.autosave->project, folder);
        if (!project.autosave->written.empty())
            autosave["written"] = project.autosave->written;
        root["autosave"] = autosave;
    }
    return root.dump(2) + "\n";
}

void save_project(const fs::path& path, const Project& project) {
    const fs::path file = fs::absolute(path).lexically_normal();
    write_file_atomically(file, project_json(project, file));
}

std::map<std::string, graph::Shape> input_shape_map(const Project& project, const fs::path& file) {
    std::map<std::string, graph::Shape> shapes;
    for (std::size_t i = 0; i < project.input_shapes.size(); ++i) {
        try {
            auto [name, dims] = graph::parse_input_shape(project.input_shapes[i]);
            shapes[name] = std::move(dims);
        } catch (const InputError& e) {
            throw InputError(file.string(), child_pointer("/model/input_shapes", i), e.problem());
        }
    }
    return shapes;
}

device::Cluster load_cluster(const Project& project, const fs::path& file) {
    if (!project.cluster)
        throw InputError(file.string(), "/cluster", "the project has no cluster");
    if (!project.cluster->inline_)
        return device::load_cluster(project.cluster->path.string());
    try {
        // Device files named inline resolve against the project's folder.
        device::Cluster cluster =
            device::cluster_from_json(*project.cluster->inline_, file.string());
        cluster.file = project.cluster->path.string();
        return cluster;
    } catch (const InputError& e) {
        rethrow_under(e, file.string(), "/cluster/inline");
    }
}

std::vector<int> mapping_pe_of_node(const Project& project, const fs::path& file,
                                    const graph::Model& model, const device::Cluster& cluster) {
    try {
        return autodice::parse_mapping_file(project.mapping.dump(), file.string(), model, cluster);
    } catch (const InputError& e) {
        rethrow_under(e, file.string(), "/mapping");
    }
}

} // namespace cleave::project
