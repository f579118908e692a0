// Writes ONNX networks layer by layer, for the benchmark suite and the simulation models
// (docs/model-generation.md): every layer knows its output shape, weights are deterministic
// pseudo-random values (He-scaled, so activations stay finite when the models run), and nodes
// are named as PyTorch's exporter names them ("/stage1/block0/conv1/Conv", output
// "/stage1/block0/conv1/Conv_output_0").
#pragma once

#include <cstdint>
#include <filesystem>
#include <onnx/onnx_pb.h>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

namespace cleave::modelgen {

struct Tensor {
    std::string name;
    std::vector<std::int64_t> shape; // NCHW for images, [N, rows, features] for sequences
    std::int64_t channels() const { return shape.at(1); }
};

class NetBuilder {
public:
    // opset 17, one float input named "input" of `input_shape`.
    NetBuilder(std::string model_name, std::vector<std::int64_t> input_shape, std::uint64_t seed);

    const Tensor& input() const { return input_; }

    // Scopes name the nodes: push("stage1"), push("block0") -> "/stage1/block0/...".
    void push(const std::string& scope) { scopes_.push_back(scope); }
    void pop() { scopes_.pop_back(); }

    // `sparsity`: the fraction of weights set to zero (at random positions).
    Tensor conv(const Tensor& x, std::int64_t out_channels, std::int64_t kernel,
                std::int64_t stride = 1, std::int64_t groups = 1, bool bias = true,
                double sparsity = 0, const std::string& name = "conv");
    Tensor batch_norm(const Tensor& x, const std::string& name = "bn");
    // Relu, Relu6 (Clip 0..6), Sigmoid, Tanh, HardSigmoid, HardSwish, LeakyRelu, Elu, Silu
    // (Sigmoid then Mul, as exporters write it), Gelu (the Erf form exporters write).
    Tensor activation(const Tensor& x, const std::string& kind, const std::string& name = "act");
    Tensor add(const Tensor& a, const Tensor& b, const std::string& name = "add");
    Tensor mul(const Tensor& a, const Tensor& b, const std::string& name = "mul");
    Tensor concat(const std::vector<Tensor>& parts, const std::string& name = "concat");
    Tensor max_pool(const Tensor& x, std::int64_t kernel, std::int64_t stride, std::int64_t pad = 0,
                    const std::string& name = "maxpool");
    Tensor avg_pool(const Tensor& x, std::int64_t kernel, std::int64_t stride,
                    const std::string& name = "avgpool");
    Tensor global_avg_pool(const Tensor& x, const std::string& name = "pool");
    Tensor flatten(const Tensor& x, const std::string& name = "flatten");
    // x [N, K] -> [N, out] (Gemm with bias).
    Tensor gemm(const Tensor& x, std::int64_t out, const std::string& name = "fc");
    // x [..., K] x W [K, out] (+ bias: an Add, as exporters write a Linear on 3-D input).
    Tensor matmul(const Tensor& x, std::int64_t out, bool bias = true,
                  const std::string& name = "linear");
    Tensor softmax(const Tensor& x, const std::string& name = "softmax");

    // Marks the graph output ("output"); call once, last.
    void output(const Tensor& x);

    const onnx::ModelProto& model() const { return model_; }
    // Written atomically (a temporary file, then renamed).
    void save(const std::filesystem::path& path) const;

private:
    std::string scoped(const std::string& name) const;
    onnx::NodeProto& node(const std::string& op, const std::string& name,
                          const std::vector<std::string>& inputs, std::string& output);
    std::string weight(const std::string& name, const std::vector<std::int64_t>& dims, double scale,
                       double sparsity = 0);
    std::string constant(const std::string& name, const std::vector<float>& values);
    std::string unique(const std::string& name);

    onnx::ModelProto model_;
    Tensor input_;
    std::vector<std::string> scopes_;
    std::unordered_set<std::string> used_names_;
    std::mt19937_64 random_;
};

} // namespace cleave::modelgen
