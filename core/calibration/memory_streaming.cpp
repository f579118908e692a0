#include "memory_streaming.hpp"

#include "core/device/memory_probe.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/modelgen/net_builder.hpp"

#include <stdexcept>
#include <system_error>

namespace cleave::calibration {

StreamingMeasurement measure_streaming(profile::Profiler& profiler,
                                       const profile::ProfileOptions& options,
                                       const std::filesystem::path& folder) {
    constexpr std::int64_t kRows = 4096, kColumns = 16384;
    const auto file = folder / "stream_matvec_4096x16384.onnx";
    {
        modelgen::NetBuilder builder("stream_matvec_4096x16384", {1, 1, kRows}, 1);
        builder.output(builder.matmul(builder.input(), kColumns, false));
        std::filesystem::create_directories(folder);
        builder.save(file);
    }
    StreamingMeasurement m;
    try {
        const auto model = graph::load_model(file);
        const auto run = profiler.profile(model, options);
        for (const auto& k : run.kernels)
            if (k.op == "MatMul" && k.us)
                m.kernel_ms += *k.us / 1000;
    } catch (...) {
        std::error_code ignored;
        std::filesystem::remove(file, ignored);
        throw;
    }
    std::error_code ignored;
    std::filesystem::remove(file, ignored);
    if (!(m.kernel_ms > 0))
        throw std::runtime_error("the runtime timed no matrix product in " + file.string());
    m.weight_bytes = static_cast<double>(kRows * kColumns) * sizeof(float);
    m.runtime_gbs = m.weight_bytes / (m.kernel_ms * 1e6);
    m.probe_gbs = device::probe_memory_bandwidth(options.threads,
                                                 static_cast<std::size_t>(m.weight_bytes), 5)
                      .gbs;
    m.efficiency = m.probe_gbs > 0 ? m.runtime_gbs / m.probe_gbs : 0;
    return m;
}

} // namespace cleave::calibration
