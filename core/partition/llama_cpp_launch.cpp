#include "llama_cpp_launch.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace cleave::partition {

namespace {

std::string proportion(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

std::string endpoint(const std::string& host, int port) {
    return host + ":" + std::to_string(port);
}

void check_stages(const std::vector<LlamaCppStage>& stages, int layers) {
    int next = 0;
    for (std::size_t s = 0; s < stages.size(); ++s) {
        if (stages[s].first_layer != next || stages[s].layers < 1)
            throw std::invalid_argument("llama.cpp stages must cover the layers in order");
        next += stages[s].layers;
        for (std::size_t t = 0; t < s; ++t)
            if (stages[t].host == stages[s].host)
                throw std::invalid_argument("llama.cpp: host " + stages[s].host + " twice");
    }
    if (next != layers || stages.empty())
        throw std::invalid_argument("llama.cpp stages must cover every layer");
}

} // namespace

std::vector<int> llama_cpp_slot_devices(const std::vector<double>& split, int layers) {
    // As llama_model::load_tensors: float prefix sums, divided by the total; then slot il goes to
    // upper_bound(cum, float(il) / (layers + 1)).
    std::vector<float> cumulative;
    float sum = 0.0f;
    for (const double s : split) {
        sum += static_cast<float>(s);
        cumulative.push_back(sum);
    }
    for (auto& c : cumulative)
        c /= sum;
    std::vector<int> device;
    for (int il = 0; il <= layers; ++il) {
        const float x = static_cast<float>(il) / static_cast<float>(layers + 1);
        const auto d =
            std::upper_bound(cumulative.begin(), cumulative.end(), x) - cumulative.begin();
        device.push_back(std::min(static_cast<int>(d), static_cast<int>(split.size()) - 1));
    }
    return device;
}

std::string llama_cpp_layer_pattern(int first, int count) {
    std::string numbers;
    for (int l = first; l < first + count; ++l)
        numbers += (numbers.empty() ? "" : "|") + std::to_string(l);
    return "blk\\.(" + numbers + ")\\.";
}

LlamaCppLaunch llama_cpp_launch(const std::vector<LlamaCppStage>& stages, int layers,
                                const LlamaCppOptions& options) {
    check_stages(stages, layers);
    LlamaCppLaunch out;
    std::string rpc, devices, split, pins;
    for (std::size_t s = 0; s < stages.size(); ++s) {
        const auto& stage = stages[s];
        LlamaCppLaunch::Server server;
        server.host = stage.host;
        server.command = "rpc-server -H 0.0.0.0 -p " + std::to_string(options.rpc_port);
        if (stage.gpu) {
            server.command += " -d CUDA0";
        } else {
            if (stage.threads > 0)
                server.command += " -t " + std::to_string(stage.threads);
            server.note = "the plan runs this stage on the CPU: an rpc-server built without a GPU "
                          "back end, which then offers its CPU";
        }
        out.servers.push_back(server);
        const std::string at = endpoint(stage.host, options.rpc_port);
        rpc += (s ? "," : "") + at;
        devices += (s ? "," : "") + std::string("RPC") + std::to_string(s);
        // The output layer takes the last slot, on the last device.
        const double share = stage.layers + (s + 1 == stages.size() ? 1 : 0);
        out.tensor_split.push_back(share);
        split += (s ? "," : "") + proportion(share);
        pins += (s ? "," : "") + llama_cpp_layer_pattern(stage.first_layer, stage.layers) +
                "=RPC0[" + at + "]";
    }
    // Whether llama.cpp's own rounding of the proportions gives every layer its stage.
    const auto slots = llama_cpp_slot_devices(out.tensor_split, layers);
    out.pinned = options.pin;
    for (std::size_t s = 0; s < stages.size(); ++s)
        for (int l = stages[s].first_layer; l < stages[s].first_layer + stages[s].layers; ++l)
            out.pinned |= slots[static_cast<std::size_t>(l)] != static_cast<int>(s);
    out.main_host = stages.front().host;
    out.main_command = "llama-server -m " + options.model + " --rpc " + rpc + " -dev " + devices +
                       " -ngl 999 -sm layer -ts " + split;
    if (out.pinned)
        out.main_command += " -ot \"" + pins + "\"";
    if (options.context > 0)
        out.main_command += " -c " + std::to_string(options.context * options.parallel);
    if (options.parallel > 1)
        out.main_command += " -np " + std::to_string(options.parallel);
    return out;
}

} // namespace cleave::partition
