// An ONNX graph for the language-model decoders of `generate-models --llm`: symbolic input dims,
// nodes named as exporters name them ("/model/layers.0/self_attn/q_proj/MatMul", output
// "..._output_0"), small integer and scalar constants inside the model, and the weights as
// external data in a file beside it that is written sparse (its size set, no byte written), so
// an 8B model costs no disk: every weight reads as zero. Or, for checking values (a split run
// against the whole model), random weights of the scale a trained model has.
#pragma once

#include <cstdint>
#include <filesystem>
#include <onnx/onnx_pb.h>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace cleave::modelgen {

void set_attribute(onnx::NodeProto& node, const std::string& name, std::int64_t value);
void set_attribute(onnx::NodeProto& node, const std::string& name, float value);
void set_attribute(onnx::NodeProto& node, const std::string& name,
                   const std::vector<std::int64_t>& values);

// The IEEE half-precision bits of `value` (rounded to nearest, subnormals kept).
std::uint16_t to_half(float value);

// Random bytes for weight `t` (its dims and type; the bytes it takes), from `random`: float weights
// uniform with the variance 1/fan-in of a trained layer (the first dim of a MatMul's [in, out]),
// norm scales (1-D, named "...norm...") 1 +- 0.1, other 1-D ones +- 0.1; uint8 (4-bit blocks) any
// byte, and MatMulNBits scales (named ".scales", either sign) so that a dequantised weight has
// that variance.
std::string random_weight_values(const onnx::TensorProto& t, std::uint64_t seed);

class LlmGraph {
public:
    // `float_type`: onnx::TensorProto::FLOAT or FLOAT16, the type of weights and activations.
    // Opset 17 of the default domain, and com.microsoft 1 when `contrib` is set.
    LlmGraph(const std::string& name, int float_type, bool contrib = false);

    int float_type() const { return float_type_; }

    // A dim of digits is fixed; any other is its dim_param.
    void input(const std::string& name, int elem_type, const std::vector<std::string>& dims);
    void output(const std::string& name, int elem_type, const std::vector<std::string>& dims);

    // A node at `path` ("/model/layers.0/mlp/gate_proj"): named path + "/" + op, its outputs
    // name + "_output_N" as torch.onnx writes them (name + "/output_N" in a `contrib` graph, as
    // ONNX Runtime GenAI's model builder writes them). Empty input names stand for omitted optional
    // inputs. A name taken already gets "_1", "_2", ... as PyTorch's exporter numbers them.
    onnx::NodeProto& node(const std::string& op, const std::string& path,
                          const std::vector<std::string>& inputs, int outputs = 1,
                          const std::string& domain = "") {
        return named(op, path + "/" + op, inputs, outputs, domain);
    }
    // The same, named `name` (made unique likewise).
    onnx::NodeProto& named(const std::string& op, const std::string& name,
                           const std::vector<std::string>& inputs, int outputs = 1,
                           const std::string& domain = "");
    // The first output of `node`'s last node, for chaining.
    std::string add(const std::string& op, const std::string& path,
                    const std::vector<std::string>& inputs, const std::string& domain = "") {
        return node(op, path, inputs, 1, domain).output(0);
    }
    // Renames an output of a node (a graph output takes its name: "logits", "present.0.key").
    void rename(const std::string& from, const std::string& to);

    // A weight in the external data file, of `elem_type` (the float type when 0).
    std::string weight(const std::string& name, const std::vector<std::int64_t>& dims,
                       int elem_type = 0);
    // int64 values held in the model: a 1-D list, or a scalar when `scalar`.
    std::string ints(const std::string& name, const std::vector<std::int64_t>& values,
                     bool scalar = false);
    // A float scalar held in the model, of the float type.
    std::string scalar(const std::string& name, float value);

    void metadata(const std::string& key, const std::string& value);

    std::uint64_t data_bytes() const { return data_bytes_; }
    const onnx::ModelProto& model() const { return model_; }

    // Writes `folder`/`file` and its data file `file` + ".data": sized and sparse (every weight
    // zero), or, given `random_seed`, every weight drawn from it (random_weight_values).
    void save(const std::filesystem::path& folder, const std::string& file,
              std::optional<std::uint64_t> random_seed = std::nullopt);

private:
    std::string unique(const std::string& name);

    onnx::ModelProto model_;
    int float_type_;
    std::string output_suffix_;
    std::uint64_t data_bytes_ = 0;
    std::vector<onnx::TensorProto*> external_;
    std::unordered_set<std::string> used_;
};

} // namespace cleave::modelgen
