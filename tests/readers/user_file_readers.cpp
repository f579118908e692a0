#include "user_file_readers.hpp"

#include "core/autodice/mapping_file.hpp"
#include "core/calibration/device_bundle.hpp"
#include "core/device/cluster.hpp"
#include "core/device/device_spec.hpp"
#include "core/dse/search_state.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/grouping/grouping_run.hpp"
#include "core/input_error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "core/predict/predictor.hpp"
#include "core/profile/measured_dataset.hpp"
#include "core/project/project.hpp"

#include <map>
#include <memory>
#include <nlohmann/json.hpp>

namespace cleave::test {

namespace {

// Models are read once: a fuzzer reads thousands of files against the same one.
const graph::Model& model_at(const std::string& path,
                             const std::map<std::string, graph::Shape>& shapes = {}) {
    static std::map<std::string, std::unique_ptr<graph::Model>> loaded;
    std::string key = path;
    for (const auto& [name, shape] : shapes)
        key += "|" + name + "=" + graph::shape_to_string(shape);
    auto& model = loaded[key];
    if (!model) {
        graph::LoadOptions options;
        options.input_shapes = shapes;
        model = std::make_unique<graph::Model>(graph::load_model(path, options));
    }
    return *model;
}

void read_predictor(const std::string& path, const ReaderFixtures& fixtures) {
    // predict: the predictor costs every kernel of a model, which runs its trees.
    const auto predictor = predict::load_predictor(path);
    const auto& model = model_at(fixtures.model);
    const auto method = fusion::find_fusion_method(predictor.rules);
    predict::predict_model(predictor, model, fusion::detect_kernels(model, method));
}

void read_mapping(const std::string& path, const ReaderFixtures& fixtures) {
    // evaluate-mapping: the mapping's nodes, then its kernels on the cluster's PEs.
    const auto& model = model_at(fixtures.model);
    const auto cluster = device::load_cluster(fixtures.cluster);
    const auto method = fusion::find_fusion_method("ort-cpu");
    const auto pe_of_node = autodice::read_mapping_file(path, model, cluster);
    autodice::mapped_kernels(pe_of_node, model, fusion::detect_kernels(model, method), method,
                             cluster);
}

dse::SearchState read_search_state(const nlohmann::json& state, const device::Cluster& cluster,
                                   int kernels, const std::string& place) {
    const dse::SearchStateTarget target{&cluster, kernels, [](int) { return true; }};
    return dse::parse_search_state(state, &target, place);
}

void read_dse_state(const std::string& path, const ReaderFixtures& fixtures) {
    const auto& model = model_at(fixtures.model);
    const auto cluster = device::load_cluster(fixtures.cluster);
    const auto kernels = fusion::detect_kernels(model, fusion::find_fusion_method("ort-cpu"));
    read_search_state(read_json_file(path, "a DSE state"), cluster,
                      static_cast<int>(kernels.kernels.size()), path);
}

// What the studio does when it opens a project: its rules, cluster, model with its input shapes,
// mapping, grouping and DSE state, each read with the core reader the studio calls.
void read_project(const std::string& path) {
    const auto p = project::load_project(path);
    const auto method = fusion::find_fusion_method(p.rules.empty() ? "ort-cpu" : p.rules);
    std::optional<device::Cluster> cluster;
    if (p.cluster)
        cluster = project::load_cluster(p, path);
    const auto shapes = project::input_shape_map(p, path);
    try { // the grouping's readers place their errors inside the object they are given
        grouping::GroupingRequest request;
        grouping::read_grouping_settings(p.grouping, request);
        if (p.grouping.contains("result") && !p.grouping["result"].is_null()) {
            try {
                grouping::read_grouping_result(p.grouping["result"], request);
            } catch (const InputError& e) {
                rethrow_under(e, "", "/result");
            }
        }
    } catch (const InputError& e) {
        rethrow_under(e, path, "/grouping");
    }
    if (p.model.empty() || !cluster)
        return;
    const auto& model = model_at(p.model.string(), shapes);
    const auto kernels = fusion::detect_kernels(model, method);
    if (!p.mapping.empty()) {
        const auto pe_of_node = project::mapping_pe_of_node(p, path, model, *cluster);
        const auto mapped = autodice::mapped_kernels(pe_of_node, model, kernels, method, *cluster);
        autodice::mapping_segments(mapped.assignment, *cluster,
                                   std::vector<std::string>(cluster->pes.size()), path, "/mapping");
    }
    if (!p.dse.empty()) {
        try {
            read_search_state(p.dse, *cluster, static_cast<int>(kernels.kernels.size()), "");
        } catch (const InputError& e) {
            rethrow_under(e, path, "/dse");
        }
    }
}

} // namespace

const std::vector<std::string>& user_file_kinds() {
    static const std::vector<std::string> kinds{"predictor", "device",   "bundle",  "cluster",
                                                "platform",  "mapping",  "project", "rules",
                                                "dataset",   "dse-state"};
    return kinds;
}

ReaderFixtures fixtures_for(const std::string& kind, const std::string& models_dir,
                            const std::string& clusters_dir) {
    return {models_dir + (kind == "mapping" ? "/resnet18.onnx" : "/squeezenet1_1.onnx"),
            clusters_dir + "/nx8.cluster.json"};
}

std::string kind_of_file(const std::string& file_name) {
    for (const auto& kind : user_file_kinds())
        if (file_name.starts_with(kind + "-"))
            return kind;
    return {};
}

void read_user_file(const std::string& kind, const std::string& path,
                    const ReaderFixtures& fixtures) {
    if (kind == "predictor")
        read_predictor(path, fixtures);
    else if (kind == "device")
        device::device_spec_json(device::load_device_spec(path));
    else if (kind == "bundle")
        calibration::import_device(path);
    else if (kind == "cluster" || kind == "platform")
        device::cluster_file_json(device::load_cluster(path));
    else if (kind == "mapping")
        read_mapping(path, fixtures);
    else if (kind == "project")
        read_project(path);
    else if (kind == "rules")
        fusion::detect_kernels(model_at(fixtures.model), fusion::find_fusion_method(path));
    else if (kind == "dataset")
        profile::load_measured_dataset(path);
    else if (kind == "dse-state")
        read_dse_state(path, fixtures);
    else
        throw std::invalid_argument("no reader for files of kind '" + kind + "'");
}

} // namespace cleave::test
