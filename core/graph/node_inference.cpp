#include "node_inference.hpp"

#include "einsum_equation.hpp"
#include "newer_op_schemas.hpp"

#include <deque>
#include <map>
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>
#include <unordered_map>

namespace cleave::graph {

namespace {

bool has_type(const onnx::TypeProto* type) {
    return type && type->value_case() != onnx::TypeProto::VALUE_NOT_SET;
}

bool has_data(const onnx::TensorProto& t) {
    return t.has_raw_data() || t.float_data_size() || t.int32_data_size() || t.int64_data_size() ||
           t.double_data_size() || t.uint64_data_size() || t.string_data_size() || [&] {
               for (const auto d : t.dims())
                   if (d == 0)
                       return true;
               return false;
           }();
}

// Every dim of a tensor type, where all are known.
std::optional<std::vector<std::int64_t>> static_dims(const onnx::TypeProto* type) {
    if (!type || !type->has_tensor_type() || !type->tensor_type().has_shape())
        return std::nullopt;
    std::vector<std::int64_t> dims;
    for (const auto& d : type->tensor_type().shape().dim()) {
        if (!d.has_dim_value())
            return std::nullopt;
        dims.push_back(d.dim_value());
    }
    return dims;
}

// Ranks that libonnx 1.12's inference functions index without checking (its Gemm-6 reads dim 1
// of B whatever B's rank; convPoolShapeInference reads the weight's dims for any input rank; STFT
// reads three dims of the signal): a node whose known input ranks differ is not inferred, so its
// outputs stay unknown.
struct RankRule {
    const char* op;
    int input;
    int min_rank;
    int max_rank;
    int same_rank_as; // another input index, or -1
};
constexpr RankRule kRankRules[] = {
    {"Gemm", 0, 2, 2, -1},           {"Gemm", 1, 2, 2, -1},          {"Conv", 0, 3, 64, -1},
    {"Conv", 1, 3, 64, 0},           {"ConvInteger", 0, 3, 64, -1},  {"ConvInteger", 1, 3, 64, 0},
    {"ConvTranspose", 0, 3, 64, -1}, {"ConvTranspose", 1, 3, 64, 0}, {"QLinearConv", 0, 3, 64, -1},
    {"QLinearConv", 3, 3, 64, 0},    {"MaxPool", 0, 3, 64, -1},      {"AveragePool", 0, 3, 64, -1},
    {"LpPool", 0, 3, 64, -1},        {"MaxUnpool", 0, 3, 64, -1},    {"STFT", 0, 3, 3, -1},
};

bool has_rank_rule(const std::string& op) {
    for (const auto& rule : kRankRules)
        if (op == rule.op)
            return true;
    return false;
}

bool ranks_fit(const std::string& op, const onnx::InferenceContext& ctx) {
    auto rank = [&](int input) {
        const auto i = static_cast<std::size_t>(input);
        const auto* type = i < ctx.getNumInputs() ? ctx.getInputType(i) : nullptr;
        if (!type || !type->has_tensor_type() || !type->tensor_type().has_shape())
            return -1;
        return type->tensor_type().shape().dim_size();
    };
    for (const auto& rule : kRankRules) {
        if (op != rule.op)
            continue;
        const int r = rank(rule.input);
        if (r < 0)
            continue;
        if (r < rule.min_rank || r > rule.max_rank)
            return false;
        if (rule.same_rank_as >= 0 && rank(rule.same_rank_as) >= 0 && rank(rule.same_rank_as) != r)
            return false;
    }
    return true;
}

// A scalar 'split' that holds one value other than 0. libonnx 1.12's SplitToSequence inference
// takes the axis length modulo that value without checking it (a 0 crashes it) and reads the
// first value even when there is none.
bool is_nonzero_scalar(const onnx::TensorProto& t) {
    if (t.has_raw_data()) {
        const std::size_t width = t.data_type() == onnx::TensorProto::INT32 ? 4 : 8;
        return t.raw_data().size() == width &&
               t.raw_data().find_first_not_of('\0') != std::string::npos;
    }
    if (t.data_type() == onnx::TensorProto::INT32)
        return t.int32_data_size() == 1 && t.int32_data(0) != 0;
    return t.int64_data_size() == 1 && t.int64_data(0) != 0;
}

// libonnx 1.12 gives an Einsum's output its rank only; its dims follow from the equation and the
// operands' dims where all are known.
void infer_einsum_dims(onnx::InferenceContext& ctx) {
    const auto* attribute = ctx.getAttribute("equation");
    if (!attribute || !attribute->has_s())
        return;
    const auto equation = parse_einsum(attribute->s());
    if (!equation)
        return;
    std::vector<std::vector<std::int64_t>> operands;
    for (std::size_t i = 0; i < ctx.getNumInputs(); ++i) {
        auto dims = static_dims(ctx.getInputType(i));
        if (!dims)
            return;
        operands.push_back(std::move(*dims));
    }
    const auto shape = einsum_output_shape(*equation, operands);
    auto* out = ctx.getOutputType(0);
    if (!shape || !out || !out->has_tensor_type())
        return;
    auto* dims = out->mutable_tensor_type()->mutable_shape();
    dims->clear_dim();
    for (const auto d : *shape)
        dims->add_dim()->set_dim_value(d);
}

// libonnx's schemas, with the inference functions that crash on bad ranks or values wrapped in a
// check that fails inference instead. Handed to libonnx's inference code as its registry, so the
// checks also hold in subgraphs and function bodies, which libonnx's own driver infers (a bad
// ConvTranspose inside an If branch crashed it while the checks ran on top-level nodes only).
class GuardedSchemas : public onnx::ISchemaRegistry {
public:
    const onnx::OpSchema* GetSchema(const std::string& key, const int max_inclusive_version,
                                    const std::string& domain) const override {
        const auto* schema = op_schema(key, max_inclusive_version, domain);
        if (!schema || (!domain.empty() && domain != "ai.onnx") ||
            !schema->has_type_and_shape_inference_function() ||
            (key != "SplitToSequence" && key != "Einsum" && !has_rank_rule(key)))
            return schema;
        const auto [it, added] = guarded_.try_emplace(schema, *schema);
        if (added)
            it->second.TypeAndShapeInferenceFunction(
                [op = key,
                 infer = schema->GetTypeAndShapeInferenceFunction()](onnx::InferenceContext& ctx) {
                    if (!ranks_fit(op, ctx))
                        fail_shape_inference(op, ": an input rank that libonnx cannot handle");
                    const auto* split = op == "SplitToSequence" && ctx.getNumInputs() > 1
                                            ? ctx.getInputData(1)
                                            : nullptr;
                    if (split && split->dims_size() == 0 && !is_nonzero_scalar(*split))
                        fail_shape_inference("SplitToSequence: a scalar split must not be 0");
                    infer(ctx);
                    if (op == "Einsum")
                        infer_einsum_dims(ctx);
                });
        return &it->second;
    }

private:
    mutable std::map<const onnx::OpSchema*, onnx::OpSchema> guarded_;
};

// What inference knows by tensor name: its type (declared, an initializer's, or inferred), its
// data where small enough to read, and the shapes libonnx generated.
struct KnownTensors {
    std::unordered_map<std::string, onnx::TypeProto*> types;
    std::unordered_map<std::string, const onnx::TensorProto*> data;
    std::unordered_map<std::string, onnx::TensorShapeProto> generated;
    std::deque<onnx::TypeProto> initializer_types;
    std::deque<onnx::TensorProto> folded;
};

// The types the graph declares (inputs, initializers, value_info, outputs) and the initializers'
// data.
void declare_graph_types(onnx::GraphProto& graph, KnownTensors& known) {
    auto& types = known.types;
    for (auto& v : *graph.mutable_input())
        types[v.name()] = v.mutable_type();
    for (const auto& t : graph.initializer()) {
        auto& type = known.initializer_types.emplace_back();
        auto* tensor = type.mutable_tensor_type();
        tensor->set_elem_type(t.data_type());
        auto* shape = tensor->mutable_shape();
        for (const auto d : t.dims())
            shape->add_dim()->set_dim_value(d);
        if (!types.count(t.name()) || !has_type(types[t.name()]))
            types[t.name()] = &type;
        if (has_data(t))
            known.data[t.name()] =
                &t; // large weights left in the mapped file are never needed here
    }
    for (auto& v : *graph.mutable_value_info())
        types[v.name()] = v.mutable_type();
    for (auto& v : *graph.mutable_output())
        types[v.name()] = v.mutable_type();
}

bool inputs_typed(const onnx::NodeProto& node, const KnownTensors& known) {
    bool typed = true;
    for (const auto& input : node.input()) {
        if (input.empty())
            continue;
        const auto it = known.types.find(input);
        typed &= it != known.types.end() && has_type(it->second);
    }
    return typed;
}

// The node's inferred output types: a new one into the graph's value_info, a known one merged
// (a conflict with the declared type is warned of).
void record_outputs(onnx::GraphProto& graph, const onnx::NodeProto& node,
                    onnx::shape_inference::InferenceContextImpl& context, KnownTensors& known,
                    const std::function<void(std::string)>& warn) {
    auto& types = known.types;
    for (int i = 0; i < node.output_size(); ++i) {
        const std::string& name = node.output(i);
        const auto* inferred = context.getOutputType(static_cast<std::size_t>(i));
        if (name.empty() || !has_type(inferred))
            continue;
        const auto existing = types.find(name);
        if (existing == types.end()) {
            auto* value = graph.add_value_info();
            value->set_name(name);
            *value->mutable_type() = *inferred;
            types[name] = value->mutable_type();
            continue;
        }
        try {
            onnx::shape_inference::mergeShapesAndTypes(*inferred, existing->second);
        } catch (const std::exception& e) {
            warn("node '" + node.name() + "' (" + node.op_type() + "): inferred type of '" + name +
                 "' conflicts with the declared one: " +
                 std::string(e.what()).substr(0, std::string(e.what()).find('\n')));
        }
    }
}

// The data the node's outputs hold for the nodes after it: libonnx's data propagation, a
// Constant's value, and what `fold` folds.
void record_data(onnx::NodeProto& node, const onnx::OpSchema& schema, KnownTensors& known,
                 const NodeFolder& fold, const KnownDims& known_dims) {
    auto& data = known.data;
    if (schema.has_data_propagation_function()) {
        onnx::shape_inference::DataPropagationContextImpl propagation(node, known.types, data,
                                                                      known.generated);
        try {
            schema.GetDataPropagationFunction()(propagation);
        } catch (const std::exception&) {
        }
    }
    if (node.op_type() == "Constant" && node.output_size() == 1)
        for (const auto& a : node.attribute())
            if (a.name() == "value" && a.has_t())
                data[node.output(0)] = &a.t();
    if (!fold || node.output_size() < 1)
        return;
    if (auto constant = fold(node, known_dims); constant && !data.count(node.output(0)))
        data[node.output(0)] = &known.folded.emplace_back(std::move(*constant));
}

} // namespace

void infer_node_by_node(onnx::ModelProto& model, const std::function<void(std::string)>& warn,
                        const NodeFolder& fold) {
    onnx::GraphProto& graph = *model.mutable_graph();
    std::unordered_map<std::string, int> opsets;
    for (const auto& opset : model.opset_import())
        opsets[opset.domain() == "ai.onnx" ? "" : opset.domain()] =
            static_cast<int>(opset.version());
    const GuardedSchemas guarded_schemas;
    const onnx::ISchemaRegistry* registry = &guarded_schemas;

    KnownTensors known;
    const std::unordered_map<std::string, const onnx::SparseTensorProto*> no_sparse_data;
    declare_graph_types(graph, known);
    const KnownDims known_dims = [&types = known.types](const std::string& name) {
        const auto it = types.find(name);
        return static_dims(it == types.end() ? nullptr : it->second);
    };

    onnx::shape_inference::SymbolTableImpl symbols;
    onnx::shape_inference::GraphInferenceContext subgraph_context(
        known.types, opsets, &symbols, {}, registry, &known.generated,
        static_cast<int>(model.ir_version()));

    for (auto& node : *graph.mutable_node()) {
        const std::string domain = node.domain() == "ai.onnx" ? "" : node.domain();
        const auto opset = opsets.find(domain);
        if (opset == opsets.end())
            continue;
        const auto* schema = registry->GetSchema(node.op_type(), opset->second, domain);
        if (!schema || !inputs_typed(node, known))
            continue;

        onnx::shape_inference::InferenceContextImpl context(
            node, known.types, known.data, no_sparse_data, &known.generated, &subgraph_context);
        try {
            if (schema->has_type_and_shape_inference_function())
                schema->GetTypeAndShapeInferenceFunction()(context);
            else if (schema->HasFunction())
                onnx::shape_inference::InferShapeForFunctionNode(*schema->GetFunction(), registry,
                                                                 context);
            else
                continue;
        } catch (const NodeRuleError& e) {
            throw NodeRuleError(e.what(), node.name()); // the import is refused, naming the node
        } catch (const std::exception&) {
            continue; // this node's outputs stay unknown; libonnx's own driver does the same
        }
        record_outputs(graph, node, context, known, warn);
        record_data(node, *schema, known, fold, known_dims);
    }
}

} // namespace cleave::graph
