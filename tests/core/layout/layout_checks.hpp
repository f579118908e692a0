// What the layout tests check and lay out: ResNet-18 and GPT-2 decoders of any depth, nodes layered
// without overlaps, and everything drawn inside the bounds.
#pragma once

#include "../modelgen/built_model.hpp"
#include "core/graph/onnx_import.hpp"
#include "core/layout/graph_layout.hpp"
#include "core/modelgen/decoder_stack.hpp"

#include <QtTest>
#include <string>

namespace cleave::test {

inline const graph::Model& resnet18() {
    static const graph::Model model =
        graph::load_model(std::string(CLEAVE_EXAMPLE_MODELS_DIR) + "/resnet18.onnx");
    return model;
}

inline bool overlap(const layout::Rect& a, const layout::Rect& b) {
    return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}

// Every producer above its consumers and no two nodes on top of each other.
inline void checkLayered(const graph::Model& model, const layout::GraphLayout& layout) {
    for (const auto& edge : layout.edges)
        QVERIFY(layout.nodes[static_cast<std::size_t>(edge.from)].bottom() <
                layout.nodes[static_cast<std::size_t>(edge.to)].y);
    for (std::size_t a = 0; a < model.nodes.size(); ++a)
        for (std::size_t b = a + 1; b < model.nodes.size(); ++b)
            QVERIFY(!overlap(layout.nodes[a], layout.nodes[b]));
}

inline bool inside(const layout::Rect& outer, const layout::Rect& inner) {
    return outer.contains(inner);
}

// A GPT-2 decoder of `layers` layers (47 nodes each, 10 more after them).
inline graph::Model decoder(int layers) {
    return built_model(modelgen::decoder_stack(layers, 32, 2, 8, 10));
}

// Every node has a box inside the bounds, every edge ends at its consumer, and kernel boxes
// hold their members.
inline void checkDrawn(const graph::Model& model, const layout::GraphLayout& layout,
                       const fusion::KernelGraph* kernels) {
    QCOMPARE(layout.nodes.size(), model.nodes.size());
    for (const auto& r : layout.nodes) {
        QVERIFY(r.width > 0 && r.height > 0);
        QVERIFY(inside(layout.bounds, r));
    }
    for (const auto& edge : layout.edges) {
        QVERIFY(!edge.points.empty());
        const layout::Rect near = [&] {
            layout::Rect r = layout.nodes[static_cast<std::size_t>(edge.to)];
            return layout::Rect{r.x - 1, r.y - 1, r.width + 2, r.height + 2};
        }();
        QVERIFY(inside(near, {edge.arrow_tip.x, edge.arrow_tip.y, 0, 0}));
    }
    if (kernels)
        for (std::size_t k = 0; k < kernels->kernels.size(); ++k)
            for (const int n : kernels->kernels[k].nodes)
                QVERIFY(inside(layout.kernels[k], layout.nodes[static_cast<std::size_t>(n)]));
}

} // namespace cleave::test
