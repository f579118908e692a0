#include "load_time.hpp"

#include <algorithm>

namespace cleave::fusion {

std::vector<bool> run_time_shapes(const graph::Model& model) {
    std::vector<bool> run_time(model.tensors.size(), false);
    for (const int t : model.inputs)
        run_time[static_cast<std::size_t>(t)] =
            model.tensors[static_cast<std::size_t>(t)].symbolic_in_file;
    for (const auto& node : model.nodes) {
        const bool from_symbolic = std::any_of(node.inputs.begin(), node.inputs.end(), [&](int t) {
            return t >= 0 && run_time[static_cast<std::size_t>(t)];
        });
        for (const int t : node.outputs)
            if (t >= 0)
                run_time[static_cast<std::size_t>(t)] = from_symbolic;
    }
    return run_time;
}

std::vector<bool> load_time_constants(const graph::Model& model) {
    std::vector<bool> constant(model.nodes.size(), false);
    const auto run_time_shape = run_time_shapes(model);
    for (std::size_t n = 0; n < model.nodes.size(); ++n) {
        const auto& node = model.nodes[n];
        if (!node.domain.empty() && node.domain != "ai.onnx")
            continue;
        if (node.op == "Shape" || node.op == "Size") {
            const int t = node.inputs.empty() ? -1 : node.inputs[0];
            constant[n] = t >= 0 && model.tensors[t].elements() >= 0 &&
                          !run_time_shape[static_cast<std::size_t>(t)];
            continue;
        }
        bool all = node.op == "Constant" || !node.inputs.empty();
        for (const int t : node.inputs) {
            if (t < 0)
                continue;
            const auto& tensor = model.tensors[t];
            all &= tensor.kind == graph::Tensor::Kind::Initializer ||
                   (tensor.producer >= 0 && constant[static_cast<std::size_t>(tensor.producer)]);
        }
        constant[n] = all;
    }
    return constant;
}

} // namespace cleave::fusion
