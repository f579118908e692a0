// What the generated-model tests check on a built and imported model: every shape inferred, and
// the graph around a node (its producers, consumers and output shape).
#pragma once

#include "core/graph/model.hpp"

#include <QtTest>
#include <cstddef>
#include <string>
#include <vector>

namespace cleave::test {

// Every tensor a node writes has a fully known shape; one input, one output.
inline void check_shapes(const graph::Model& m) {
    for (const auto& node : m.nodes)
        for (const int t : node.outputs) {
            const auto& shape = m.tensors[static_cast<std::size_t>(t)].shape;
            QVERIFY2(shape && graph::element_count(shape) > 0,
                     (m.file + ": " + node.name + " has no inferred shape").c_str());
        }
    QCOMPARE(m.outputs.size(), std::size_t{1});
    QCOMPARE(m.inputs.size(), std::size_t{1});
}

inline std::string first_warning(const graph::Model& m) {
    return m.warnings.empty() ? std::string() : m.warnings.front();
}

inline const graph::Tensor& tensor(const graph::Model& m, int index) {
    return m.tensors.at(static_cast<std::size_t>(index));
}

// The node that writes input `i` of `node`, or nullptr for inputs and initializers.
inline const graph::Node* producer(const graph::Model& m, const graph::Node& node, std::size_t i) {
    const int p = tensor(m, node.inputs.at(i)).producer;
    return p < 0 ? nullptr : &m.nodes[static_cast<std::size_t>(p)];
}

inline std::vector<const graph::Node*> consumers(const graph::Model& m, const graph::Node& node) {
    std::vector<const graph::Node*> out;
    for (const int c : m.consumers_of(node))
        out.push_back(&m.nodes[static_cast<std::size_t>(c)]);
    return out;
}

inline graph::Shape output_shape(const graph::Model& m, const graph::Node& node) {
    return tensor(m, node.outputs.at(0)).shape.value_or(graph::Shape{});
}

} // namespace cleave::test
