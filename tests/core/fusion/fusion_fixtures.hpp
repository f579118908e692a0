// What the fusion tests share: a model with the kernels it was fused into, read back as op
// groups and kernel types, and the four-node graph the learned classifier's tests work by hand.
#pragma once

#include "../graph/onnx_builder.hpp"
#include "core/fusion/kernel_graph.hpp"
#include "core/graph/model.hpp"
#include "core/graph/onnx_import.hpp"

#include <QStringList>

namespace cleave::test {

struct Fused {
    graph::Model model;
    fusion::KernelGraph kernels;
    // "Conv+BatchNormalization+Relu" per kernel, in order.
    QStringList groups() const {
        QStringList out;
        for (const auto& k : kernels.kernels) {
            QStringList ops;
            for (const int n : k.nodes)
                ops << QString::fromStdString(model.nodes[static_cast<std::size_t>(n)].op);
            out << ops.join('+');
        }
        return out;
    }
    QStringList types() const {
        QStringList out;
        for (const auto& k : kernels.kernels)
            out << QString::fromStdString(k.type);
        return out;
    }
};

// x -> Conv -> Relu -> Add(relu, conv) -> HardSwish: a small graph with fan-out and a second
// input. Nodes 0 conv, 1 relu, 2 add, 3 hs; edges conv->relu, relu->add, conv->add, add->hs.
inline graph::Model small_fusion_model() {
    OnnxBuilder b;
    b.input("x", {1, 4, 8, 8});
    b.initializer("w", {4, 4, 3, 3});
    auto& conv = b.node("Conv", {"x", "w"}, {"c"}, "conv");
    OnnxBuilder::set_ints(conv, "pads", {1, 1, 1, 1});
    b.node("Relu", {"c"}, {"r"}, "relu");
    b.node("Add", {"r", "c"}, {"a"}, "add");
    b.node("HardSwish", {"a"}, {"y"}, "hs");
    b.output("y");
    return graph::load_model_from_bytes(b.bytes(), "small.onnx");
}

} // namespace cleave::test
