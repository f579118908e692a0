// A decoder's layer plan as llama.cpp runs it across hosts (docs/partition.md, "llama.cpp command
// lines"): an `rpc-server` on every host of the plan, and `llama-server` on the first stage's host
// reaching them all (`--rpc`), its devices the plan's stages in pipeline order (`-dev RPC0,...`),
// the layers split by `--tensor-split` in proportion to each stage's layer count (llama.cpp's
// single-precision arithmetic gives whole-layer proportions exactly), and, when asked or where its
// rounding would move a boundary, each range pinned with `--override-tensor` (`-ot`). The flags are
// llama.cpp's (tools/rpc/README.md, common/arg.cpp); device and buffer names are those of its
// multi-device RPC back end ("RPC0", "RPC0[host:port]").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cleave::partition {

struct LlamaCppStage {
    std::string host;
    int first_layer = 0;
    int layers = 0;
    bool gpu = true; // the stage runs on the host's GPU; false: its CPU
    int threads = 0; // a CPU stage's threads (the PE's cores); 0: rpc-server's default
};

struct LlamaCppOptions {
    std::string model = "model.gguf"; // the GGUF file on the main host
    int rpc_port = 50052;             // rpc-server's default
    std::int64_t context = 0;         // llama-server -c; 0: the model's
    int parallel = 1;                 // llama-server -np: sequences served at once
    // Pin every range with -ot even where the proportions give it (against a build whose --fit
    // or split rounding differs).
    bool pin = false;
};

struct LlamaCppLaunch {
    struct Server {
        std::string host;
        std::string command;
        std::string note; // what the host needs besides the line
    };
    std::vector<Server> servers; // one per stage, in pipeline order
    std::string main_host;
    std::string main_command;
    std::vector<double> tensor_split; // per stage
    bool pinned =
        false; // -ot pins the ranges (asked, or the proportions alone would not give them)
};

// Throws std::invalid_argument for stages that do not cover layers 0 .. layers - 1 in order, or
// a host twice.
LlamaCppLaunch llama_cpp_launch(const std::vector<LlamaCppStage>& stages, int layers,
                                const LlamaCppOptions& options);

// llama.cpp's load_tensors: the device of each of `layers` layers (and, last, of the output
// layer) from --tensor-split proportions, every layer offloaded: slot i (of layers + 1) on the
// first device whose cumulative share, in single precision as llama.cpp sums it, exceeds
// i / (layers + 1).
std::vector<int> llama_cpp_slot_devices(const std::vector<double>& split, int layers);

// The -ot pattern of layers [first, first + count): "blk\.(4|5|6)\." (no comma: llama.cpp splits
// the flag's value at commas).
std::string llama_cpp_layer_pattern(int first, int count);

} // namespace cleave::partition
