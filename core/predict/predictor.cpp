#include "predictor.hpp"

#include "core/atomic_file.hpp"
#include "core/input_error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "core/xz_codec.hpp"
#include "inference_overhead.hpp"
#include "kernel_features.hpp"

#include <limits>
#include <nlohmann/json.hpp>

namespace cleave::predict {

namespace {

constexpr const char* kFormat = "cleave-predictor";
constexpr int kVersion = 1;
constexpr const char* kExpected = "a latency predictor written by cleave train";

bool starts_with(const std::string& text, const char* prefix) {
    return text.rfind(prefix, 0) == 0;
}

} // namespace

std::vector<double> feature_row(const Predictor& predictor, const std::vector<double>& features,
                                const std::string& cls) {
    std::vector<double> row = features;
    const auto base = kernel_feature_names().size();
    if (predictor.features.size() <= base)
        return row;
    const std::string class_column = kClassColumn + cls;
    const std::string type_column = kTypeColumn + cost_type(cls);
    row.reserve(predictor.features.size());
    for (std::size_t j = base; j < predictor.features.size(); ++j) {
        const auto& name = predictor.features[j];
        row.push_back(name == class_column || name == type_column ? 1.0 : 0.0);
    }
    return row;
}

KernelLatency predict_features(const Predictor& predictor, const std::vector<double>& features,
                               const std::string& cls) {
    return predict_features(predictor, std::vector<std::vector<double>>{features},
                            std::vector<std::string>{cls})
        .front();
}

std::vector<KernelLatency> predict_features(const Predictor& predictor,
                                            const std::vector<std::vector<double>>& features,
                                            const std::vector<std::string>& classes) {
    // Rows grouped by the class model that predicts them, one batch per model: libraries such as
    // XGBoost cost far more per call than per row.
    const auto count = features.size();
    std::vector<KernelLatency> out(count);
    std::map<std::string, std::vector<std::size_t>> by_model;
    for (std::size_t k = 0; k < count; ++k) {
        const std::string& cls = classes.at(k);
        std::string key = kAllKernels;
        for (const auto& candidate : {cls, cost_type(cls)})
            if (predictor.classes.count(candidate)) {
                key = candidate;
                break;
            }
        out[k].model_class = key;
        by_model[key].push_back(k);
    }
    const auto columns = predictor.features.size();
    std::vector<double> batch, us;
    for (const auto& [key, members] : by_model) {
        const auto it = predictor.classes.find(key);
        if (it == predictor.classes.end())
            throw std::logic_error("predictor for " + predictor.device +
                                   " has no model for all kernels");
        batch.clear();
        for (const auto k : members) {
            const auto row = feature_row(predictor, features[k], classes[k]);
            batch.insert(batch.end(), row.begin(), row.end());
        }
        us.assign(members.size(), 0);
        it->second.model->predict_rows(batch.data(), members.size(), columns, us.data());
        for (std::size_t i = 0; i < members.size(); ++i)
            out[members[i]].us = us[i];
    }
    return out;
}

ModelLatency predict_model(const Predictor& predictor, const graph::Model& model,
                           const fusion::KernelGraph& kernels) {
    const auto count = kernels.kernels.size();
    std::vector<std::vector<double>> features(count);
    std::vector<std::string> classes(count);
    const auto step = decode_step_bytes(model);
    for (std::size_t k = 0; k < count; ++k) {
        features[k] = kernel_features(model, kernels.kernels[k], step);
        classes[k] = cost_class(model, kernels.kernels[k]);
    }
    ModelLatency out;
    out.kernels = predict_features(predictor, features, classes);
    if (!predictor.memory_curve.empty()) {
        // 1e9 bytes a second is 1e3 bytes a microsecond.
        const double bytes_per_us =
            predictor.memory_efficiency *
            device::bandwidth_at(predictor.memory_curve, working_set_bytes(model)) * 1e3;
        for (std::size_t k = 0; k < count; ++k) {
            const double floor_us =
                (features[k][kBytesInColumn] + features[k][kBytesOutColumn]) / bytes_per_us /
                std::max(1, kernels.kernels[k].launches); // per launch, as predicted
            if (bytes_per_us > 0 && floor_us > out.kernels[k].us) {
                out.kernels[k].us = floor_us;
                out.kernels[k].memory_bound = true;
            }
        }
    }
    int launches = 0;
    for (std::size_t k = 0; k < count; ++k) {
        out.kernels[k].us *= kernels.kernels[k].launches;
        out.kernels_ms += out.kernels[k].us / 1000.0;
        launches += kernels.kernels[k].launches;
    }
    const InferenceOverhead overhead{predictor.overhead_ms,
                                     predictor.overhead_per_kernel_us,
                                     predictor.overhead_kernel_time_share,
                                     predictor.overhead_per_output_mb_us,
                                     predictor.overhead_per_mapped_output_mb_us,
                                     predictor.overhead_per_io_mb_us};
    out.overhead_ms =
        overhead.ms(static_cast<double>(launches), out.kernels_ms, graph_io_bytes(model));
    out.total_ms = out.kernels_ms + out.overhead_ms;
    return out;
}

std::string predictor_json(const Predictor& p) {
    nlohmann::ordered_json classes = nlohmann::ordered_json::object();
    for (const auto& [name, c] : p.classes)
        classes[name] = {{"samples", c.samples},
                         {"model", nlohmann::ordered_json::parse(c.model->save())}};
    nlohmann::ordered_json doc{
        {"format", kFormat},
        {"version", kVersion},
        {"device", p.device},
        {"kind", p.kind},
        {"rules", p.rules},
        {"features", p.features},
        {"overhead_ms", p.overhead_ms},
        {"overhead_per_kernel_us", p.overhead_per_kernel_us},
        {"overhead_kernel_time_share", p.overhead_kernel_time_share},
        {"overhead_per_output_mb_us", p.overhead_per_output_mb_us},
        {"overhead_per_mapped_output_mb_us", p.overhead_per_mapped_output_mb_us}};
    if (p.overhead_per_io_mb_us != 0)
        doc["overhead_per_io_mb_us"] = p.overhead_per_io_mb_us;
    doc["trained_on"] = p.trained_on;
    if (!p.memory_curve.empty()) {
        auto curve = nlohmann::ordered_json::array();
        for (const auto& point : p.memory_curve)
            curve.push_back({{"bytes", point.bytes}, {"gbs", point.gbs}});
        doc["memory_curve"] = curve;
        doc["memory_efficiency"] = p.memory_efficiency;
    }
    doc["classes"] = classes;
    return doc.dump(1) + "\n";
}

void save_predictor(const Predictor& predictor, const std::filesystem::path& path) {
    const auto text = predictor_json(predictor);
    write_file_atomically(path, path.extension() == ".xz" ? xz_compress(text) : text);
}

std::vector<std::string> read_feature_columns(const nlohmann::json& doc, const std::string& path,
                                              const std::string& prefix) {
    const JsonReader reader(path);
    const auto& names = kernel_feature_names();
    const std::string expected = "the " + std::to_string(names.size()) +
                                 " kernel features this version computes, then indicator columns";
    // Features change between versions; a predictor from another one is trained again.
    const std::string again = " (trained by another version of Cleave: train it again, or run "
                              "cleave calibrate again for a calibrated device)";
    const auto* features = reader.array(doc, prefix, "features", true, expected);
    if (features->size() < names.size())
        reader.fail(prefix + "/features", "expected " + expected + again);
    std::vector<std::string> out;
    for (std::size_t j = 0; j < features->size(); ++j) {
        const std::string pointer = child_pointer(prefix + "/features", j);
        const std::string name = reader.string_at((*features)[j], pointer, "a feature name");
        if (j < names.size() ? name != names[j]
                             : !(starts_with(name, kClassColumn) || starts_with(name, kTypeColumn)))
            reader.fail(pointer, j < names.size()
                                     ? "expected \"" + names[j] +
                                           "\", the kernel feature this version computes there" +
                                           again
                                     : std::string("expected an indicator column (\"") +
                                           kClassColumn + "...\" or \"" + kTypeColumn + "...\")");
        out.push_back(name);
    }
    return out;
}

void load_regressor(Regressor& regressor, const nlohmann::json& model, std::size_t feature_count,
                    const std::string& file, const std::string& pointer) {
    try {
        regressor.load(model.dump(), feature_count);
    } catch (const InputError& e) {
        rethrow_under(e, file, pointer);
    } catch (const std::exception& e) { // a library's own error (XGBoost's)
        throw InputError(file, pointer, e.what());
    }
}

namespace {

// "memory_curve": [{"bytes", "gbs"}, ...], working sets growing; none where absent.
std::vector<device::BandwidthPoint>
read_memory_curve(const JsonReader& reader, const nlohmann::json& doc, const std::string& prefix) {
    std::vector<device::BandwidthPoint> curve;
    const auto* points = reader.array(doc, prefix, "memory_curve", false,
                                      "an array of {\"bytes\", \"gbs\"}, working sets growing");
    if (!points)
        return curve;
    for (std::size_t i = 0; i < points->size(); ++i) {
        const std::string pointer = child_pointer(prefix + "/memory_curve", i);
        const auto& point = (*points)[i];
        reader.expect_object(point, pointer, "an object with \"bytes\" and \"gbs\"");
        const double bytes = reader.number(point, pointer, "bytes", true, "bytes").value();
        const double gbs = reader.number(point, pointer, "gbs", true, "GB/s").value();
        if (!curve.empty() && !(bytes > curve.back().bytes))
            reader.fail(pointer + "/bytes", "expected more bytes than the point before");
        // A floor divides by it: a bandwidth next to nothing would make a kernel last forever.
        if (gbs < 1e-3)
            reader.fail(pointer + "/gbs", "expected at least 0.001 GB/s");
        curve.push_back({bytes, gbs});
    }
    return curve;
}

} // namespace

Predictor load_predictor(const std::string& path) {
    return parse_predictor(read_json_file(path, kExpected), path);
}

Predictor parse_predictor(const nlohmann::json& doc, const std::string& path,
                          const std::string& prefix) {
    const JsonReader reader(path);
    reader.expect_object(doc, prefix, kExpected);
    if (reader.string(doc, prefix, "format", false) != kFormat)
        reader.fail(prefix + "/format",
                    std::string("expected \"") + kFormat + "\" (" + kExpected + ")");
    if (reader.whole_number(doc, prefix, "version", false, 0, std::numeric_limits<int>::max()) !=
        kVersion)
        reader.fail(prefix + "/version", "expected " + std::to_string(kVersion));
    Predictor p;
    p.file = path;
    p.device = reader.string(doc, prefix, "device", true, "a device id");
    p.kind = reader.string(doc, prefix, "kind", true, "a regressor kind");
    p.rules = reader.string(doc, prefix, "rules", true, "a fusion method");
    try {
        make_regressor(p.kind, "/kind");
    } catch (const InputError& e) {
        reader.fail(prefix + "/kind", e.problem());
    }

    p.features = read_feature_columns(doc, path, prefix);
    p.overhead_ms = reader.number(doc, prefix, "overhead_ms", true, "ms", true).value();
    // The per-kernel part and the share may be negative (inference_overhead.hpp). Files written
    // before the share and the output parts have neither, and some an input/output part instead.
    p.overhead_per_kernel_us = reader.finite(doc, prefix, "overhead_per_kernel_us");
    if (doc.contains("overhead_kernel_time_share"))
        p.overhead_kernel_time_share = reader.finite(doc, prefix, "overhead_kernel_time_share");
    p.overhead_per_output_mb_us =
        reader.number(doc, prefix, "overhead_per_output_mb_us", false, "us per MB", true)
            .value_or(0);
    p.overhead_per_mapped_output_mb_us =
        reader.number(doc, prefix, "overhead_per_mapped_output_mb_us", false, "us per MB", true)
            .value_or(0);
    p.overhead_per_io_mb_us =
        reader.number(doc, prefix, "overhead_per_io_mb_us", false, "us per MB", true).value_or(0);

    const std::string models =
        std::string("an object of models including \"") + kAllKernels + "\"";
    const auto* classes = reader.object(doc, prefix, "classes", true, models);
    if (!classes->contains(kAllKernels))
        reader.fail(prefix + "/classes", "expected " + models);
    for (const auto& [name, c] : classes->items()) {
        const std::string pointer = child_pointer(prefix + "/classes", name);
        const std::string expected = "an object with \"samples\" and \"model\"";
        reader.expect_object(c, pointer, expected);
        const int samples =
            reader.whole_number(c, pointer, "samples", true, 0, std::numeric_limits<int>::max())
                .value();
        auto regressor = make_regressor(p.kind, "/kind");
        load_regressor(*regressor, *reader.object(c, pointer, "model", true, "the class's model"),
                       p.features.size(), path, pointer + "/model");
        p.classes.emplace(name, ClassModel{std::move(regressor), samples});
    }
    if (const auto it = doc.find("trained_on"); it != doc.end() && it->is_array())
        for (const auto& run : *it)
            if (run.is_string())
                p.trained_on.push_back(run);
    p.memory_curve = read_memory_curve(reader, doc, prefix);
    p.memory_efficiency =
        reader.number(doc, prefix, "memory_efficiency", false, "of the probe's bandwidth")
            .value_or(1);
    if (p.memory_efficiency > 10)
        reader.fail(prefix + "/memory_efficiency",
                    "expected at most 10 (the runtime's rate over the probe's)");
    return p;
}

} // namespace cleave::predict
