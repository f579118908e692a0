#!/usr/bin/python3
"""Writes two Llama-style decoders with a KV cache, by hand with python3-onnx and independently of
Cleave's generator, as the exporters people use write them:

- llama_fp32.onnx: Hugging Face Optimum's form, default-domain opset 17 ops (RMSNorm decomposed,
  rotary embedding by rotate-half, grouped KV heads repeated by Expand, causal mask by Trilu);
- llama_int4.onnx: ONNX Runtime GenAI's form, com.microsoft MatMulNBits (4 bits, block 32),
  GroupQueryAttention with rotary, SimplifiedLayerNormalization and
  SkipSimplifiedLayerNormalization.

Shapes (printed as JSON for the test to work out its analytic MACs): hidden D, heads H, KV heads,
head dim HD (H x HD = D), MLP width F, vocabulary V, LAYERS layers.
Usage: write_llama_decoders.py OUT_DIR
"""
import json
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

D, H, KV, HD, F, V, LAYERS, MAX_POSITIONS = 64, 4, 2, 16, 128, 96, 2, 4096
BLOCK = 32
rng = np.random.default_rng(7)


def weight(name, shape, inits):
    inits.append(numpy_helper.from_array((rng.standard_normal(shape) * 0.02).astype(np.float32), name))
    return name


def const(name, values, inits, dtype=np.int64):
    inits.append(numpy_helper.from_array(np.array(values, dtype=dtype), name))
    return name


def rope_caches(inits, half):
    inv = 1.0 / (10000.0 ** (np.arange(0, half) / half))
    angles = np.outer(np.arange(MAX_POSITIONS), inv)
    const("cos_cache", np.cos(angles), inits, np.float32)
    const("sin_cache", np.sin(angles), inits, np.float32)


def optimum_inputs(graph_inputs, past_dim="past_sequence_length"):
    graph_inputs += [
        helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch_size", "sequence_length"]),
        helper.make_tensor_value_info("attention_mask", TensorProto.INT64,
                                      ["batch_size", "past_sequence_length + sequence_length"]),
    ]
    for layer in range(LAYERS):
        for kind in ("key", "value"):
            graph_inputs.append(helper.make_tensor_value_info(
                f"past_key_values.{layer}.{kind}", TensorProto.FLOAT, ["batch_size", KV, past_dim, HD]))


def present_outputs(outputs):
    outputs.append(helper.make_tensor_value_info("logits", TensorProto.FLOAT,
                                                 ["batch_size", "sequence_length", V]))
    for layer in range(LAYERS):
        for kind in ("key", "value"):
            outputs.append(helper.make_tensor_value_info(
                f"present.{layer}.{kind}", TensorProto.FLOAT,
                ["batch_size", KV, "past_sequence_length + sequence_length", HD]))


def fp32_model():
    nodes, inits, inputs, outputs = [], [], [], []
    optimum_inputs(inputs)
    inputs.insert(2, helper.make_tensor_value_info("position_ids", TensorProto.INT64,
                                                   ["batch_size", "sequence_length"]))
    present_outputs(outputs)
    n = nodes.append
    weight("embed", [V, D], inits)
    const("eps", np.float32(1e-5), inits, np.float32)
    const("two", np.float32(2.0), inits, np.float32)
    const("one_f", np.float32(1.0), inits, np.float32)
    const("big", np.float32(-1e9), inits, np.float32)
    const("scale", np.float32(1.0 / np.sqrt(HD)), inits, np.float32)
    const("heads_q", [0, 0, H, HD], inits)
    const("heads_kv", [0, 0, KV, HD], inits)
    const("merge", [0, 0, D], inits)
    const("repeat", [1, 1, H // KV, 1, 1], inits)
    const("grouped", [0, H, -1, HD], inits)
    const("ax1", [1], inits)
    const("ax2", [2], inits)
    const("ax12", [1, 2], inits)
    const("half_lo", [0], inits)
    const("half_mid", [HD // 2], inits)
    const("half_hi", [HD], inits)
    const("last", [3], inits)
    rope_caches(inits, HD // 2)
    # cos/sin tables of width HD, as transformers builds them: the half-width angles twice.
    n(helper.make_node("Concat", ["cos_cache", "cos_cache"], ["cos_full"], axis=1))
    n(helper.make_node("Concat", ["sin_cache", "sin_cache"], ["sin_full"], axis=1))
    n(helper.make_node("Gather", ["cos_full", "position_ids"], ["cos_bs"]))
    n(helper.make_node("Gather", ["sin_full", "position_ids"], ["sin_bs"]))
    n(helper.make_node("Unsqueeze", ["cos_bs", "ax1"], ["cos"]))
    n(helper.make_node("Unsqueeze", ["sin_bs", "ax1"], ["sin"]))
    n(helper.make_node("Gather", ["embed", "input_ids"], ["h0"]))
    # Padding mask [B, 1, 1, T] and causal mask [S, T] from the shapes: -1e9 where not attended.
    n(helper.make_node("Cast", ["attention_mask"], ["mask_f"], to=TensorProto.FLOAT))
    n(helper.make_node("Sub", ["one_f", "mask_f"], ["mask_off"]))
    n(helper.make_node("Mul", ["mask_off", "big"], ["mask_add"]))
    n(helper.make_node("Unsqueeze", ["mask_add", "ax12"], ["pad_bias"]))
    n(helper.make_node("Shape", ["input_ids"], ["ids_shape"]))
    n(helper.make_node("Shape", ["attention_mask"], ["mask_shape"]))
    n(helper.make_node("Slice", ["ids_shape", "ax1", "ax2"], ["s_len"]))
    n(helper.make_node("Slice", ["mask_shape", "ax1", "ax2"], ["t_len"]))
    n(helper.make_node("Concat", ["s_len", "t_len"], ["st"], axis=0))
    n(helper.make_node("ConstantOfShape", ["st"], ["ones_st"],
                       value=helper.make_tensor("v", TensorProto.FLOAT, [1], [1.0])))
    n(helper.make_node("Sub", ["t_len", "s_len"], ["past_len1"]))
    n(helper.make_node("Squeeze", ["past_len1"], ["past_len"]))
    n(helper.make_node("Trilu", ["ones_st", "past_len"], ["allowed"], upper=0))
    n(helper.make_node("Sub", ["allowed", "one_f"], ["blocked"]))
    n(helper.make_node("Mul", ["blocked", "big"], ["causal_neg"]))
    n(helper.make_node("Neg", ["causal_neg"], ["causal_bias"]))  # 0 or -1e9
    n(helper.make_node("Add", ["causal_bias", "pad_bias"], ["attn_bias"]))

    def rms_norm(x, name):
        w = weight(name + ".weight", [D], inits)
        n(helper.make_node("Pow", [x, "two"], [name + "_sq"]))
        n(helper.make_node("ReduceMean", [name + "_sq"], [name + "_var"], axes=[-1], keepdims=1))
        n(helper.make_node("Add", [name + "_var", "eps"], [name + "_vareps"]))
        n(helper.make_node("Sqrt", [name + "_vareps"], [name + "_std"]))
        n(helper.make_node("Div", [x, name + "_std"], [name + "_normed"]))
        n(helper.make_node("Mul", [name + "_normed", w], [name + "_out"]))
        return name + "_out"

    def rotary(x, name):
        n(helper.make_node("Slice", [x, "half_lo", "half_mid", "last"], [name + "_x1"]))
        n(helper.make_node("Slice", [x, "half_mid", "half_hi", "last"], [name + "_x2"]))
        n(helper.make_node("Neg", [name + "_x2"], [name + "_nx2"]))
        n(helper.make_node("Concat", [name + "_nx2", name + "_x1"], [name + "_rot"], axis=-1))
        n(helper.make_node("Mul", [x, "cos"], [name + "_c"]))
        n(helper.make_node("Mul", [name + "_rot", "sin"], [name + "_s"]))
        n(helper.make_node("Add", [name + "_c", name + "_s"], [name + "_out"]))
        return name + "_out"

    def heads(x, shape, name):
        n(helper.make_node("Reshape", [x, shape], [name + "_r"]))
        n(helper.make_node("Transpose", [name + "_r"], [name + "_t"], perm=[0, 2, 1, 3]))
        return name + "_t"

    def repeat_kv(x, name):
        n(helper.make_node("Unsqueeze", [x, "ax2"], [name + "_u"]))
        n(helper.make_node("Expand", [name + "_u", "repeat"], [name + "_e"]))
        n(helper.make_node("Reshape", [name + "_e", "grouped"], [name + "_g"]))
        return name + "_g"

    h = "h0"
    for layer in range(LAYERS):
        p = f"layers.{layer}"
        x = rms_norm(h, p + ".input_layernorm")
        for proj, width in (("q", D), ("k", KV * HD), ("v", KV * HD)):
            n(helper.make_node("MatMul", [x, weight(f"{p}.{proj}_proj", [D, width], inits)], [f"{p}_{proj}"]))
        q = rotary(heads(p + "_q", "heads_q", p + "_qh"), p + "_qr")
        k = rotary(heads(p + "_k", "heads_kv", p + "_kh"), p + "_kr")
        v = heads(p + "_v", "heads_kv", p + "_vh")
        n(helper.make_node("Concat", [f"past_key_values.{layer}.key", k], [f"present.{layer}.key"], axis=2))
        n(helper.make_node("Concat", [f"past_key_values.{layer}.value", v], [f"present.{layer}.value"], axis=2))
        kr = repeat_kv(f"present.{layer}.key", p + "_krep")
        vr = repeat_kv(f"present.{layer}.value", p + "_vrep")
        n(helper.make_node("Transpose", [kr], [p + "_kt"], perm=[0, 1, 3, 2]))
        n(helper.make_node("MatMul", [q, p + "_kt"], [p + "_scores"]))
        n(helper.make_node("Mul", [p + "_scores", "scale"], [p + "_scaled"]))
        n(helper.make_node("Add", [p + "_scaled", "attn_bias"], [p + "_masked"]))
        n(helper.make_node("Softmax", [p + "_masked"], [p + "_probs"], axis=-1))
        n(helper.make_node("MatMul", [p + "_probs", vr], [p + "_ctx"]))
        n(helper.make_node("Transpose", [p + "_ctx"], [p + "_ctx_t"], perm=[0, 2, 1, 3]))
        n(helper.make_node("Reshape", [p + "_ctx_t", "merge"], [p + "_merged"]))
        n(helper.make_node("MatMul", [p + "_merged", weight(p + ".o_proj", [D, D], inits)], [p + "_o"]))
        n(helper.make_node("Add", [h, p + "_o"], [p + "_res1"]))
        x = rms_norm(p + "_res1", p + ".post_attention_layernorm")
        n(helper.make_node("MatMul", [x, weight(p + ".gate_proj", [D, F], inits)], [p + "_gate"]))
        n(helper.make_node("MatMul", [x, weight(p + ".up_proj", [D, F], inits)], [p + "_up"]))
        n(helper.make_node("Sigmoid", [p + "_gate"], [p + "_sig"]))
        n(helper.make_node("Mul", [p + "_gate", p + "_sig"], [p + "_silu"]))
        n(helper.make_node("Mul", [p + "_silu", p + "_up"], [p + "_act"]))
        n(helper.make_node("MatMul", [p + "_act", weight(p + ".down_proj", [F, D], inits)], [p + "_down"]))
        n(helper.make_node("Add", [p + "_res1", p + "_down"], [f"h{layer + 1}"]))
        h = f"h{layer + 1}"
    x = rms_norm(h, "norm")
    n(helper.make_node("MatMul", [x, weight("lm_head", [D, V], inits)], ["logits"]))
    graph = helper.make_graph(nodes, "llama_fp32", inputs, outputs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="hand")


def matmul_nbits(nodes, inits, x, k, n_out, name, out):
    blocks = (k + BLOCK - 1) // BLOCK
    packed = rng.integers(0, 256, size=(n_out, blocks, BLOCK // 2), dtype=np.uint8)
    inits.append(numpy_helper.from_array(packed, name + ".qweight"))
    scales = (rng.random(n_out * blocks) * 0.01).astype(np.float32)
    inits.append(numpy_helper.from_array(scales, name + ".scales"))
    nodes.append(helper.make_node("MatMulNBits", [x, name + ".qweight", name + ".scales"], [out],
                                  domain="com.microsoft", K=k, N=n_out, bits=4, block_size=BLOCK,
                                  accuracy_level=4))


def int4_model():
    nodes, inits, inputs, outputs = [], [], [], []
    optimum_inputs(inputs)
    present_outputs(outputs)
    n = nodes.append
    weight("embed", [V, D], inits)
    rope_caches(inits, HD // 2)
    const("one", [1], inits)
    const("ax1", [1], inits)
    # GroupQueryAttention's lengths from the mask: seqlens_k = sum(mask) - 1, total = mask's width.
    n(helper.make_node("ReduceSum", ["attention_mask", "ax1"], ["mask_sum"], keepdims=0))
    n(helper.make_node("Sub", ["mask_sum", "one"], ["seqlens_64"]))
    n(helper.make_node("Cast", ["seqlens_64"], ["seqlens_k"], to=TensorProto.INT32))
    n(helper.make_node("Shape", ["attention_mask"], ["mask_shape"]))
    n(helper.make_node("Gather", ["mask_shape", const("width_index", 1, inits)], ["total_64"], axis=0))
    n(helper.make_node("Cast", ["total_64"], ["total_len"], to=TensorProto.INT32))
    n(helper.make_node("Gather", ["embed", "input_ids"], ["h0"]))
    residual, normed = None, None
    for layer in range(LAYERS):
        p = f"layers.{layer}"
        w_in = weight(p + ".input_layernorm.weight", [D], inits)
        if residual is None:
            n(helper.make_node("SimplifiedLayerNormalization", ["h0", w_in], [p + "_in"], axis=-1, epsilon=1e-5))
            residual = "h0"
        else:
            n(helper.make_node("SkipSimplifiedLayerNormalization", [normed, residual, w_in],
                               [p + "_in", "", "", p + "_sum_in"], domain="com.microsoft", epsilon=1e-5))
            residual = p + "_sum_in"
        matmul_nbits(nodes, inits, p + "_in", D, D, p + ".q_proj", p + "_q")
        matmul_nbits(nodes, inits, p + "_in", D, KV * HD, p + ".k_proj", p + "_k")
        matmul_nbits(nodes, inits, p + "_in", D, KV * HD, p + ".v_proj", p + "_v")
        n(helper.make_node("GroupQueryAttention",
                           [p + "_q", p + "_k", p + "_v", f"past_key_values.{layer}.key",
                            f"past_key_values.{layer}.value", "seqlens_k", "total_len", "cos_cache", "sin_cache"],
                           [p + "_attn", f"present.{layer}.key", f"present.{layer}.value"],
                           domain="com.microsoft", num_heads=H, kv_num_heads=KV, do_rotary=1,
                           rotary_interleaved=0, scale=float(1.0 / np.sqrt(HD))))
        matmul_nbits(nodes, inits, p + "_attn", D, D, p + ".o_proj", p + "_o")
        w_post = weight(p + ".post_attention_layernorm.weight", [D], inits)
        n(helper.make_node("SkipSimplifiedLayerNormalization", [p + "_o", residual, w_post],
                           [p + "_post", "", "", p + "_sum_post"], domain="com.microsoft", epsilon=1e-5))
        residual = p + "_sum_post"
        matmul_nbits(nodes, inits, p + "_post", D, F, p + ".gate_proj", p + "_gate")
        matmul_nbits(nodes, inits, p + "_post", D, F, p + ".up_proj", p + "_up")
        n(helper.make_node("Sigmoid", [p + "_gate"], [p + "_sig"]))
        n(helper.make_node("Mul", [p + "_gate", p + "_sig"], [p + "_silu"]))
        n(helper.make_node("Mul", [p + "_silu", p + "_up"], [p + "_act"]))
        matmul_nbits(nodes, inits, p + "_act", F, D, p + ".down_proj", p + "_down")
        normed = p + "_down"
    w_final = weight("norm.weight", [D], inits)
    n(helper.make_node("SkipSimplifiedLayerNormalization", [normed, residual, w_final],
                       ["final", "", "", "final_sum"], domain="com.microsoft", epsilon=1e-5))
    matmul_nbits(nodes, inits, "final", D, V, "lm_head", "logits")
    graph = helper.make_graph(nodes, "llama_int4", inputs, outputs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17),
                                                   helper.make_opsetid("com.microsoft", 1)],
                             producer_name="hand")


def named(model):
    """Every node named, as exporters name them ("/model/layers.0/.../MatMul")."""
    for index, node in enumerate(model.graph.node):
        node.name = f"/{node.output[0].split('.')[0]}/{node.op_type}_{index}"
    return model


if __name__ == "__main__":
    out = sys.argv[1]
    onnx.save(named(fp32_model()), f"{out}/llama_fp32.onnx")
    onnx.save(named(int4_model()), f"{out}/llama_int4.onnx")
    print(json.dumps({"D": D, "H": H, "KV": KV, "HD": HD, "F": F, "V": V, "layers": LAYERS}))
