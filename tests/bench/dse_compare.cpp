// The DSE experiment of docs/dse.md: at equal numbers of evaluations, split-point encoding
// against the naive encoding (one stage, level 1 both), and multi-stage search (level 1 only,
// and hierarchical: levels 1 and 2) against one stage, per model and device count, over seeds
// 1..S. Every run's final front is scored afresh by both evaluators (level 1: the analytical
// sums; level 2: the replay), objectives normalised by the best single PE, infeasible mappings
// dropped, non-dominated points kept. One reference point per model, device count and evaluator:
// 1.1 x the worst value of each objective over every front of every configuration (all seeds).
// Reported: the median over seeds of each one's hypervolume and of the per-seed ratios, and on how
// many seeds the ratio exceeds 1.
// Usage: dse_compare CLUSTER.json MODEL.onnx... [--devices 4,8 | --hosts 4,8] [--seeds 10]
//                    [--budget 40100] [--population 100] [--json FILE]
//                    [--stage-patience 20] [--stage-seeds refined|carried] [--exact]
// --devices N searches the N fastest PEs of the cluster; --hosts N every PE of its first N hosts.
// The stage flags set how the multi-stage configurations move between stages (docs/dse.md).
// --exact also enumerates the exact level-1 front where the PEs are interchangeable and reports,
// per configuration, the median ratio of each seed's hypervolume to it and the seeds that reach
// it (ratio >= 1 - 1e-9; reference point 1.1 x the worst over the exact front and every front).
#include "core/device/cluster.hpp"
#include "core/dse/exploration_inputs.hpp"
#include "core/dse/nsga2_search.hpp"
#include "core/dse/pareto_front.hpp"
#include "core/graph/onnx_import.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

using namespace cleave;

namespace {

struct Config {
    std::string name;
    dse::Encoding encoding;
    int stages;
    int levels;
};

const std::vector<Config> kConfigs{
    {"spe-1stage", dse::Encoding::spe, 1, 1},
    {"naive-1stage", dse::Encoding::naive, 1, 1},
    {"spe-multistage", dse::Encoding::spe, 0, 1},
    {"spe-hierarchical", dse::Encoding::spe, 0, 2},
    {"spe-1stage-2levels", dse::Encoding::spe, 1, 2},
};

// Ratios of configuration a's hypervolume to b's, seed by seed.
const std::vector<std::pair<int, int>> kRatios{{0, 1}, {2, 0}, {3, 0}, {3, 4}};

double median(std::vector<double> values) {
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

std::vector<int> int_list(const std::string& text) {
    std::vector<int> values;
    std::stringstream stream(text);
    for (std::string item; std::getline(stream, item, ',');)
        values.push_back(std::stoi(item));
    return values;
}

using Points = std::vector<std::vector<double>>;

// Each run's front scored afresh by `level`: normalised objectives of its feasible mappings,
// non-dominated ones kept. points[config][seed].
std::vector<std::vector<Points>>
scored_fronts(const dse::MappingSpace& space,
              const std::vector<std::vector<std::vector<partition::Mapping>>>& fronts,
              dse::Level level) {
    dse::MappingSpace::Scratch scratch;
    std::vector<std::vector<Points>> points(fronts.size());
    for (std::size_t c = 0; c < fronts.size(); ++c)
        for (const auto& front : fronts[c]) {
            Points scored;
            for (const auto& mapping : front) {
                const auto figures = space.figures(mapping, level, scratch);
                if (figures.feasible())
                    scored.push_back(space.normalised(space.raw_objectives(figures)));
            }
            Points kept;
            for (const std::size_t i : dse::non_dominated(scored))
                kept.push_back(scored[i]);
            points[c].push_back(std::move(kept));
        }
    return points;
}

// Whether every mapping's figures stay the same when the searched PEs are relabelled: the same
// kernel latencies and power, each PE alone on a host of the same capacity, one link for all.
bool interchangeable(const dse::MappingSpace& space, const device::Cluster& cluster) {
    const auto& costs = space.costs();
    const auto& pes = space.pes();
    std::vector<int> hosts;
    for (const int pe : pes) {
        for (int k = 0; k < costs.kernel_count(); ++k)
            if (costs.kernel_ms(pe, k) != costs.kernel_ms(pes[0], k))
                return false;
        if (costs.power(pe).busy_w != costs.power(pes[0]).busy_w ||
            costs.power(pe).communication_w != costs.power(pes[0]).communication_w ||
            space.capacities()[static_cast<std::size_t>(costs.host_of(pe))] !=
                space.capacities()[static_cast<std::size_t>(costs.host_of(pes[0]))])
            return false;
        hosts.push_back(costs.host_of(pe));
    }
    std::sort(hosts.begin(), hosts.end());
    return cluster.pairs.empty() && std::adjacent_find(hosts.begin(), hosts.end()) == hosts.end();
}

// The exact level-1 Pareto front (normalised objectives) over every mapping of the searched PEs,
// by enumeration: every set of cuts, and per set every assignment of segments to PEs up to
// relabelling (restricted growth strings) with no two adjacent segments on one PE. Only for
// interchangeable PEs (the labelling then does not matter) and spaces small enough to list.
std::vector<std::vector<double>> exact_front(const dse::MappingSpace& space) {
    const int kernels = space.costs().kernel_count();
    const int pes = static_cast<int>(space.pes().size());
    std::vector<std::vector<double>> front;
    const auto offer = [&](const std::vector<double>& p) {
        for (const auto& q : front) {
            bool dominated = true;
            for (std::size_t j = 0; j < p.size() && dominated; ++j)
                dominated = q[j] <= p[j];
            if (dominated)
                return;
        }
        std::erase_if(front, [&](const std::vector<double>& q) {
            for (std::size_t j = 0; j < p.size(); ++j)
                if (p[j] > q[j])
                    return false;
            return true;
        });
        front.push_back(p);
    };
    dse::MappingSpace::Scratch scratch;
    partition::Mapping mapping;
    std::vector<int> labels;
    // Labels for segments [s, segments): label s differs from label s - 1, at most one above the
    // largest so far.
    std::function<void(std::size_t, int)> label = [&](std::size_t s, int largest) {
        if (s == labels.size()) {
            for (std::size_t i = 0; i < labels.size(); ++i)
                mapping.pes[i] = space.pes()[static_cast<std::size_t>(labels[i])];
            const auto figures = space.figures(mapping, dse::Level::analytical, scratch);
            if (figures.feasible())
                offer(space.normalised(space.raw_objectives(figures)));
            return;
        }
        for (int l = 0; l <= std::min(largest + 1, pes - 1); ++l)
            if (s == 0 || l != labels[s - 1]) {
                labels[s] = l;
                label(s + 1, std::max(largest, l));
            }
    };
    std::function<void(int, int)> cut = [&](int from, int left) {
        if (left == 0) {
            labels.assign(mapping.points.size() + 1, 0);
            mapping.pes.assign(labels.size(), 0);
            label(0, -1);
            return;
        }
        for (int c = from; c <= kernels - left; ++c) {
            mapping.points.push_back(c);
            cut(c + 1, left - 1);
            mapping.points.pop_back();
        }
    };
    for (int cuts = 0; cuts < pes && cuts < kernels; ++cuts)
        cut(1, cuts);
    return front;
}

} // namespace

int main(int argc, char** argv) try {
    std::vector<std::string> models;
    std::string cluster_file, json_file;
    std::vector<int> device_counts{4, 8};
    bool by_hosts = false;
    bool exact = false;
    int stage_patience = dse::SearchSettings{}.stage_patience;
    bool refine_seeds = dse::SearchSettings{}.refine_seeds;
    int seeds = 10, population = 100;
    std::int64_t budget = 40100;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--exact") {
            exact = true;

        } else if (arg.rfind("--", 0) == 0 && i + 1 < argc) {
            const std::string value = argv[++i];
            if (arg == "--devices" || arg == "--hosts") {
                device_counts = int_list(value);
                by_hosts = arg == "--hosts";
            } else if (arg == "--seeds")
                seeds = std::stoi(value);
            else if (arg == "--budget")
                budget = std::stoll(value);
            else if (arg == "--population")
                population = std::stoi(value);
            else if (arg == "--json")
                json_file = value;
            else if (arg == "--stage-patience")
                stage_patience = std::stoi(value);
            else if (arg == "--stage-seeds")
                refine_seeds = value == "refined";
        } else if (cluster_file.empty()) {
            cluster_file = arg;
        } else {
            models.push_back(arg);
        }
    }
    if (cluster_file.empty() || models.empty()) {
        std::fprintf(
            stderr,
            "usage: dse_compare CLUSTER.json MODEL.onnx... [--devices 4,8 | "
            "--hosts 4,8] [--seeds 10] [--budget 40100] [--population 100] [--json FILE]\n");
        return 2;
    }
    const auto cluster = device::load_cluster(cluster_file);
    auto document = nlohmann::ordered_json{{"cluster", cluster_file},
                                           {"stage_patience", stage_patience},
                                           {"stage_seeds", refine_seeds ? "refined" : "carried"},
                                           {"seeds", seeds},
                                           {"budget", budget},
                                           {"population", population},
                                           {"results", nlohmann::ordered_json::array()}};
    std::printf("%-12s %3s %-10s | %s\n", "model", "PEs", "scored by",
                "median hypervolume ratio (seeds above 1): spe/naive, multistage/1stage, "
                "hierarchical/1stage, hierarchical/1stage-2levels");
    for (const auto& model_file : models) {
        const auto model = graph::load_model(model_file);
        const std::string name = std::filesystem::path(model_file).stem().string();
        for (const int devices : device_counts) {
            dse::ExplorationOptions options;
            auto searched = cluster;
            if (by_hosts)
                searched = device::make_cluster(
                    cluster.file,
                    {cluster.hosts.begin(),
                     cluster.hosts.begin() +
                         std::min<std::ptrdiff_t>(
                             devices, static_cast<std::ptrdiff_t>(cluster.hosts.size()))},
                    cluster.default_link, cluster.pairs);
            else
                options.max_pes = devices;
            const auto inputs = dse::prepare_exploration(model, searched, options);
            const auto& space = *inputs->space;
            const auto start = std::chrono::steady_clock::now();
            // fronts[config][seed]: the mappings of each run's final front.
            std::vector<std::vector<std::vector<partition::Mapping>>> fronts(kConfigs.size());
            std::vector<std::int64_t> evaluations(kConfigs.size(), 0);
            for (std::size_t c = 0; c < kConfigs.size(); ++c)
                for (int seed = 1; seed <= seeds; ++seed) {
                    dse::SearchSettings settings;
                    settings.encoding = kConfigs[c].encoding;
                    settings.stages = kConfigs[c].stages;
                    settings.levels = kConfigs[c].levels;
                    settings.population = population;
                    settings.evaluation_budget = budget;
                    settings.seed = static_cast<unsigned>(seed);
                    settings.stage_patience = stage_patience;
                    settings.refine_seeds = refine_seeds;
                    const auto result = dse::run_search(space, settings);
                    std::vector<partition::Mapping> mappings;
                    for (const auto& s : result.front)
                        mappings.push_back(s.mapping);
                    fronts[c].push_back(std::move(mappings));
                    evaluations[c] = std::max(evaluations[c], result.evaluations);
                }
            const double search_s =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

            auto entry = nlohmann::ordered_json{{"model", name},
                                                {"kernels", space.costs().kernel_count()},
                                                {by_hosts ? "hosts" : "pes", devices},
                                                {"searched_pes", space.pes().size()},
                                                {"search_s", search_s},
                                                {"evaluations", evaluations}};
            for (const auto level : {dse::Level::analytical, dse::Level::replay}) {
                const auto points = scored_fronts(space, fronts, level);
                // One reference point for every configuration: 1.1 x the worst value of each
                // objective over all their fronts (every seed).
                std::vector<double> reference(static_cast<std::size_t>(space.objectives().count()),
                                              0.0);
                for (const auto& fronts_of_config : points)
                    for (const auto& front : fronts_of_config)
                        for (const auto& p : front)
                            for (std::size_t j = 0; j < p.size(); ++j)
                                reference[j] = std::max(reference[j], 1.1 * p[j]);
                auto scored = nlohmann::ordered_json{{"reference_point", reference}};
                std::string ratio_text;
                for (const auto& [a, b] : kRatios) {
                    const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
                    std::vector<double> hv_a, hv_b, ratios;
                    for (int seed = 0; seed < seeds; ++seed) {
                        hv_a.push_back(dse::hypervolume(points[ua][static_cast<std::size_t>(seed)],
                                                        reference));
                        hv_b.push_back(dse::hypervolume(points[ub][static_cast<std::size_t>(seed)],
                                                        reference));
                        ratios.push_back(hv_a.back() / hv_b.back());
                    }
                    const std::string key = kConfigs[ua].name + "/" + kConfigs[ub].name;
                    const auto wins =
                        std::count_if(ratios.begin(), ratios.end(), [](double r) { return r > 1; });
                    scored[key] = {{"median_hypervolume", {median(hv_a), median(hv_b)}},
                                   {"median_ratio", median(ratios)},
                                   {"seeds_above_1", wins},
                                   {"hypervolumes", {hv_a, hv_b}},
                                   {"ratios", ratios}};
                    char cell[64];
                    std::snprintf(cell, sizeof cell, " %.3f (%d/%d)", median(ratios),
                                  static_cast<int>(wins), seeds);
                    ratio_text += cell;
                }
                const char* level_name = level == dse::Level::analytical ? "analytical" : "replay";
                entry[level_name] = scored;
                std::printf("%-12s %3d %-10s |%s\n", name.c_str(), devices, level_name,
                            ratio_text.c_str());
                std::fflush(stdout);
            }
            if (exact && interchangeable(space, searched)) {
                const auto exact_start = std::chrono::steady_clock::now();
                const auto optimum = exact_front(space);
                std::vector<double> reference(static_cast<std::size_t>(space.objectives().count()),
                                              0.0);
                const auto widen = [&](const std::vector<double>& p) {
                    for (std::size_t j = 0; j < p.size(); ++j)
                        reference[j] = std::max(reference[j], 1.1 * p[j]);
                };
                std::for_each(optimum.begin(), optimum.end(), widen);
                const auto points = scored_fronts(space, fronts, dse::Level::analytical);
                for (const auto& runs : points)
                    for (const auto& front : runs)
                        std::for_each(front.begin(), front.end(), widen);
                const double optimum_hv = dse::hypervolume(optimum, reference);
                auto exact_json = nlohmann::ordered_json{
                    {"front_size", optimum.size()},
                    {"enumeration_s",
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - exact_start)
                         .count()},
                    {"hypervolume", optimum_hv},
                    {"points", optimum}};
                std::string text;
                for (std::size_t c = 0; c < kConfigs.size(); ++c) {
                    std::vector<double> ratios;
                    for (const auto& front : points[c])
                        ratios.push_back(dse::hypervolume(front, reference) / optimum_hv);
                    const auto reached = std::count_if(ratios.begin(), ratios.end(),
                                                       [](double r) { return r >= 1 - 1e-9; });
                    exact_json[kConfigs[c].name] = {{"median_ratio", median(ratios)},
                                                    {"seeds_at_optimum", reached},
                                                    {"ratios", ratios}};
                    char cell[96];
                    std::snprintf(cell, sizeof cell, " %s %.4f (%d/%d)", kConfigs[c].name.c_str(),
                                  median(ratios), static_cast<int>(reached), seeds);
                    text += cell;
                }
                entry["exact_analytical"] = exact_json;
                std::printf("%-12s %3d exact      | front of %zu;%s\n", name.c_str(), devices,
                            optimum.size(), text.c_str());
                std::fflush(stdout);
            }
            document["results"].push_back(entry);
        }
    }
    if (!json_file.empty())
        std::ofstream(json_file) << document.dump(2) << '\n';
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "dse_compare: %s\n", e.what());
    return 2;
}
