#include "device_vectors.hpp"

#include "core/atomic_file.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/input_error.hpp"
#include "core/json_file.hpp"
#include "core/json_reader.hpp"
#include "core/predict/predictor_training.hpp"
#include "core/statistics.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>

namespace cleave::grouping {

namespace {

std::string file_stem(const std::string& path) {
    auto name = std::filesystem::path(path).filename().string();
    if (name.size() > 3 && name.ends_with(".xz"))
        name.resize(name.size() - 3);
    return name;
}

std::string benchmark_name(const profile::MeasuredRun& run) {
    std::string name = run.model + "@";
    for (std::size_t i = 0; i < run.input_shape.size(); ++i)
        name += (i ? "x" : "") + std::to_string(run.input_shape[i]);
    return name;
}

double pearson(const std::vector<double>& a, const std::vector<double>& b) {
    const double n = static_cast<double>(a.size());
    const double ma = std::accumulate(a.begin(), a.end(), 0.0) / n;
    const double mb = std::accumulate(b.begin(), b.end(), 0.0) / n;
    double sab = 0, saa = 0, sbb = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        sab += (a[i] - ma) * (b[i] - mb);
        saa += (a[i] - ma) * (a[i] - ma);
        sbb += (b[i] - mb) * (b[i] - mb);
    }
    return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : 0.0;
}

// Non-negative least squares on relative errors: min sum_b ((y_b - x_b w) / y_b)^2, w >= 0, by
// trying every support set (a handful of columns) and keeping the best feasible one.
std::vector<double> relative_nnls(const Eigen::MatrixXd& x, const Eigen::VectorXd& y) {
    const auto columns = static_cast<int>(x.cols());
    Eigen::MatrixXd weighted = y.cwiseInverse().asDiagonal() * x;
    const Eigen::VectorXd ones = Eigen::VectorXd::Ones(y.size());
    std::vector<double> best(static_cast<std::size_t>(columns), 0.0);
    double best_error = ones.squaredNorm(); // every weight 0
    for (unsigned subset = 1; subset < (1u << columns); ++subset) {
        std::vector<int> kept;
        for (int c = 0; c < columns; ++c)
            if (subset & (1u << c))
                kept.push_back(c);
        if (kept.size() > static_cast<std::size_t>(y.size()))
            continue;
        Eigen::MatrixXd a(weighted.rows(), static_cast<Eigen::Index>(kept.size()));
        for (std::size_t i = 0; i < kept.size(); ++i)
            a.col(static_cast<Eigen::Index>(i)) = weighted.col(kept[i]);
        const Eigen::VectorXd w = a.colPivHouseholderQr().solve(ones);
        if (!w.allFinite() || (w.array() < 0).any())
            continue;
        const double error = (a * w - ones).squaredNorm();
        if (error < best_error - 1e-12) {
            best_error = error;
            std::fill(best.begin(), best.end(), 0.0);
            for (std::size_t i = 0; i < kept.size(); ++i)
                best[static_cast<std::size_t>(kept[i])] = w(static_cast<Eigen::Index>(i));
        }
    }
    return best;
}

} // namespace

std::vector<DeviceRuns> measured_devices(const profile::MeasuredDataset& data,
                                         const std::vector<device::DeviceSpec>& library) {
    std::vector<DeviceRuns> found;
    for (const auto& spec : library) {
        if (!spec.measurement || file_stem(spec.measurement->data) != file_stem(data.file))
            continue;
        DeviceRuns device{spec.id, data.file, {}};
        for (const auto& run : data.runs) {
            if (spec.measurement->threads && run.threads != *spec.measurement->threads)
                continue;
            if (!spec.measurement->dtype.empty() && run.dtype != spec.measurement->dtype)
                continue;
            device.runs.push_back(&run);
        }
        if (!device.runs.empty())
            found.push_back(std::move(device));
    }
    return found;
}

namespace {

// Per device, its runs with times by benchmark name ((model, input shape, dtype)).
using RunsByName = std::vector<std::map<std::string, const profile::MeasuredRun*>>;

RunsByName runs_by_name(const std::vector<DeviceRuns>& devices) {
    RunsByName by_name(devices.size());
    for (std::size_t d = 0; d < devices.size(); ++d)
        for (const auto* run : devices[d].runs) {
            if (!run->e2e_ms.empty())
                by_name[d].emplace(benchmark_name(*run), run);
        }
    return by_name;
}

// The benchmarks every device ran whose model is in the folder (one missing from the folder
// drops the benchmark, with a note), into out.benchmarks; returns each one's summed kernel
// features. Throws when fewer than 3 are left.
std::vector<std::vector<double>> benchmark_features(const std::vector<DeviceRuns>& devices,
                                                    const RunsByName& by_name,
                                                    profile::RunModels& models,
                                                    const DeviceVectorOptions& options,
                                                    DeviceVectors& out) {
    std::vector<std::string> common;
    for (const auto& [name, run] : by_name.front()) {
        bool everywhere = true;
        for (std::size_t d = 1; d < devices.size() && everywhere; ++d)
            everywhere = by_name[d].contains(name);
        if (everywhere)
            common.push_back(name);
    }
    std::vector<std::vector<double>> features; // [benchmark][feature]
    const auto method = fusion::find_fusion_method(options.rules);
    for (const auto& name : common) {
        const auto* model = models.find(*by_name.front().at(name));
        if (!model) {
            out.notes.push_back(name + ": model not in the models folder, left out");
            continue;
        }
        out.benchmarks.push_back(name);
        features.push_back(
            predict::summed_kernel_features(*model, fusion::detect_kernels(*model, method)));
    }
    if (out.benchmarks.size() < 3) {
        std::string names;
        for (const auto& d : devices)
            names += (names.empty() ? "" : ", ") + d.device;
        throw InputError("", "--data",
                         "the devices " + names + " share " +
                             std::to_string(out.benchmarks.size()) +
                             " measured runs (same model and input shape) whose model is in the "
                             "models folder; expected at least 3");
    }
    return features;
}

// HE, Algorithm 1: features (columns, one value per benchmark) ranked by their mean |Pearson r|
// with the devices' latencies; greedily kept unless nearly collinear with one already kept.
std::vector<std::size_t> he_features(const std::vector<std::vector<double>>& columns,
                                     const std::vector<std::vector<double>>& hp_ms,
                                     const DeviceVectorOptions& options) {
    const std::size_t bench_count = hp_ms.front().size();
    std::vector<std::pair<double, std::size_t>> ranked;
    for (std::size_t f = 0; f < columns.size(); ++f) {
        double score = 0;
        for (const auto& y : hp_ms)
            score += std::abs(pearson(columns[f], y));
        if (score > 0)
            ranked.emplace_back(score / static_cast<double>(hp_ms.size()), f);
    }
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::vector<std::size_t> kept;
    const std::size_t limit = std::min(options.max_features, bench_count - 1);
    for (const auto& [score, f] : ranked) {
        if (kept.size() >= limit)
            break;
        bool distinct = true;
        for (const auto k : kept)
            distinct = distinct &&
                       std::abs(pearson(columns[f], columns[k])) < options.max_feature_correlation;
        if (distinct)
            kept.push_back(f);
    }
    return kept;
}

// Per device: latency = fixed + sum_j w_j x_j, w >= 0, on relative errors; feature j's share is
// w_j times its mean over the benchmarks, over the fitted latency of that mean. Into out.he and
// out.he_fit_mape.
void fit_he_shares(const std::vector<std::vector<double>>& columns,
                   const std::vector<std::size_t>& kept, DeviceVectors& out) {
    const auto n = static_cast<Eigen::Index>(out.benchmarks.size());
    Eigen::MatrixXd x(n, static_cast<Eigen::Index>(kept.size() + 1));
    std::vector<double> scale(kept.size() + 1, 1.0);
    for (Eigen::Index b = 0; b < n; ++b)
        x(b, 0) = 1.0;
    for (std::size_t j = 0; j < kept.size(); ++j) {
        const auto& column = columns[kept[j]];
        scale[j + 1] = *std::max_element(column.begin(), column.end());
        for (Eigen::Index b = 0; b < n; ++b)
            x(b, static_cast<Eigen::Index>(j + 1)) =
                column[static_cast<std::size_t>(b)] / scale[j + 1];
    }
    const Eigen::VectorXd mean_x = x.colwise().mean();
    for (const auto& hp : out.hp_ms) {
        const Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(hp.data(), n);
        const auto w = relative_nnls(x, y);
        std::vector<double> share(w.size());
        for (std::size_t j = 0; j < w.size(); ++j)
            share[j] = w[j] * mean_x(static_cast<Eigen::Index>(j));
        const double total = std::accumulate(share.begin(), share.end(), 0.0);
        for (auto& s : share)
            s = total > 0 ? s / total : 0.0;
        out.he.push_back(std::move(share));
        const Eigen::VectorXd fit = x * Eigen::Map<const Eigen::VectorXd>(w.data(), x.cols());
        out.he_fit_mape.push_back(100.0 * ((fit - y).cwiseAbs().cwiseQuotient(y)).mean());
    }
}

} // namespace

DeviceVectors compute_device_vectors(const std::vector<DeviceRuns>& devices,
                                     profile::RunModels& models,
                                     const DeviceVectorOptions& options) {
    if (devices.size() < 2)
        throw InputError("", "--data",
                         "device vectors compare devices: expected the runs of at least two "
                         "devices, got " +
                             std::to_string(devices.size()));
    DeviceVectors out;
    for (const auto& device : devices) {
        out.devices.push_back(device.device);
        out.files.push_back(device.file);
    }
    const auto by_name = runs_by_name(devices);
    const auto features = benchmark_features(devices, by_name, models, options, out);
    const std::size_t bench_count = out.benchmarks.size();
    for (std::size_t d = 0; d < devices.size(); ++d) {
        std::vector<double> row;
        for (const auto& name : out.benchmarks)
            row.push_back(cleave::median(by_name[d].at(name)->e2e_ms));
        out.hp_ms.push_back(std::move(row));
    }

    const auto& names = predict::summed_feature_names();
    std::vector<std::vector<double>> columns(names.size(), std::vector<double>(bench_count));
    for (std::size_t b = 0; b < bench_count; ++b)
        for (std::size_t f = 0; f < names.size(); ++f)
            columns[f][b] = features[b][f];
    const auto kept = he_features(columns, out.hp_ms, options);
    out.he_features.push_back("fixed_ms");
    for (const auto f : kept)
        out.he_features.push_back(names[f]);
    fit_he_shares(columns, kept, out);
    return out;
}

std::string device_vectors_json(const DeviceVectors& vectors) {
    nlohmann::ordered_json root;
    root["format"] = "cleave-device-vectors";
    root["version"] = 1;
    root["benchmarks"] = vectors.benchmarks;
    root["he_features"] = vectors.he_features;
    auto devices = nlohmann::ordered_json::object();
    for (std::size_t d = 0; d < vectors.devices.size(); ++d) {
        nlohmann::ordered_json entry;
        entry["data"] = vectors.files[d];
        entry["hp_ms"] = vectors.hp_ms[d];
        entry["he"] = vectors.he[d];
        entry["he_fit_mape"] = vectors.he_fit_mape[d];
        devices[vectors.devices[d]] = std::move(entry);
    }
    root["devices"] = std::move(devices);
    root["notes"] = vectors.notes;
    return root.dump(2) + "\n";
}

void save_device_vectors(const DeviceVectors& vectors, const std::string& path) {
    write_file_atomically(path, device_vectors_json(vectors));
}

DeviceVectors load_device_vectors(const std::string& path) {
    const auto root = read_json_file(path, "a device vectors file (cleave device-vector --out)");
    const JsonReader reader(path);
    reader.expect_object(root, "", "a device vectors file");
    if (reader.string(root, "", "format", false) != "cleave-device-vectors")
        reader.fail("/format",
                    "expected \"cleave-device-vectors\" (a file cleave device-vector wrote)");
    if (reader.whole_number(root, "", "version", false, 0, 1) != 1)
        reader.fail("/version", "expected version 1");
    DeviceVectors vectors;
    auto strings = [&](const char* key, std::vector<std::string>& into) {
        const auto* list = reader.array(root, "", key, true, "an array of names");
        for (std::size_t i = 0; i < list->size(); ++i)
            into.push_back(reader.string_at((*list)[i], child_pointer(std::string("/") + key, i)));
    };
    strings("benchmarks", vectors.benchmarks);
    strings("he_features", vectors.he_features);
    const std::string mapping = "an object mapping device ids to their vectors";
    const auto* devices = reader.object(root, "", "devices", true, mapping);
    if (devices->empty())
        reader.fail("/devices", "expected " + mapping + ", found none");
    for (const auto& [id, entry] : devices->items()) {
        const std::string pointer = child_pointer("/devices", id);
        reader.expect_object(entry, pointer, "an object with hp_ms and he");
        vectors.devices.push_back(id);
        vectors.files.push_back(entry.contains("data")
                                    ? reader.string_at(entry["data"], pointer + "/data",
                                                       "the measured dataset's file", true)
                                    : std::string());
        auto hp = reader.finite_numbers(entry, pointer, "hp_ms", vectors.benchmarks.size(),
                                        "the device's latencies per benchmark");
        for (std::size_t i = 0; i < hp.size(); ++i)
            if (!(hp[i] > 0))
                reader.fail(pointer + "/hp_ms/" + std::to_string(i), "expected a latency above 0 ms");
        vectors.hp_ms.push_back(std::move(hp));
        vectors.he.push_back(reader.finite_numbers(entry, pointer, "he", vectors.he_features.size(),
                                                   "the device's HE shares"));
        vectors.he_fit_mape.push_back(
            reader.number(entry, pointer, "he_fit_mape", false, "", true).value_or(0.0));
    }
    return vectors;
}

namespace {

std::size_t vector_index(const DeviceVectors& vectors, const device::ClusterHost& host,
                         const std::string& file) {
    const auto it = std::find(vectors.devices.begin(), vectors.devices.end(), host.device.id);
    if (it == vectors.devices.end()) {
        std::string known;
        for (const auto& d : vectors.devices)
            known += (known.empty() ? "" : ", ") + d;
        throw InputError(file, "/devices",
                         "no vector for host " + host.host + "'s device " + host.device.id +
                             "; the file has " + known);
    }
    return static_cast<std::size_t>(it - vectors.devices.begin());
}

} // namespace

FeatureTable vector_features(const device::Cluster& cluster, const DeviceVectors& vectors,
                             const std::string& set, const std::string& file) {
    if (std::find(kVectorFeatureSets.begin(), kVectorFeatureSets.end(), set) ==
        kVectorFeatureSets.end())
        throw InputError("", "--features", "expected hp, he or ha with --vectors, got " + set);
    const bool hp = set != "he", he = set != "hp";
    FeatureTable table;
    table.set = set;
    if (hp)
        for (const auto& b : vectors.benchmarks)
            table.features.push_back("hp_per_s:" + b);
    if (he)
        for (const auto& f : vectors.he_features)
            table.features.push_back("he:" + f);
    for (const auto& host : cluster.hosts) {
        const auto d = vector_index(vectors, host, file);
        table.hosts.push_back(host.host);
        table.devices.push_back(host.device.id);
        std::vector<double> row;
        if (hp)
            for (const double ms : vectors.hp_ms[d])
                row.push_back(1000.0 / ms);
        if (he)
            row.insert(row.end(), vectors.he[d].begin(), vectors.he[d].end());
        table.values.push_back(std::move(row));
    }
    return table;
}

std::vector<double> host_benchmark_ms(const device::Cluster& cluster, const DeviceVectors& vectors,
                                      const std::string& benchmark, const std::string& file,
                                      const std::string& where) {
    const auto it = std::find(vectors.benchmarks.begin(), vectors.benchmarks.end(), benchmark);
    if (it == vectors.benchmarks.end()) {
        std::string known;
        for (const auto& b : vectors.benchmarks)
            known += (known.empty() ? "" : ", ") + b;
        throw InputError(
            "", where, "no benchmark " + benchmark + " in " + file + "; expected one of " + known);
    }
    const auto b = static_cast<std::size_t>(it - vectors.benchmarks.begin());
    std::vector<double> ms;
    for (const auto& host : cluster.hosts)
        ms.push_back(vectors.hp_ms[vector_index(vectors, host, file)][b]);
    return ms;
}

} // namespace cleave::grouping
