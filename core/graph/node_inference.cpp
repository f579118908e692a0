#include "node_inference.hpp"

#include <deque>
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

// Ranks that libonnx 1.12's inference functions index without checking (its Gemm-6 reads dim 1
// of B whatever B's rank; convPoolShapeInference reads the weight's dims for any input rank):
// a node whose known input ranks differ is not inferred, so its outputs stay unknown.
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
    {"LpPool", 0, 3, 64, -1},        {"MaxUnpool", 0, 3, 64, -1},
};

bool ranks_fit(const onnx::NodeProto& node,
               const std::unordered_map<std::string, onnx::TypeProto*>& types) {
    if (!node.domain().empty() && node.domain() != "ai.onnx")
        return true;
    auto rank = [&](int input) {
        if (input >= node.input_size())
            return -1;
        const auto it = types.find(node.input(input));
        if (it == types.end() || !it->second->has_tensor_type() ||
            !it->second->tensor_type().has_shape())
            return -1;
        return it->second->tensor_type().shape().dim_size();
    };
    for (const auto& rule : kRankRules) {
        if (node.op_type() != rule.op)
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

} // namespace

void infer_node_by_node(onnx::ModelProto& model, const std::function<void(std::string)>& warn) {
    onnx::GraphProto& graph = *model.mutable_graph();
    std::unordered_map<std::string, int> opsets;
    for (const auto& opset : model.opset_import())
        opsets[opset.domain() == "ai.onnx" ? "" : opset.domain()] =
            static_cast<int>(opset.version());
    const auto* registry = onnx::OpSchemaRegistry::Instance();

    std::unordered_map<std::string, onnx::TypeProto*> types;
    std::unordered_map<std::string, const onnx::TensorProto*> data;
    const std::unordered_map<std::string, const onnx::SparseTensorProto*> no_sparse_data;
    std::unordered_map<std::string, onnx::TensorShapeProto> generated;
    std::deque<onnx::TypeProto> initializer_types;

    for (auto& v : *graph.mutable_input())
        types[v.name()] = v.mutable_type();
    for (const auto& t : graph.initializer()) {
        auto& type = initializer_types.emplace_back();
        auto* tensor = type.mutable_tensor_type();
        tensor->set_elem_type(t.data_type());
        auto* shape = tensor->mutable_shape();
        for (const auto d : t.dims())
            shape->add_dim()->set_dim_value(d);
        if (!types.count(t.name()) || !has_type(types[t.name()]))
            types[t.name()] = &type;
        if (has_data(t))
            data[t.name()] = &t; // large weights left in the mapped file are never needed here
    }
    for (auto& v : *graph.mutable_value_info())
        types[v.name()] = v.mutable_type();
    for (auto& v : *graph.mutable_output())
        types[v.name()] = v.mutable_type();

    onnx::shape_inference::SymbolTableImpl symbols;
    onnx::shape_inference::GraphInferenceContext subgraph_context(
        types, opsets, &symbols, {}, registry, &generated, static_cast<int>(model.ir_version()));

    for (auto& node : *graph.mutable_node()) {
        const std::string domain = node.domain() == "ai.onnx" ? "" : node.domain();
        const auto opset = opsets.find(domain);
        if (opset == opsets.end())
            continue;
        const auto* schema = registry->GetSchema(node.op_type(), opset->second, domain);
        if (!schema)
            continue;
        bool typed = true;
        for (const auto& input : node.input()) {
            if (input.empty())
                continue;
            const auto it = types.find(input);
            typed &= it != types.end() && has_type(it->second);
        }
        if (!typed || !ranks_fit(node, types))
            continue;

        onnx::shape_inference::InferenceContextImpl context(node, types, data, no_sparse_data,
                                                            &generated, &subgraph_context);
        try {
            if (schema->has_type_and_shape_inference_function())
                schema->GetTypeAndShapeInferenceFunction()(context);
            else if (schema->HasFunction())
                onnx::shape_inference::InferShapeForFunctionNode(*schema->GetFunction(), registry,
                                                                 context);
            else
                continue;
        } catch (const std::exception&) {
            continue; // this node's outputs stay unknown; libonnx's own driver does the same
        }
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
                warn("node '" + node.name() + "' (" + node.op_type() + "): inferred type of '" +
                     name + "' conflicts with the declared one: " +
                     std::string(e.what()).substr(0, std::string(e.what()).find('\n')));
            }
        }
        if (schema->has_data_propagation_function()) {
            onnx::shape_inference::DataPropagationContextImpl propagation(node, types, data,
                                                                          generated);
            try {
                schema->GetDataPropagationFunction()(propagation);
            } catch (const std::exception&) {
            }
        }
        if (node.op_type() == "Constant" && node.output_size() == 1)
            for (const auto& a : node.attribute())
                if (a.name() == "value" && a.has_t())
                    data[node.output(0)] = &a.t();
    }
}

} // namespace cleave::graph
