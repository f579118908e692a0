// cleave split: cut a model at split points on its kernel order and write one sub-model per PE
// key with the comm tables that connect them (mapping.json, sender.json, receiver.json); with
// --cluster, the whole AutoDiCE package as export-autodice writes it.
#include "commands.hpp"
#include "core/autodice/export.hpp"
#include "core/device/platform_file.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/input_error.hpp"
#include "core/partition/equal_node_points.hpp"
#include "model_options.hpp"
#include "output.hpp"
#include "package_report.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <optional>
#include <regex>
#include <sstream>

namespace cleave::cli {

namespace {

struct SplitOptions {
    ModelOptions model;
    std::string points;
    int parts = 0;
    std::string pes;
    std::string cluster;
    std::string rules = "ort-cpu";
    std::string out;
    bool json = false;
};

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> items;
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, ','))
        items.push_back(item);
    return items;
}

// Without a cluster a key is checked for AutoDiCE's form alone: `<host>_<resource>`.
void check_key_form(const std::string& key) {
    static const std::regex resource("gpu|(arm|cpu)[0-9]+|cpu[0-9]+-[0-9]+");
    const auto cut = key.find('_');
    if (cut == std::string::npos || !device::valid_host_name(key.substr(0, cut)) ||
        !std::regex_match(key.substr(cut + 1), resource))
        throw InputError("", "--pes",
                         "'" + key +
                             "' is not an AutoDiCE PE key; expected <host>_<resource> "
                             "such as nx01_gpu, nx01_arm012345 or lenovo_cpu0-11");
}

int run_split(const SplitOptions& options) {
    std::optional<device::Cluster> cluster;
    if (!options.cluster.empty())
        cluster = device::load_cluster(options.cluster);
    const auto model = options.model.load();
    const auto method = fusion::find_fusion_method(options.rules);
    const auto kernels = fusion::detect_kernels(model, method);
    const int kernel_count = static_cast<int>(kernels.kernels.size());

    if (options.points.empty() == (options.parts == 0))
        throw InputError("", "--points",
                         "give either --points (split points on the kernel order) or --parts N "
                         "(N parts of about equal node counts)");
    std::string point_list = options.points;
    if (options.parts > 0) {
        point_list.clear();
        for (const int point : partition::equal_node_points(kernels, options.parts))
            point_list += (point_list.empty() ? "" : ",") + std::to_string(point);
    }
    std::vector<std::string> keys; // one per segment
    std::vector<int> points;
    if (cluster) {
        const auto checked =
            partition::parse_mapping(point_list, options.pes, *cluster, kernel_count);
        points = checked.points;
        for (const int pe : checked.pes)
            keys.push_back(cluster->pes[static_cast<std::size_t>(pe)].key);
    } else {
        for (const auto& item : split_list(point_list)) {
            int value = 0;
            const auto [end, error] =
                std::from_chars(item.data(), item.data() + item.size(), value);
            if (error != std::errc() || end != item.data() + item.size())
                throw InputError("", "--points",
                                 "'" + item +
                                     "' is not a kernel count; expected comma-separated "
                                     "integers such as 12,40");
            points.push_back(value);
        }
        for (const auto& key : split_list(options.pes)) {
            check_key_form(key);
            keys.push_back(key);
        }
    }
    // A key given for several segments runs all of them in one sub-model.
    std::vector<autodice::PackagePart> parts;
    partition::Mapping mapping{points, {}};
    for (const auto& key : keys) {
        const auto it = std::find_if(parts.begin(), parts.end(),
                                     [&](const autodice::PackagePart& p) { return p.key == key; });
        mapping.pes.push_back(static_cast<int>(it - parts.begin()));
        if (it == parts.end())
            parts.push_back({key, {}});
    }
    partition::check_mapping(mapping, kernel_count, static_cast<int>(parts.size()));
    const auto assignment = partition::assignment_of(mapping, kernel_count);
    for (std::size_t n = 0; n < model.nodes.size(); ++n) {
        const int k = kernels.kernel_of_node[n];
        parts[static_cast<std::size_t>(assignment.pe_of_kernel[static_cast<std::size_t>(k)])]
            .nodes.push_back(static_cast<int>(n));
    }

    const auto start = std::chrono::steady_clock::now();
    const auto package = autodice::make_package(model, std::move(parts),
                                                cluster ? &*cluster : nullptr, "--points/--pes");
    const auto files = autodice::write_package(model, package, options.out);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    const PackageReport report{&model,      cluster ? &*cluster : nullptr,
                               method.name, kernel_count,
                               options.out, &package,
                               files,       seconds,
                               {}};
    emit_package_report(report, options.json);
    return 0;
}

} // namespace

Action add_split_command(CLI::App& app) {
    auto options = std::make_shared<SplitOptions>();
    auto* command = app.add_subcommand(
        "split", "Cut a model at split points on its kernel order into one sub-model per PE key, "
                 "with the comm tables (the whole AutoDiCE package with --cluster)");
    options->model.add_to(*command, false);
    command->add_option("--points", options->points,
                        "Split points: kernels before each cut, e.g. 12,40");
    command->add_option("--parts", options->parts,
                        "Instead of --points: N parts of about equal node counts, cut at the "
                        "nearest kernel boundaries");
    command
        ->add_option("--pes", options->pes,
                     "PE key per segment, e.g. nx01_gpu,nx02_gpu,nx03_arm012345")
        ->required();
    command->add_option("--cluster", options->cluster,
                        "Cluster file or platform.txt: check the keys and also write "
                        "platform.txt, rankfile and hostfile");
    command
        ->add_option("--out", options->out,
                     "Output folder; replaced only when complete, and only if empty or an "
                     "earlier export")
        ->required();
    command->add_option("--rules", options->rules, "Fusion method for the kernels")
        ->capture_default_str();
    command->add_flag("--json", options->json, "Print the ranks and files as JSON");
    return [options] { return run_split(*options); };
}

} // namespace cleave::cli
