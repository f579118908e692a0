// Cleave's own graph model: what an ONNX file describes, in topological order, with shapes and
// per-node costs. Everything outside core/graph speaks this model, never protobuf.
#pragma once

#include "data_type.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cleave::graph {

// Dims of a tensor; a dim of -1 is unknown. A tensor whose rank is unknown has no Shape.
using Shape = std::vector<std::int64_t>;

std::string shape_to_string(const std::optional<Shape>& shape); // "1x3x224x224", "?" for unknown

// Elements in a shape; -1 when the rank or a dim is unknown. Throws std::overflow_error when
// the product does not fit in 64 bits.
std::int64_t element_count(const std::optional<Shape>& shape);

struct Tensor {
    enum class Kind { Activation, GraphInput, Initializer };

    std::string name;
    Kind kind = Kind::Activation;
    DataType dtype = DataType::Undefined;
    std::optional<Shape> shape;
    int producer = -1;          // index into Model::nodes; -1 for inputs and initializers
    std::vector<int> consumers; // indices into Model::nodes, ascending
    bool is_graph_output = false;
    // A graph input whose file leaves a dim symbolic (bound on load, by --dim, a decoder's phase or
    // --input-shape): a runtime given the file knows its shape, and the shapes computed from it,
    // only when it runs.
    bool symbolic_in_file = false;

    std::int64_t elements() const { return element_count(shape); } // -1 when unknown
    std::int64_t bytes() const; // -1 when unknown or the element size is not fixed
};

struct Attribute {
    enum class Kind { Int, Float, String, Ints, Floats, Strings, Tensor, Graph, Other };

    std::string name;
    Kind kind = Kind::Other;
    std::vector<std::int64_t> ints;   // Int (one value) and Ints
    std::vector<double> floats;       // Float (one value) and Floats
    std::vector<std::string> strings; // String (one value) and Strings
    std::string summary;              // Tensor, Graph, Other: a short description
    // Tensor of up to 256 bytes: its element type, dims and stored values, serialized, so that
    // equal constants compare equal (empty for larger ones)
    std::string data;

    std::string to_string() const; // the value as a person reads it: "3", "[1, 1]", "'NOTSET'"
};

struct NodeCost {
    std::int64_t macs = 0;  // multiply-accumulates of Conv, ConvTranspose, Gemm and MatMul
    std::int64_t flops = 0; // docs/graph-features.md gives the rule for every op
    // floating initializer inputs, less BN mean and var and DequantizeLinear's scale and zero
    // point; DequantizeLinear's quantized input counts whatever its type
    std::int64_t weight_parameters = 0;
    std::int64_t bytes_in = 0; // every input tensor, weights included
    std::int64_t bytes_out = 0;
    bool complete = true; // false when a shape it needs is unknown (the figures are then low)
};

struct Node {
    std::string name; // the model's own name, or AutoDiCE's where that was asked or needed
    std::string op;
    std::string domain;                // "" for the default ONNX domain
    std::vector<Attribute> attributes; // sorted by name
    std::vector<int> inputs;  // indices into Model::tensors; -1 for an omitted optional input
    std::vector<int> outputs; // indices into Model::tensors; -1 for an omitted optional output
    NodeCost cost;

    const Attribute* attribute(std::string_view name) const;
    std::int64_t int_attribute(std::string_view name, std::int64_t fallback) const;
    std::vector<std::int64_t> ints_attribute(std::string_view name) const; // empty if absent
};

struct OpsetImport {
    std::string domain;
    std::int64_t version = 0;
};

class OnnxSource; // the parsed file behind a Model; only core/graph looks inside

struct Model {
    std::string file; // as given to load_model
    std::int64_t ir_version = 0;
    std::int64_t opset = 0; // of the default ai.onnx domain
    std::vector<OpsetImport> opset_imports;
    std::string producer; // "pytorch 2.11.0"
    std::vector<Tensor> tensors;
    std::vector<Node> nodes; // topological order, stable: file order when that is valid
    std::vector<int> inputs; // graph inputs that are not initializers
    std::vector<int> outputs;
    std::int64_t weight_parameters = 0;    // as NodeCost counts them, each initializer once
    std::int64_t initializer_elements = 0; // all initializers
    std::int64_t macs = 0;
    std::int64_t flops = 0;
    std::vector<std::string> warnings; // what could not be inferred, or was given for nothing
    std::vector<std::string> notes;    // defaults taken as documented (a decoder's batch of 1)
    // External data files the model names that are not there (their locations): the dims were
    // read, the weights cannot be (graph::require_weights).
    std::vector<std::string> missing_external_data;
    // The inputs' symbolic dims (dim_param, expressions too) and the values they were bound to.
    std::map<std::string, std::int64_t> bound_dims;
    // The decoder roles the inputs' dims play ("batch", "sequence", "past", "total") -> value.
    std::map<std::string, std::int64_t> dim_roles;
    std::shared_ptr<const OnnxSource> source;

    int find_tensor(std::string_view name) const; // -1 when absent
    int find_node(std::string_view name) const;   // -1 when absent
    // The nodes reading any output of `node`, in output then consumer order (repeats kept).
    std::vector<int> consumers_of(const Node& node) const;
};

} // namespace cleave::graph
