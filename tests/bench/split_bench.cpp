// Benchmark: writing the 24 sub-models of vgg19, resnet101 and densenet121 (cuts at the kernel
// boundaries nearest to equal node counts, as a whole AutoDiCE package: plan, text files,
// sub-models, syncs and the rename) against a synced write of the same number of bytes from
// memory in the same run, beside AutoDiCE's figures for the same job. Goal: at least 50x faster
// than AutoDiCE and within 2x of the synced write.
// Usage: split_bench ZOO_MODELS_DIR [--out DIR] [--runs N] [--json FILE]
// (ZOO_MODELS_DIR may also come from CLEAVE_ZOO_MODELS; models missing there are skipped.)
#include "core/autodice/export.hpp"
#include "core/fusion/fusion_method.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/partition/equal_node_points.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>
#include <vector>

using namespace cleave;
namespace fs = std::filesystem;

namespace {

constexpr int kParts = 24;

struct Reference {
    const char* model;
    double autodice_s;      // AutoDiCE's front end (onnx_extract x24), from the issue
    double extract_model_s; // onnx.utils.extract_model x24, from the issue
};
constexpr Reference kReferences[] = {
    {"vgg19", 180.0, 162.0}, {"resnet101", 17.8, 23.5}, {"densenet121", 5.95, 6.8}};

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One file of `bytes` bytes written from a memory buffer with write(2), then fsync'd.
void synced_write(const fs::path& file, std::uint64_t bytes, const std::vector<char>& buffer) {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        throw std::runtime_error("cannot create " + file.string() + ": " + std::strerror(errno));
    while (bytes > 0) {
        const std::size_t chunk =
            static_cast<std::size_t>(std::min<std::uint64_t>(bytes, buffer.size()));
        const ssize_t n = ::write(fd, buffer.data(), chunk);
        if (n <= 0) {
            ::close(fd);
            throw std::runtime_error("cannot write " + file.string());
        }
        bytes -= static_cast<std::uint64_t>(n);
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0)
        throw std::runtime_error("cannot sync " + file.string());
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

// Reads a file through, leaving its pages in the page cache.
void warm_page_cache(const fs::path& file, std::vector<char>& buffer) {
    std::ifstream in(file, std::ios::binary);
    while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
    }
}

} // namespace

int main(int argc, char** argv) try {
    std::string zoo = std::getenv("CLEAVE_ZOO_MODELS") ? std::getenv("CLEAVE_ZOO_MODELS") : "";
    std::string out = (fs::temp_directory_path() / "cleave-split-bench").string();
    std::string json_file;
    int runs = 3;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--out" && i + 1 < argc)
            out = argv[++i];
        else if (arg == "--runs" && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else if (arg == "--json" && i + 1 < argc)
            json_file = argv[++i];
        else
            zoo = arg;
    }
    if (zoo.empty()) {
        std::fprintf(stderr,
                     "usage: split_bench ZOO_MODELS_DIR [--out DIR] [--runs N] [--json FILE]\n"
                     "       (or set CLEAVE_ZOO_MODELS)\n");
        return 2;
    }
    fs::create_directories(out);
    const std::vector<char> buffer(std::size_t{8} << 20, 'x');
    std::vector<char> buffer_for_reading(std::size_t{8} << 20);
    auto results = nlohmann::ordered_json::array();
    bool goals_met = true;
    std::printf("%-12s %6s %14s %10s %12s %7s %12s %9s %15s\n", "model", "parts", "bytes",
                "cleave s", "synced s", "ratio", "AutoDiCE s", "speedup", "extract_model s");
    for (const auto& reference : kReferences) {
        const fs::path file = fs::path(zoo) / (std::string(reference.model) + ".onnx");
        if (!fs::exists(file)) {
            std::printf("%-12s skipped: %s not found\n", reference.model, file.c_str());
            continue;
        }
        const auto model = graph::load_model(file);
        const auto kernels = fusion::detect_kernels(model, fusion::find_fusion_method("ort-cpu"));
        const int count = static_cast<int>(kernels.kernels.size());
        std::vector<int> pes(kParts);
        for (int s = 0; s < kParts; ++s)
            pes[static_cast<std::size_t>(s)] = s;
        const auto assignment =
            partition::assignment_of({partition::equal_node_points(kernels, kParts), pes}, count);

        const fs::path folder = fs::path(out) / reference.model;
        const fs::path plain = fs::path(out) / (std::string(reference.model) + ".synced");
        std::vector<double> export_s, synced_s;
        std::uint64_t bytes = 0;
        for (int r = 0; r < runs; ++r) {
            fs::remove_all(folder);
            // The weights are copied from the mapped model file: read it first, so that both
            // sides write from memory and neither waits for the model to come back from disk
            // (the page cache may have dropped it since the last run).
            warm_page_cache(file, buffer_for_reading);
            const auto start = std::chrono::steady_clock::now();
            std::vector<autodice::PackagePart> parts(kParts);
            for (int s = 0; s < kParts; ++s)
                parts[static_cast<std::size_t>(s)].key = "h" + std::to_string(s) + "_gpu";
            for (std::size_t n = 0; n < model.nodes.size(); ++n)
                parts[static_cast<std::size_t>(assignment.pe_of_kernel[static_cast<std::size_t>(
                          kernels.kernel_of_node[n])])]
                    .nodes.push_back(static_cast<int>(n));
            const auto package =
                autodice::make_package(model, std::move(parts), nullptr, file.string());
            const auto files = autodice::write_package(model, package, folder);
            export_s.push_back(seconds_since(start));
            bytes = 0;
            for (const auto& f : files)
                bytes += f.bytes;

            fs::remove(plain);
            const auto plain_start = std::chrono::steady_clock::now();
            synced_write(plain, bytes, buffer);
            synced_s.push_back(seconds_since(plain_start));
        }
        fs::remove_all(folder);
        fs::remove(plain);
        const double cleave_s = median(export_s), write_s = median(synced_s);
        const double ratio = cleave_s / write_s, speedup = reference.autodice_s / cleave_s;
        goals_met &= speedup >= 50 && ratio <= 2;
        std::printf("%-12s %6d %14llu %10.3f %12.3f %7.2f %12.2f %8.0fx %15.2f\n", reference.model,
                    kParts, static_cast<unsigned long long>(bytes), cleave_s, write_s, ratio,
                    reference.autodice_s, speedup, reference.extract_model_s);
        results.push_back({{"model", reference.model},
                           {"parts", kParts},
                           {"bytes", bytes},
                           {"runs", runs},
                           {"cleave_s", cleave_s},
                           {"synced_write_s", write_s},
                           {"ratio_to_synced_write", ratio},
                           {"autodice_s", reference.autodice_s},
                           {"speedup_over_autodice", speedup},
                           {"extract_model_s", reference.extract_model_s}});
    }
    std::printf("goals: >= 50x faster than AutoDiCE, <= 2x a synced write of the same bytes: %s\n",
                goals_met ? "met" : "NOT met");
    if (!json_file.empty())
        std::ofstream(json_file) << nlohmann::ordered_json{{"out", out}, {"models", results}}.dump(
                                        2)
                                 << '\n';
    return goals_met ? 0 : 1;
} catch (const std::exception& e) {
    std::fprintf(stderr, "split_bench: %s\n", e.what());
    return 1;
}
