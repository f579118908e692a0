#include "newer_op_schemas.hpp"

#include "newer_shape_rules.hpp"

#include <map>
#include <string_view>
#include <vector>

namespace cleave::graph {

namespace {

using onnx::AttributeProto;
using onnx::OpSchema;
namespace rules = shape_rules;

struct AttributeSpec {
    const char* name;
    AttributeProto::AttributeType type;
    bool required = false;
};

constexpr auto kInt = AttributeProto::INT;
constexpr auto kInts = AttributeProto::INTS;
constexpr auto kFloat = AttributeProto::FLOAT;
constexpr auto kString = AttributeProto::STRING;

// An op version's signature: inputs ("name?" optional, "name..." variadic), outputs the same,
// attributes. The importer checks a node's inputs, outputs and attributes against it, not its
// element types (float8 and int4 are types libonnx 1.12 cannot name), so every input and output
// is typed "T", any tensor type.
OpSchema signature(const char* op, int since, std::vector<std::string_view> inputs,
                   std::vector<std::string_view> outputs, std::vector<AttributeSpec> attributes,
                   onnx::InferenceFunction infer) {
    OpSchema schema;
    schema.SetName(op).SetDomain("").SinceVersion(since);
    const auto add = [&schema](bool input, int index, std::string_view name) {
        auto option = OpSchema::Single;
        if (name.ends_with("?")) {
            option = OpSchema::Optional;
            name.remove_suffix(1);
        } else if (name.ends_with("...")) {
            option = OpSchema::Variadic;
            name.remove_suffix(3);
        }
        if (input)
            schema.Input(index, std::string(name), "", "T", option);
        else
            schema.Output(index, std::string(name), "", "T", option);
    };
    for (std::size_t i = 0; i < inputs.size(); ++i)
        add(true, static_cast<int>(i), inputs[i]);
    for (std::size_t i = 0; i < outputs.size(); ++i)
        add(false, static_cast<int>(i), outputs[i]);
    for (const auto& a : attributes)
        schema.Attr(a.name, "", a.type, a.required);
    schema.TypeConstraint("T", OpSchema::all_tensor_types_with_bfloat(), "");
    schema.TypeAndShapeInferenceFunction(std::move(infer));
    schema.Finalize();
    return schema;
}

// libonnx's inference function of an op version whose rule still holds for a newer signature.
onnx::InferenceFunction libonnx_rule(const char* op, int version) {
    const auto* schema = onnx::OpSchemaRegistry::Schema(op, version, "");
    return schema ? schema->GetTypeAndShapeInferenceFunction() : onnx::InferenceFunction{};
}

void add_reductions(std::vector<OpSchema>& schemas) {
    // Opset 18 moved axes from an attribute to an optional input: ReduceSum-13's signature,
    // whose libonnx rule reads the axes input. ReduceMax and ReduceMin 20 only add bool.
    for (const char* op : {"ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax",
                           "ReduceMean", "ReduceMin", "ReduceProd", "ReduceSumSquare"})
        schemas.push_back(signature(op, 18, {"data", "axes?"}, {"reduced"},
                                    {{"keepdims", kInt}, {"noop_with_empty_axes", kInt}},
                                    libonnx_rule("ReduceSum", 13)));
}

void add_tensor_ops(std::vector<OpSchema>& schemas) {
    schemas.push_back(signature("Split", 18, {"input", "split?"}, {"outputs..."},
                                {{"axis", kInt}, {"num_outputs", kInt}}, rules::infer_split_18));
    for (const int since : {18, 19, 21}) // 18: axes; 19: mode "wrap"; 21: int4 types
        schemas.push_back(signature("Pad", since, {"data", "pads", "constant_value?", "axes?"},
                                    {"output"}, {{"mode", kString}}, rules::infer_pad_18));
    for (const int since : {18, 19}) // 19: coordinate mode "half_pixel_symmetric"
        schemas.push_back(signature("Resize", since, {"X", "roi?", "scales?", "sizes?"}, {"Y"},
                                    {{"antialias", kInt},
                                     {"axes", kInts},
                                     {"coordinate_transformation_mode", kString},
                                     {"cubic_coeff_a", kFloat},
                                     {"exclude_outside", kInt},
                                     {"extrapolation_value", kFloat},
                                     {"keep_aspect_ratio_policy", kString},
                                     {"mode", kString},
                                     {"nearest_mode", kString}},
                                    rules::infer_resize_18));
    schemas.push_back(signature("CenterCropPad", 18, {"input_data", "shape"}, {"output_data"},
                                {{"axes", kInts}}, rules::infer_center_crop_pad_18));
    schemas.push_back(signature("Col2Im", 18, {"input", "image_shape", "block_shape"}, {"output"},
                                {{"dilations", kInts}, {"pads", kInts}, {"strides", kInts}},
                                rules::infer_col2im_18));
    schemas.push_back(signature("AffineGrid", 20, {"theta", "size"}, {"grid"},
                                {{"align_corners", kInt}}, rules::infer_affine_grid_20));
    schemas.push_back(
        signature("GridSample", 20, {"X", "grid"}, {"Y"},
                  {{"align_corners", kInt}, {"mode", kString}, {"padding_mode", kString}},
                  rules::infer_grid_sample_20));
    schemas.push_back(signature("DFT", 20, {"input", "dft_length?", "axis?"}, {"output"},
                                {{"inverse", kInt}, {"onesided", kInt}}, rules::infer_dft_20));
    for (const int since : {19, 21}) { // 19: saturate; 21: int4 types
        schemas.push_back(signature("Cast", since, {"input"}, {"output"},
                                    {{"saturate", kInt}, {"to", kInt, true}},
                                    rules::infer_cast_19));
        schemas.push_back(signature("CastLike", since, {"input", "target_type"}, {"output"},
                                    {{"saturate", kInt}}, libonnx_rule("CastLike", 15)));
    }
}

void add_nn_ops(std::vector<OpSchema>& schemas) {
    schemas.push_back(signature("LpPool", 18, {"X"}, {"Y"},
                                {{"auto_pad", kString},
                                 {"ceil_mode", kInt},
                                 {"dilations", kInts},
                                 {"kernel_shape", kInts, true},
                                 {"p", kInt},
                                 {"pads", kInts},
                                 {"strides", kInts}},
                                rules::infer_pool_18));
    schemas.push_back(signature("AveragePool", 19, {"X"}, {"Y"},
                                {{"auto_pad", kString},
                                 {"ceil_mode", kInt},
                                 {"count_include_pad", kInt},
                                 {"dilations", kInts},
                                 {"kernel_shape", kInts, true},
                                 {"pads", kInts},
                                 {"strides", kInts}},
                                rules::infer_pool_18));
    schemas.push_back(signature("DeformConv", 19, {"X", "W", "offset", "B?", "mask?"}, {"Y"},
                                {{"dilations", kInts},
                                 {"group", kInt},
                                 {"kernel_shape", kInts},
                                 {"offset_group", kInt},
                                 {"pads", kInts},
                                 {"strides", kInts}},
                                rules::infer_deform_conv_19));
    schemas.push_back(signature("GroupNormalization", 18, {"X", "scale", "bias"}, {"Y"},
                                {{"epsilon", kFloat}, {"num_groups", kInt, true}},
                                rules::infer_same_shape));
    schemas.push_back(
        signature("GroupNormalization", 21, {"X", "scale", "bias"}, {"Y"},
                  {{"epsilon", kFloat}, {"num_groups", kInt, true}, {"stash_type", kInt}},
                  rules::infer_same_shape));
    schemas.push_back(
        signature("Gelu", 20, {"X"}, {"Y"}, {{"approximate", kString}}, rules::infer_same_shape));
    schemas.push_back(signature("Mish", 18, {"X"}, {"Y"}, {}, rules::infer_same_shape));
}

void add_quantization(std::vector<OpSchema>& schemas) {
    schemas.push_back(signature("QuantizeLinear", 19, {"x", "y_scale", "y_zero_point?"}, {"y"},
                                {{"axis", kInt}, {"saturate", kInt}},
                                rules::infer_quantize_linear_19));
    schemas.push_back(signature(
        "QuantizeLinear", 21, {"x", "y_scale", "y_zero_point?"}, {"y"},
        {{"axis", kInt}, {"block_size", kInt}, {"output_dtype", kInt}, {"saturate", kInt}},
        rules::infer_quantize_linear_21));
    schemas.push_back(signature("DequantizeLinear", 19, {"x", "x_scale", "x_zero_point?"}, {"y"},
                                {{"axis", kInt}}, rules::infer_dequantize_linear_19));
    schemas.push_back(signature("DequantizeLinear", 21, {"x", "x_scale", "x_zero_point?"}, {"y"},
                                {{"axis", kInt}, {"block_size", kInt}},
                                rules::infer_dequantize_linear_21));
}

// Bitwise, optional, string and image ops new in 18 and 20.
void add_value_ops(std::vector<OpSchema>& schemas) {
    for (const char* op : {"BitwiseAnd", "BitwiseOr", "BitwiseXor"})
        schemas.push_back(signature(op, 18, {"A", "B"}, {"C"}, {}, rules::infer_broadcast));
    schemas.push_back(signature("BitwiseNot", 18, {"X"}, {"Y"}, {}, rules::infer_same_shape));
    schemas.push_back(signature("OptionalGetElement", 18, {"input"}, {"output"}, {},
                                rules::infer_optional_get_element_18));
    schemas.push_back(signature("OptionalHasElement", 18, {"input?"}, {"output"}, {},
                                rules::infer_optional_has_element_18));
    schemas.push_back(signature("RegexFullMatch", 20, {"X"}, {"Y"}, {{"pattern", kString}},
                                rules::infer_regex_full_match_20));
    schemas.push_back(signature("StringConcat", 20, {"X", "Y"}, {"Z"}, {}, rules::infer_broadcast));
    schemas.push_back(signature("StringSplit", 20, {"X"}, {"Y", "Z"},
                                {{"delimiter", kString}, {"maxsplit", kInt}},
                                rules::infer_string_split_20));
    schemas.push_back(signature("ImageDecoder", 20, {"encoded_stream"}, {"image"},
                                {{"pixel_format", kString}}, rules::infer_image_decoder_20));
}

// Cleave's schemas by op, oldest first.
const std::map<std::string, std::vector<OpSchema>, std::less<>>& cleave_schemas() {
    static const auto schemas = [] {
        std::vector<OpSchema> all;
        add_reductions(all);
        add_tensor_ops(all);
        add_nn_ops(all);
        add_quantization(all);
        add_value_ops(all);
        std::map<std::string, std::vector<OpSchema>, std::less<>> by_op;
        for (auto& s : all) // each op's versions are added oldest first
            by_op[s.Name()].push_back(std::move(s));
        return by_op;
    }();
    return schemas;
}

} // namespace

const onnx::OpSchema* op_schema(const std::string& op, int opset, const std::string& domain) {
    const bool default_domain = domain.empty() || domain == "ai.onnx";
    if (default_domain) {
        const auto& schemas = cleave_schemas();
        if (const auto it = schemas.find(op); it != schemas.end())
            for (auto v = it->second.rbegin(); v != it->second.rend(); ++v)
                if (v->SinceVersion() <= opset)
                    return &*v;
    }
    return onnx::OpSchemaRegistry::Schema(op, opset, default_domain ? "" : domain);
}

} // namespace cleave::graph
