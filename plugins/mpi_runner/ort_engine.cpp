// The ONNX Runtime rank engine: ort_rank.mjs in a Node.js process of the rank's own, fed in
// frames (a JSON line, then the tensors' raw bytes) over its stdin and read back alike.
#include "core/child_process.hpp"
#include "core/input_error.hpp"
#include "plugins/ort_common/ort_node.hpp"
#include "rank_engine.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace cleave::autodice {

namespace {

graph::DataType dtype_named(const std::string& name) {
    for (int t = 1; t <= static_cast<int>(graph::DataType::Int4); ++t)
        if (graph::to_string(static_cast<graph::DataType>(t)) == name)
            return static_cast<graph::DataType>(t);
    throw std::runtime_error("ONNX Runtime gave an output of element type '" + name +
                             "', which the runner does not carry");
}

class OrtEngine final : public RankEngine {
public:
    OrtEngine(const std::filesystem::path& model, int threads, const std::filesystem::path& log)
        : model_(model.string()),
          process_({CLEAVE_NODE_EXECUTABLE,
                    (ort_node::runtime_folder() / "ort_rank.mjs").string(),
                    nlohmann::json{{"modules", ort_node::modules_folder().string()},
                                   {"model", model.string()},
                                   {"threads", threads}}
                        .dump()},
                   log) {
        answer("load the sub-model");
    }

    void start(const std::vector<NamedTensor>& inputs, const std::vector<std::string>& outputs,
               const KeptState* state) override {
        auto request = nlohmann::json::object();
        auto list = nlohmann::json::array();
        for (const auto& in : inputs)
            list.push_back({{"name", in.name},
                            {"dtype", graph::to_string(in.tensor->dtype)},
                            {"dims", in.tensor->dims},
                            {"bytes", in.tensor->bytes.size()}});
        request["run"] = std::move(list);
        request["outputs"] = outputs;
        if (state) {
            request["sequence"] = state->sequence;
            request["keep"] = state->keep;
            if (!state->argmax.empty())
                request["argmax"] = state->argmax;
            if (!state->last_row.empty())
                request["lastRow"] = state->last_row;
            if (state->warm)
                request["warm"] = true;
        }
        const std::string line = request.dump() + "\n";
        std::vector<std::span<const std::byte>> pieces{std::as_bytes(std::span(line))};
        for (const auto& in : inputs)
            pieces.emplace_back(in.tensor->bytes);
        process_.write(pieces, "run " + model_);
    }

    bool done(int timeout_ms) override { return process_.readable(timeout_ms); }

    std::vector<HostTensor> finish() override {
        const std::string doing = "run " + model_;
        const auto reply = answer(doing);
        last_ms_ = reply.at("ms").get<double>();
        std::vector<HostTensor> out;
        for (const auto& o : reply.at("outputs")) {
            HostTensor t;
            t.dtype = dtype_named(o.at("dtype").get<std::string>());
            t.dims = o.at("dims").get<std::vector<std::int64_t>>();
            t.bytes.resize(o.at("bytes").get<std::size_t>());
            out.push_back(std::move(t));
        }
        for (auto& t : out)
            process_.read(t.bytes.data(), t.bytes.size(), doing);
        return out;
    }

    double last_run_ms() const override { return last_ms_; }

private:
    nlohmann::json answer(const std::string& doing) {
        return ort_node::read_answer(process_, model_, doing);
    }

    std::string model_;
    ChildProcess process_;
    double last_ms_ = 0;
};

} // namespace

std::unique_ptr<RankEngine> make_ort_engine(const std::filesystem::path& model, int threads,
                                            const std::filesystem::path& log) {
    ort_node::ort_version(ort_node::modules_folder()); // refuses a folder without it
    return std::make_unique<OrtEngine>(model, threads, log);
}

std::string ort_engine_runtime() {
    return "ONNX Runtime " + ort_node::ort_version(ort_node::modules_folder()) +
           " (CPUExecutionProvider, onnxruntime-node, EXTENDED optimisation)";
}

} // namespace cleave::autodice
