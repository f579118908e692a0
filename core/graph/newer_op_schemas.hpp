// The default-domain (ai.onnx) opsets 18 to 21, which current exporters write and libonnx 1.12
// (opsets 1 to 17) does not know. An op version of those opsets whose inputs and attributes are
// those of libonnx's newest version resolves to it; one whose signature changed gets a schema
// Cleave writes, with its own shape rule (docs/importer.md lists them). Internal to core/graph.
#pragma once

#include <onnx/defs/schema.h>
#include <stdexcept>
#include <string>
#include <utility>

namespace cleave::graph {

// The newest default-domain opset the importer reads.
constexpr int kNewestReadOpset = 21;

// The schema a node of `op` is checked and inferred with in a model importing `opset` of
// `domain` ("" or "ai.onnx" for the default domain): Cleave's for the op versions above libonnx's
// newest opset that changed their signature, libonnx's otherwise; nullptr when neither knows it.
const onnx::OpSchema* op_schema(const std::string& op, int opset, const std::string& domain);

// Thrown by a shape rule for a node no runtime would run (a blocked scale whose shape does not
// fit the block size): the import is refused naming the node, instead of the node being left
// without shapes.
class NodeRuleError : public std::runtime_error {
public:
    explicit NodeRuleError(const std::string& why, std::string node_name = {})
        : std::runtime_error(why), node(std::move(node_name)) {}

    std::string node; // named by the inference driver, which knows the node
};

} // namespace cleave::graph
