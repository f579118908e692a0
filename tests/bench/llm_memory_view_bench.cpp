// Benchmark: the Partition tab's LLM memory panel while its context slider is dragged. Llama-3.1-8B
// fp16 on four edge boards (tests/ui/partition/llm_partition.hpp), the panel at 520x320 offscreen;
// a frame is one slider position (the document re-sizes the caches, the panel's boxes and status
// follow) and the panel repainted. Every position from 1 to 131,072 tokens in steps of 256; also
// a full llm_memory at each position, for comparison. Median and max
// (goal: a frame under 16 ms).
// Usage: llm_memory_view_bench [--json FILE]
#include "../ui/partition/llm_partition.hpp"
#include "ui/partition/llm_memory_view.hpp"

#include <QApplication>
#include <QSlider>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

using namespace cleave;

namespace {

double since_ms(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
}

nlohmann::json summary(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    return {{"median_ms", ms[ms.size() / 2]}, {"max_ms", ms.back()}, {"frames", ms.size()}};
}

} // namespace

int main(int argc, char** argv) try {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    std::string json_file;
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--json" && i + 1 < argc)
            json_file = argv[++i];
    test::LlmPartition p;
    QString error;
    if (!test::prepare_llm_partition(p, error)) {
        std::fprintf(stderr, "llm_memory_view_bench: %s\n", qPrintable(error));
        return 1;
    }
    ui::LlmMemoryView view(&p.document);
    view.resize(520, 320);
    view.show();
    QApplication::processEvents();
    std::vector<double> frames, full;
    const auto& r = p.document.inputs()->request;
    const auto assignment =
        partition::assignment_of(p.document.mapping(), p.document.kernelCount());
    for (int context = 256; context <= 131072; context += 256) {
        auto start = std::chrono::steady_clock::now();
        view.contextSlider()->setValue(context);
        view.repaint();
        frames.push_back(since_ms(start));
        start = std::chrono::steady_clock::now();
        const auto memory =
            partition::llm_memory(*r.model, *r.kernels, assignment, *r.cluster, p.document.workload());
        full.push_back(since_ms(start));
        if (memory.fits != p.document.llmMemory()->fits)
            throw std::runtime_error("the panel and llm_memory disagree at " +
                                     std::to_string(context));
    }
    const nlohmann::json out{{"model", "llama-3.1-8b fp16, decode after 8191"},
                             {"frame", summary(frames)},
                             {"full_llm_memory", summary(full)},
                             {"goal_ms", 16}};
    std::printf("LLM memory panel, context slider over %zu positions: frame median %.3f ms, max "
                "%.3f ms (goal < 16 ms); a full llm_memory per position instead: median %.3f ms\n",
                frames.size(), out["frame"]["median_ms"].get<double>(),
                out["frame"]["max_ms"].get<double>(), out["full_llm_memory"]["median_ms"].get<double>());
    if (!json_file.empty())
        std::ofstream(json_file) << out.dump(2) << "\n";
    return 0;
} catch (const std::exception& e) {
    std::fprintf(stderr, "llm_memory_view_bench: %s\n", e.what());
    return 1;
}
