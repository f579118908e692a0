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
    // opset 17, one float input named "input" of `input_shape`. Without weights, initializers
    // carry their dims but no values: a network is sized (macs(), parameters()) before it is
    // written, at no cost.
    NetBuilder(std::string model_name, std::vector<std::int64_t> input_shape, std::uint64_t seed,
               bool with_weights = true);

    const Tensor& input() const { return input_; }
    // Multiply-accumulates of the convolutions and matrix products added so far, and the float
    // values of the initializers.
    std::int64_t macs() const { return macs_; }
    std::int64_t parameters() const { return parameters_; }

    // Scopes name the nodes: push("stage1"), push("block0") -> "/stage1/block0/...".
    void push(const std::string& scope) { scopes_.push_back(scope); }
    void pop() { scopes_.pop_back(); }

    // `sparsity`: the fraction of weights set to zero (at random positions). `pad` < 0: kernel / 2
    // on every side (0 for a patch embedding's k x k, stride k).
    Tensor conv(const Tensor& x, std::int64_t out_channels, std::int64_t kernel,
                std::int64_t stride = 1, std::int64_t groups = 1, bool bias = true,
                double sparsity = 0, const std::string& name = "conv", std::int64_t pad = -1);
    Tensor batch_norm(const Tensor& x, const std::string& name = "bn");
    // Relu, Relu6 (Clip 0..6), Sigmoid, Tanh, HardSigmoid, HardSwish, LeakyRelu, Elu, Silu
    // (Sigmoid then Mul, as exporters write it), Gelu (the Erf form exporters write); also Sqrt.
    Tensor activation(const Tensor& x, const std::string& kind, const std::string& name = "act");
    // Add and Mul broadcast as numpy does ([1, C, 1, 1] x [1, C, H, W] -> [1, C, H, W]).
    Tensor add(const Tensor& a, const Tensor& b, const std::string& name = "add");
    Tensor mul(const Tensor& a, const Tensor& b, const std::string& name = "mul");
    Tensor sub(const Tensor& a, const Tensor& b, const std::string& name = "sub");
    Tensor div(const Tensor& a, const Tensor& b, const std::string& name = "div");
    // x Mul, Div, Add or Pow a scalar constant (attention's scale, a variance's epsilon, a square).
    Tensor scale(const Tensor& x, float value, const std::string& op = "Mul",
                 const std::string& name = "");
    Tensor concat(const std::vector<Tensor>& parts, const std::string& name = "concat",
                  std::int64_t axis = 1);
    Tensor max_pool(const Tensor& x, std::int64_t kernel, std::int64_t stride, std::int64_t pad = 0,
                    const std::string& name = "maxpool");
    // `pad` > 0 counts the padding in the average, as PyTorch's AvgPool2d does by default.
    Tensor avg_pool(const Tensor& x, std::int64_t kernel, std::int64_t stride, std::int64_t pad = 0,
                    const std::string& name = "avgpool");
    Tensor global_avg_pool(const Tensor& x, const std::string& name = "pool");
    Tensor flatten(const Tensor& x, const std::string& name = "flatten");
    // x [N, K] -> [N, out] (Gemm with bias).
    Tensor gemm(const Tensor& x, std::int64_t out, const std::string& name = "fc");
    // x [..., K] x W [K, out] (+ bias: an Add, as exporters write a Linear on 3-D input).
    Tensor matmul(const Tensor& x, std::int64_t out, bool bias = true,
                  const std::string& name = "linear");
    // a [..., M, K] x b [..., K, N], both computed (attention's Q K^T and its product with V).
    Tensor matmul(const Tensor& a, const Tensor& b, const std::string& name = "");
    // The same product as an Einsum over equal batch dims, as PyTorch exports torch.einsum:
    // a [..., M, K] x b [..., K, N], or with `b_transposed` b [..., N, K] ("B G H I D, B G H J D
    // -> B G H I J", MaxViT's attention scores).
    Tensor einsum_product(const Tensor& a, const Tensor& b, bool b_transposed,
                          const std::string& name = "");
    Tensor softmax(const Tensor& x, const std::string& name = "softmax");
    // LayerNormalization (opset 17) over the last dim, scale 1 and bias 0.
    Tensor layer_norm(const Tensor& x, float epsilon = 1e-5f, const std::string& name = "ln");
    // The same as exporters write it below opset 17: ReduceMean, Sub, Pow, ReduceMean, Add,
    // Sqrt, Div, then Mul by the weight and Add of the bias.
    Tensor layer_norm_decomposed(const Tensor& x, float epsilon = 1e-5f,
                                 const std::string& name = "ln");

    // Shape and layout, the int64 operands as initializers. `shape` may hold one -1.
    Tensor reshape(const Tensor& x, std::vector<std::int64_t> shape, const std::string& name = "");
    Tensor transpose(const Tensor& x, const std::vector<std::int64_t>& perm,
                     const std::string& name = "");
    Tensor slice(const Tensor& x, std::int64_t axis, std::int64_t start, std::int64_t end,
                 const std::string& name = "");
    std::vector<Tensor> split(const Tensor& x, std::int64_t axis,
                              const std::vector<std::int64_t>& sizes, const std::string& name = "");
    Tensor squeeze(const Tensor& x, std::int64_t axis, const std::string& name = "");
    Tensor unsqueeze(const Tensor& x, std::int64_t axis, const std::string& name = "");
    // One index along `axis`, which goes away (Gather with a scalar index).
    Tensor gather(const Tensor& x, std::int64_t axis, std::int64_t index,
                  const std::string& name = "");
    Tensor reduce_mean(const Tensor& x, const std::vector<std::int64_t>& axes, bool keep_dims,
                       const std::string& name = "");
    // A learned tensor used as an activation (a class token, a position embedding), uniform in
    // [-scale, scale].
    Tensor parameter(const std::string& name, const std::vector<std::int64_t>& dims, double scale);

    // Marks the graph output ("output"); call once, last.
    void output(const Tensor& x);

    const onnx::ModelProto& model() const { return model_; }
    // Written atomically (a temporary file, then renamed).
    void save(const std::filesystem::path& path) const;

private:
    Tensor binary(const std::string& op, const Tensor& a, const Tensor& b, const std::string& name);
    std::string scoped(const std::string& name) const;
    onnx::NodeProto& node(const std::string& op, const std::string& name,
                          const std::vector<std::string>& inputs, std::string& output);
    std::string weight(const std::string& name, const std::vector<std::int64_t>& dims, double scale,
                       double sparsity = 0);
    std::string constant(const std::string& name, const std::vector<float>& values);
    // An int64 initializer: a 1-D list, or a scalar when `scalar`.
    std::string int64s(const std::string& name, const std::vector<std::int64_t>& values,
                       bool scalar = false);
    std::string unique(const std::string& name);

    onnx::ModelProto model_;
    Tensor input_;
    std::vector<std::string> scopes_;
    std::unordered_set<std::string> used_names_;
    std::mt19937_64 random_;
    bool with_weights_;
    std::int64_t macs_ = 0;
    std::int64_t parameters_ = 0;
};

} // namespace cleave::modelgen
