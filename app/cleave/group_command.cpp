// cleave group: a cluster's devices split into G groups with equal totals of each feature (peak
// FP32, a datasheet configuration vector, or per-host vectors from a file), by local search, and
// optionally checked against the exact optimum.
#include "commands.hpp"
#include "core/device/cluster.hpp"
#include "core/grouping/balanced_grouping.hpp"
#include "core/grouping/device_features.hpp"
#include "core/grouping/device_vectors.hpp"
#include "core/grouping/grouping_run.hpp"
#include "core/grouping/serving_simulation.hpp"
#include "core/input_error.hpp"
#include "output.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>

namespace cleave::cli {

namespace {

struct GroupOptions {
    std::string cluster;
    int groups = 0;
    std::string features;
    std::string features_file;
    std::string vectors;
    std::vector<double> serve_rates;
    std::string workload;
    double duration_s = grouping::ServingOptions{}.duration_s;
    int batch = grouping::ServingOptions{}.batch;
    int restarts = grouping::SearchOptions{}.restarts;
    std::uint64_t seed = grouping::SearchOptions{}.seed;
    bool exact = false;
    bool json = false;
    std::string out;
};

nlohmann::ordered_json groups_json(const grouping::FeatureTable& table,
                                   const grouping::FeatureMatrix& normalised,
                                   const grouping::Grouping& grouping, int groups) {
    const auto raw = grouping::group_sums(table.values, grouping.group_of, groups);
    const auto scaled = grouping::group_sums(normalised, grouping.group_of, groups);
    auto list = nlohmann::ordered_json::array();
    for (int g = 0; g < groups; ++g) {
        auto hosts = nlohmann::ordered_json::array();
        auto devices = nlohmann::ordered_json::array();
        for (std::size_t d = 0; d < table.hosts.size(); ++d)
            if (grouping.group_of[d] == g) {
                hosts.push_back(table.hosts[d]);
                devices.push_back(table.devices[d]);
            }
        nlohmann::ordered_json sums, normalised_sums;
        for (std::size_t f = 0; f < table.features.size(); ++f) {
            sums[table.features[f]] = raw[g][f];
            normalised_sums[table.features[f]] = scaled[g][f];
        }
        list.push_back({{"hosts", hosts},
                        {"devices", devices},
                        {"sums", sums},
                        {"normalised_sums", normalised_sums}});
    }
    return list;
}

void print_groups(const grouping::FeatureTable& table, const grouping::Grouping& grouping,
                  int groups) {
    const auto raw = grouping::group_sums(table.values, grouping.group_of, groups);
    for (int g = 0; g < groups; ++g) {
        std::printf("  group %d:", g);
        for (std::size_t d = 0; d < table.hosts.size(); ++d)
            if (grouping.group_of[d] == g)
                std::printf(" %s", table.hosts[d].c_str());
        std::printf("\n    ");
        for (std::size_t f = 0; f < table.features.size(); ++f)
            std::printf("%s%s %.6g", f ? ", " : "", table.features[f].c_str(), raw[g][f]);
        std::printf("\n");
    }
}

nlohmann::ordered_json serving_json(const grouping::ServingResult& result, double rate) {
    auto groups = nlohmann::ordered_json::array();
    for (const auto& g : result.groups)
        groups.push_back({{"devices", g.devices},
                          {"tasks", g.tasks},
                          {"images_per_s", g.images_per_s},
                          {"mean_latency_ms", g.mean_latency_ms},
                          {"p95_latency_ms", g.p95_latency_ms},
                          {"completion_s", g.completion_s}});
    return {{"rate_per_s", rate},
            {"groups", groups},
            {"mean_latency_ms", result.mean_latency_ms},
            {"latency_std_ms", result.latency_std_ms},
            {"completion_std_s", result.completion_std_s}};
}

// The options that need no file, checked before any is read.
void check_options(const GroupOptions& options) {
    if (options.features.empty() == options.features_file.empty())
        throw InputError("", "--features",
                         "expected exactly one of --features (flops, config, hp, he, ha) and "
                         "--features-file");
    if (!options.serve_rates.empty() && (options.workload.empty() || options.vectors.empty()))
        throw InputError("", "--serve-rates",
                         "the serving simulation needs --workload BENCHMARK and --vectors FILE "
                         "(the workload's measured time on every host's device)");
    for (const double rate : options.serve_rates)
        if (!(rate > 0))
            throw InputError("", "--serve-rates", "expected task rates above 0 per second");
    if (!(options.duration_s > 0))
        throw InputError("", "--duration-s", "expected a duration above 0 s");
    if (options.batch < 1)
        throw InputError("", "--batch", "expected at least 1 image per task");
}

// The cluster and what to group it by, checked against the cluster.
grouping::GroupingRequest grouping_request(const GroupOptions& options) {
    grouping::GroupingRequest request;
    request.cluster = std::make_shared<const device::Cluster>(device::load_cluster(options.cluster));
    const auto& cluster = *request.cluster;
    request.groups = options.groups;
    request.vectors = options.vectors;
    request.workload = options.workload;
    request.seed = options.seed;
    request.restarts = options.restarts;
    grouping::check_group_count(cluster, options.groups);
    if (options.restarts < 0)
        throw InputError("", "--restarts", "expected a whole number >= 0");
    if (options.exact && cluster.hosts.size() > grouping::kExactMaxDevices)
        throw InputError("", "--exact",
                         "the exact solver takes at most " +
                             std::to_string(grouping::kExactMaxDevices) + " hosts; " +
                             options.cluster + " has " + std::to_string(cluster.hosts.size()));
    return request;
}

// One grouping by the chosen features (from a file, or a set as the studio groups by), its
// features normalised, the exact optimum and the serving runs when asked.
struct GroupsFound {
    grouping::FeatureSetGrouping found;
    grouping::FeatureMatrix normalised;
    std::optional<grouping::Grouping> exact;
    std::vector<std::pair<double, grouping::ServingResult>> serving; // by task rate
};

GroupsFound find_groups(const GroupOptions& options, const grouping::GroupingRequest& request) {
    const auto& cluster = *request.cluster;
    GroupsFound out;
    out.found =
        options.features_file.empty()
            ? grouping::group_by(request, options.features, {})
            : grouping::group_table(
                  request, grouping::features_from_file(options.features_file, cluster), {});
    out.normalised = grouping::normalised(out.found.table.values);
    if (options.exact)
        out.exact = grouping::balance_exact(out.normalised, options.groups);
    if (!options.serve_rates.empty()) {
        const auto image_ms = grouping::workload_ms(request);
        for (const double rate : options.serve_rates)
            out.serving.emplace_back(rate,
                                     grouping::simulate_serving(out.found.search.best.group_of,
                                                                options.groups, image_ms,
                                                                {.rate_per_s = rate,
                                                                 .duration_s = options.duration_s,
                                                                 .batch = options.batch,
                                                                 .seed = options.seed}));
    }
    return out;
}

nlohmann::ordered_json groups_document(const GroupOptions& options, const device::Cluster& cluster,
                                       const GroupsFound& groups) {
    const auto& table = groups.found.table;
    const auto& search = groups.found.search;
    nlohmann::ordered_json scales;
    const auto divisors = grouping::feature_scales(table.values);
    for (std::size_t f = 0; f < table.features.size(); ++f)
        scales[table.features[f]] = divisors[f];
    nlohmann::ordered_json document{
        {"cluster", cluster.file},
        {"features", table.set},
        {"feature_names", table.features},
        {"normalisation", "each feature divided by its largest magnitude over the hosts"},
        {"scales", scales},
        {"groups", groups_json(table, groups.normalised, search.best, options.groups)},
        {"objective", search.best.objective},
        {"search",
         {{"restarts", options.restarts},
          {"seed", options.seed},
          {"kicks", grouping::SearchOptions{}.kicks},
          {"starts", search.starts},
          {"starts_reaching_best", search.starts_reaching_best},
          {"steps", search.steps}}},
        {"exact", nullptr},
        {"serving", nullptr},
        {"notes", table.notes}};
    if (groups.exact)
        document["exact"] = {
            {"objective", groups.exact->objective},
            {"groups", groups_json(table, groups.normalised, *groups.exact, options.groups)},
            {"gap", search.best.objective - groups.exact->objective}};
    if (!groups.serving.empty()) {
        auto runs = nlohmann::ordered_json::array();
        for (const auto& [rate, result] : groups.serving)
            runs.push_back(serving_json(result, rate));
        document["serving"] = {{"workload", options.workload},
                               {"batch", options.batch},
                               {"duration_s", options.duration_s},
                               {"runs", runs}};
    }
    return document;
}

void print_found(const GroupOptions& options, const device::Cluster& cluster,
                 const GroupsFound& groups) {
    const auto& table = groups.found.table;
    const auto& search = groups.found.search;
    const auto& exact = groups.exact;
    std::printf("%s: %d hosts in %d groups by %s (%zu feature%s, each divided by its largest "
                "value)\n",
                cluster.file.c_str(), static_cast<int>(cluster.hosts.size()), options.groups,
                table.set.c_str(), table.features.size(), table.features.size() == 1 ? "" : "s");
    print_groups(table, search.best, options.groups);
    std::printf("objective %.6g (sum over features of the variance of group sums), best of %d "
                "starts, reached by %d\n",
                search.best.objective, search.starts, search.starts_reaching_best);
    if (exact)
        std::printf("exact optimum %.6g (local search %s)\n", exact->objective,
                    search.best.objective <= exact->objective + 1e-9 * (1 + exact->objective)
                        ? "reached it"
                        : "did not reach it");
    if (!groups.serving.empty())
        std::printf("serving %s, %d images a task, arrivals for %g s:\n", options.workload.c_str(),
                    options.batch, options.duration_s);
    for (const auto& [rate, result] : groups.serving) {
        std::printf("  %g tasks/s: mean latency per group", rate);
        for (const auto& g : result.groups)
            std::printf(" %.1f", g.mean_latency_ms);
        std::printf(" ms; std dev %.1f ms (completion std dev %.3f s)\n", result.latency_std_ms,
                    result.completion_std_s);
    }
    for (const auto& note : table.notes)
        std::printf("note: %s\n", note.c_str());
}

int run_group(const GroupOptions& options) {
    check_options(options);
    const auto request = grouping_request(options);
    const auto groups = find_groups(options, request);
    if (options.json || !options.out.empty()) {
        emit_json(groups_document(options, *request.cluster, groups), options.json, options.out);
        if (options.json)
            return 0;
    }
    print_found(options, *request.cluster, groups);
    return 0;
}

} // namespace

Action add_group_command(CLI::App& app) {
    auto options = std::make_shared<GroupOptions>();
    auto* command = app.add_subcommand(
        "group", "Split a cluster's devices into groups with balanced feature totals");
    command->add_option("--cluster", options->cluster, "Cluster file (.json) or platform.txt")
        ->required();
    command->add_option("--groups", options->groups, "Number of groups G (1 .. hosts)")->required();
    command->add_option("--features", options->features,
                        "Feature set: flops or config (device specs), hp, he or ha (--vectors)");
    command->add_option("--vectors", options->vectors,
                        "Device vectors file (cleave device-vector --out) for hp, he, ha and "
                        "the serving simulation");
    command
        ->add_option("--serve-rates", options->serve_rates,
                     "Simulate serving Poisson task arrivals at these rates (tasks/s, "
                     "comma-separated) with the groups found")
        ->delimiter(',');
    command->add_option("--workload", options->workload,
                        "The benchmark each task runs, as the vectors file names it "
                        "(squeezenet1_1@1x3x224x224)");
    command->add_option("--duration-s", options->duration_s,
                        "Seconds of arrivals in the serving simulation (default 10)");
    command->add_option("--batch", options->batch, "Images per task (default 16)");
    command->add_option("--features-file", options->features_file,
                        "JSON file mapping each host to its feature vector (HP, HE, HA, ...)");
    command->add_option("--restarts", options->restarts,
                        "Random restarts after the greedy start (default " +
                            std::to_string(options->restarts) + ")");
    command->add_option("--seed", options->seed, "Seed of the random restarts (default 1)");
    command->add_flag("--exact", options->exact,
                      "Also solve exactly (at most " + std::to_string(grouping::kExactMaxDevices) +
                          " hosts)");
    command->add_flag("--json", options->json, "Print the groups as JSON");
    command->add_option("--out", options->out, "Write the JSON document to FILE (atomically)");
    return [options] { return run_group(*options); };
}

} // namespace cleave::cli
