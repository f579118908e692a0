#include "onnx_import.hpp"

#include "../input_error.hpp"
#include "../task_control.hpp"
#include "autodice_names.hpp"
#include "contrib_op_checks.hpp"
#include "contrib_ops.hpp"
#include "input_dim_binding.hpp"
#include "newer_op_schemas.hpp"
#include "node_cost.hpp"
#include "onnx_source.hpp"
#include "shape_folding.hpp"
#include "topological_order.hpp"
#include "utf8_names.hpp"

#include <algorithm>
#include <onnx/defs/schema.h>
#include <unordered_map>
#include <unordered_set>

namespace cleave::graph {

namespace {

// raw_data below this size is parsed with the structure (shape inference reads small
// constants such as Reshape targets); larger payloads stay in the mapped file.
constexpr std::size_t kMinSeparatedPayload = 4096;
constexpr int kMaxListedWarnings = 20;

using onnx::GraphProto;
using onnx::ModelProto;
using onnx::NodeProto;
using onnx::TensorProto;
using onnx::TypeProto;

std::string in_quotes(const std::string& s) {
    return "'" + s + "'";
}

class Importer {
public:
    Importer(std::string file, const LoadOptions& options)
        : file_(std::move(file)), options_(options) {}

    Model run(std::shared_ptr<const MappedFile> bytes, std::filesystem::path folder) {
        auto source = std::make_shared<OnnxSource>();
        source->file = std::move(bytes);
        source->folder = std::move(folder);
        register_contrib_op_schemas(); // before libonnx's registry is asked about any node
        report(0.05, "reading");
        auto separated =
            separate_weight_payloads(source->file->bytes(), file_, kMinSeparatedPayload);
        source->initializer_payloads = std::move(separated.initializer_payloads);
        report(0.3, "parsing");
        if (!source->proto.ParseFromString(separated.structure))
            throw InputError(file_, "",
                             "not an ONNX model: the protobuf message does not parse "
                             "as a ModelProto");
        separated.structure = std::string();
        ModelProto& proto = source->proto;
        if (!proto.has_graph())
            throw InputError(file_, "ModelProto.graph",
                             "the file holds no graph; expected an ONNX model");
        report(0.4, "checking");
        check_opsets(proto);
        check_utf8_names(proto, file_);
        check_initializers(*source);
        check_embedded_tensors(proto.graph(), false);
        check_value_types(proto.graph());
        check_nodes_against_schemas(proto.graph(), opset_versions(proto));
        const onnx::GraphProto& graph = proto.graph();
        const std::vector<onnx::ValueInfoProto> inputs(graph.input().begin(), graph.input().end()),
            outputs(graph.output().begin(), graph.output().end());
        prepare_inputs(*proto.mutable_graph());
        if (!symbolic_inputs_.empty()) { // kept for sub-models that run at any binding
            source->file_inputs = inputs;
            source->file_outputs = outputs;
        }
        report(0.5, "sorting");
        sort_nodes(*proto.mutable_graph());
        report(0.6, "inferring shapes");
        infer_shapes(proto);
        report(0.85, "building");
        Model model = build(proto);
        for (const int t : model.inputs) {
            auto& input = model.tensors[static_cast<std::size_t>(t)];
            input.symbolic_in_file = symbolic_inputs_.count(input.name) > 0;
        }
        check_contrib_nodes(model);
        model.source = std::move(source);
        compute_costs(model);
        name_nodes(model);
        for (const auto& location : missing_)
            notes_.push_back("external data file " + in_quotes(location) +
                             " is absent: the weights are not needed to inspect, fuse or "
                             "predict; profiling, splitting and running need them");
        model.missing_external_data = std::move(missing_);
        model.warnings = std::move(warnings_);
        model.notes = std::move(notes_);
        report(1.0, "done");
        return model;
    }

private:
    void report(double fraction, std::string_view stage) const {
        report_progress(options_.control, {.fraction = fraction, .stage = stage});
    }

    void warn(std::string message) {
        if (static_cast<int>(warnings_.size()) < kMaxListedWarnings)
            warnings_.push_back(std::move(message));
        else
            ++unlisted_warnings_;
    }

    void check_opsets(const ModelProto& proto) {
        const auto& known = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
        bool has_default = false;
        for (const auto& opset : proto.opset_import()) {
            const std::string domain = opset.domain() == "ai.onnx" ? "" : opset.domain();
            has_default |= domain.empty();
            const auto it = known.find(domain);
            if (it == known.end())
                continue; // custom domains: their nodes get no shapes, which is reported per node
            // the default domain reads beyond libonnx's newest opset (newer_op_schemas.hpp)
            const int newest = domain.empty() ? kNewestReadOpset : it->second.second;
            if (opset.version() > newest || opset.version() < 1)
                throw InputError(
                    file_, "opset_import " + in_quotes(domain.empty() ? "ai.onnx" : domain),
                    "version " + std::to_string(opset.version()) +
                        " is not one this build reads (1 to " + std::to_string(newest) + ")");
        }
        const auto& nodes = proto.graph().node();
        const bool uses_default = std::any_of(nodes.begin(), nodes.end(), [](const NodeProto& n) {
            return n.domain().empty() || n.domain() == "ai.onnx";
        });
        if (!has_default && uses_default)
            throw InputError(file_, "opset_import", "no version for the default ai.onnx domain");
    }

    static std::unordered_map<std::string, int> opset_versions(const ModelProto& proto) {
        std::unordered_map<std::string, int> versions;
        for (const auto& opset : proto.opset_import())
            versions[opset.domain() == "ai.onnx" ? "" : opset.domain()] =
                static_cast<int>(opset.version());
        return versions;
    }

    // libonnx's inference functions trust that a node fits its schema (a Scan without a body
    // crashes them), so every node, in subgraphs too, is verified against its schema first.
    void check_nodes_against_schemas(const GraphProto& graph,
                                     const std::unordered_map<std::string, int>& versions) {
        for (int i = 0; i < graph.node_size(); ++i) {
            const NodeProto& n = graph.node(i);
            const std::string domain = n.domain() == "ai.onnx" ? "" : n.domain();
            const auto version = versions.find(domain);
            if (version != versions.end()) {
                const auto* schema = op_schema(n.op_type(), version->second, domain);
                if (schema) {
                    try {
                        schema->Verify(n);
                    } catch (const std::exception& e) {
                        const std::string why = e.what();
                        throw InputError(file_,
                                         n.name().empty() ? "node #" + std::to_string(i)
                                                          : "node " + in_quotes(n.name()),
                                         "does not fit the " + n.op_type() +
                                             " schema: " + why.substr(0, why.find('\n')));
                    }
                    check_strides(n, i);
                }
            }
            for (const auto& a : n.attribute()) {
                if (a.has_g())
                    check_nodes_against_schemas(a.g(), versions);
                for (const auto& sub : a.graphs())
                    check_nodes_against_schemas(sub, versions);
            }
        }
    }

    static std::string node_place(const NodeProto& n, int index) {
        return n.name().empty() ? "node #" + std::to_string(index) : "node " + in_quotes(n.name());
    }

    // libonnx's conv and pool inference divides by every stride: a stride of 0 crashed it (found
    // by the fuzzer). ONNX wants strides >= 1 wherever they occur.
    void check_strides(const NodeProto& n, int index) const {
        for (const auto& a : n.attribute())
            if (a.name() == "strides")
                for (const auto stride : a.ints())
                    if (stride < 1)
                        throw InputError(file_, node_place(n, index),
                                         "attribute 'strides' holds " + std::to_string(stride) +
                                             "; expected strides >= 1");
    }

    // Number of elements the dims describe, or an InputError naming the tensor.
    std::int64_t checked_elements(const TensorProto& t, const std::string& place) const {
        Shape dims(t.dims().begin(), t.dims().end());
        for (const auto d : dims)
            if (d < 0)
                throw InputError(file_, place,
                                 "negative dim " + std::to_string(d) + "; expected dims >= 0");
        try {
            return element_count(dims);
        } catch (const std::overflow_error& e) {
            throw InputError(file_, place, e.what());
        }
    }

    // Throws unless the tensor's data is what its type and dims need: raw_bytes (the size of its
    // raw_data wherever that lives; nullopt when it has none) or the count of its typed values.
    // External data is left to the caller. Returns the bytes the dims need.
    std::int64_t check_tensor_data(const TensorProto& t, const std::string& place,
                                   std::optional<std::int64_t> raw_bytes) const {
        const DataType type = data_type_from_onnx(t.data_type());
        if (type == DataType::Undefined)
            throw InputError(file_, place, "undefined data type " + std::to_string(t.data_type()));
        const std::int64_t elements = checked_elements(t, place);
        const std::int64_t need = element_bits(type) == 0 ? 0 : storage_bytes(type, elements);
        if (need < 0)
            throw InputError(file_, place, "its size in bytes does not fit in 64 bits");
        if (t.data_location() == TensorProto::EXTERNAL)
            return need;
        if (raw_bytes) {
            if (type != DataType::String && *raw_bytes != need)
                throw InputError(
                    file_, place,
                    "holds " + std::to_string(*raw_bytes) + " bytes of data but dims " +
                        shape_to_string(Shape(t.dims().begin(), t.dims().end())) + " of " +
                        std::string(to_string(type)) + " need " + std::to_string(need));
            return need;
        }
        const std::int64_t values = typed_value_count(t, type);
        // complex numbers are two values each; 4-bit types are packed two to a value
        const bool complex = type == DataType::Complex64 || type == DataType::Complex128;
        const std::int64_t expected = complex                   ? elements * 2
                                      : element_bits(type) == 4 ? (elements + 1) / 2
                                                                : elements;
        if (values != expected)
            throw InputError(file_, place,
                             "holds " + std::to_string(values) + " values but dims " +
                                 shape_to_string(Shape(t.dims().begin(), t.dims().end())) +
                                 " need " + std::to_string(expected));
        return need;
    }

    static std::optional<std::int64_t> raw_size(const TensorProto& t) {
        if (!t.has_raw_data())
            return std::nullopt;
        return static_cast<std::int64_t>(t.raw_data().size());
    }

    void check_initializers(const OnnxSource& source) {
        const auto& graph = source.proto.graph();
        for (int i = 0; i < graph.initializer_size(); ++i) {
            const TensorProto& t = graph.initializer(i);
            const std::string place = "initializer " + in_quotes(t.name());
            if (t.name().empty())
                throw InputError(file_, "initializer #" + std::to_string(i), "has no name");
            const bool raw = t.has_raw_data() || source.initializer_payloads[i].has_value();
            const std::int64_t need = check_tensor_data(
                t, place,
                raw ? std::optional(static_cast<std::int64_t>(source.raw_initializer(i).size()))
                    : std::nullopt);
            if (t.data_location() == TensorProto::EXTERNAL)
                check_external_data(source, t, place, need);
        }
    }

    // Tensors in node attributes (Constant's value) and in subgraph initializers reach libonnx's
    // ParseData, which copies all of raw_data into a vector of whole elements: a byte count that
    // is no whole number of elements overflows it (found by the fuzzer). Checked as initializers.
    void check_embedded_tensors(const GraphProto& graph, bool subgraph) const {
        if (subgraph)
            for (const auto& t : graph.initializer())
                check_tensor_data(t, "subgraph initializer " + in_quotes(t.name()), raw_size(t));
        for (int i = 0; i < graph.node_size(); ++i) {
            const NodeProto& n = graph.node(i);
            for (const auto& a : n.attribute()) {
                const std::string place = node_place(n, i) + " attribute " + in_quotes(a.name());
                if (a.has_t())
                    check_tensor_data(a.t(), place, raw_size(a.t()));
                for (const auto& t : a.tensors())
                    check_tensor_data(t, place, raw_size(t));
                if (a.has_g())
                    check_embedded_tensors(a.g(), true);
                for (const auto& sub : a.graphs())
                    check_embedded_tensors(sub, true);
            }
        }
    }

    static std::int64_t typed_value_count(const TensorProto& t, DataType type) {
        switch (type) {
        case DataType::Float32:
        case DataType::Complex64:
            return t.float_data_size();
        case DataType::Float64:
        case DataType::Complex128:
            return t.double_data_size();
        case DataType::Int64:
            return t.int64_data_size();
        case DataType::Uint32:
        case DataType::Uint64:
            return t.uint64_data_size();
        case DataType::String:
            return t.string_data_size();
        default:
            return t.int32_data_size();
        }
    }

    void check_external_data(const OnnxSource& source, const TensorProto& t,
                             const std::string& place, std::int64_t need) {
        const auto [location, offset, length] = external_data(t, file_, place);
        if (location.empty())
            throw InputError(file_, place, "external data without a location");
        if (source.folder.empty())
            throw InputError(file_, place,
                             "external data " + in_quotes(location) +
                                 " needs the model to be loaded from its folder");
        const std::filesystem::path relative(location);
        const auto normal = relative.lexically_normal();
        if (relative.is_absolute() || normal.empty() || *normal.begin() == "..")
            throw InputError(file_, place,
                             "external data location " + in_quotes(location) +
                                 " leaves the model's folder; expected a path inside it");
        std::error_code ec;
        const auto folder = std::filesystem::weakly_canonical(source.folder, ec);
        const auto target = std::filesystem::weakly_canonical(source.folder / normal, ec);
        const auto [f, _] =
            std::mismatch(folder.begin(), folder.end(), target.begin(), target.end());
        if (ec || f != folder.end())
            throw InputError(file_, place,
                             "external data location " + in_quotes(location) +
                                 " resolves outside the model's folder; expected a path inside it");
        if (!std::filesystem::exists(target, ec)) {
            // Inspecting, fusing and predicting read the dims only; the engines that need the
            // weights refuse the model naming the file (require_weights).
            if (std::find(missing_.begin(), missing_.end(), location) == missing_.end())
                missing_.push_back(location);
            return;
        }
        if (!std::filesystem::is_regular_file(target, ec))
            throw InputError(file_, place,
                             "external data file " + in_quotes(location) + " is not a file");
        const auto size = static_cast<std::int64_t>(std::filesystem::file_size(target, ec));
        const std::int64_t available = size - offset;
        if (offset < 0 || length < -1 || available < (length < 0 ? need : length) ||
            (length >= 0 && length != need))
            throw InputError(file_, place,
                             "external data " + in_quotes(location) + " at offset " +
                                 std::to_string(offset) + " does not hold the " +
                                 std::to_string(need) + " bytes the dims need (file has " +
                                 std::to_string(size) + ")");
    }

    void check_type(const onnx::ValueInfoProto& value, const std::string& what) const {
        if (!value.type().has_tensor_type() || !value.type().tensor_type().has_shape())
            return;
        Shape dims;
        for (const auto& d : value.type().tensor_type().shape().dim()) {
            if (d.has_dim_value() && d.dim_value() < 0)
                throw InputError(file_, what + " " + in_quotes(value.name()),
                                 "negative dim " + std::to_string(d.dim_value()));
            dims.push_back(d.has_dim_value() ? d.dim_value() : 1);
        }
        try {
            element_count(dims);
        } catch (const std::overflow_error& e) {
            throw InputError(file_, what + " " + in_quotes(value.name()), e.what());
        }
    }

    void check_value_types(const GraphProto& graph) const {
        for (const auto& v : graph.input())
            check_type(v, "input");
        for (const auto& v : graph.output())
            check_type(v, "output");
        for (const auto& v : graph.value_info())
            check_type(v, "value_info");
    }

    // An input's declared dims with their names, those --input-shape gives fixed.
    InputDims input_dims(const onnx::ValueInfoProto& v, const Shape* given) const {
        const auto& tensor = v.type().tensor_type();
        InputDims dims{v.name(), {}};
        if (given && tensor.has_shape() &&
            tensor.shape().dim_size() != static_cast<int>(given->size()))
            throw InputError(file_, "--input-shape " + in_quotes(v.name()),
                             "gives " + std::to_string(given->size()) +
                                 " dims but the input has rank " +
                                 std::to_string(tensor.shape().dim_size()));
        const int rank = given ? static_cast<int>(given->size()) : tensor.shape().dim_size();
        for (int i = 0; i < rank; ++i) {
            InputDim dim;
            if (tensor.has_shape()) {
                const auto& d = tensor.shape().dim(i);
                dim.value = d.has_dim_value() ? d.dim_value() : -1;
                dim.param = d.dim_param();
            }
            if (given)
                dim.value = (*given)[static_cast<std::size_t>(i)];
            dims.dims.push_back(std::move(dim));
        }
        return dims;
    }

    // Applies --input-shape and the dim bindings (input_dim_binding.hpp), and drops declared
    // shapes when they can no longer be trusted.
    void prepare_inputs(GraphProto& graph) {
        std::unordered_set<std::string> initializers;
        for (const auto& t : graph.initializer())
            initializers.insert(t.name());
        std::vector<std::string> input_names;
        for (const auto& v : graph.input())
            if (!initializers.count(v.name()))
                input_names.push_back(v.name());
        for (const auto& [name, dims] : options_.input_shapes) {
            if (std::find(input_names.begin(), input_names.end(), name) == input_names.end()) {
                std::string list;
                for (const auto& n : input_names)
                    list += (list.empty() ? "" : ", ") + n;
                throw InputError(file_, "--input-shape " + in_quotes(name),
                                 "the model has no graph input of that name; its inputs are: " +
                                     list);
            }
        }
        std::vector<InputDims> inputs;
        std::vector<onnx::TypeProto_Tensor*> tensors;
        for (auto& v : *graph.mutable_input()) {
            if (initializers.count(v.name()) || !v.type().has_tensor_type())
                continue;
            const auto given = options_.input_shapes.find(v.name());
            if (given == options_.input_shapes.end() && !v.type().tensor_type().has_shape()) {
                warn("input " + in_quotes(v.name()) +
                     " has unknown rank; give its shape with --input-shape");
                continue;
            }
            inputs.push_back(
                input_dims(v, given == options_.input_shapes.end() ? nullptr : &given->second));
            tensors.push_back(v.mutable_type()->mutable_tensor_type());
        }
        auto bound = bind_input_dims(inputs, options_.dims, file_);
        bool changed = false;
        for (std::size_t k = 0; k < tensors.size(); ++k) {
            Shape old;
            for (const auto& d : tensors[k]->shape().dim())
                old.push_back(d.has_dim_value() ? d.dim_value() : -1);
            changed |= old != bound.shapes[k];
            if (std::find(old.begin(), old.end(), -1) != old.end())
                symbolic_inputs_.insert(inputs[k].name);
            tensors[k]->mutable_shape()->clear_dim();
            for (const auto d : bound.shapes[k])
                tensors[k]->mutable_shape()->add_dim()->set_dim_value(d);
        }
        for (auto& warning : bound.warnings)
            warn(std::move(warning));
        notes_ = std::move(bound.notes);
        bound_dims_ = std::move(bound.names);
        dim_roles_ = std::move(bound.roles);
        if (changed || !options_.keep_declared_shapes) {
            graph.clear_value_info();
            for (auto& out : *graph.mutable_output())
                if (out.type().has_tensor_type())
                    out.mutable_type()->mutable_tensor_type()->clear_shape();
        }
    }

    // Names a subgraph reads from the graph around it.
    static void collect_captured(const GraphProto& g, std::unordered_set<std::string>& defined,
                                 std::vector<std::string>& captured) {
        for (const auto& v : g.input())
            defined.insert(v.name());
        for (const auto& t : g.initializer())
            defined.insert(t.name());
        for (const auto& n : g.node())
            for (const auto& o : n.output())
                defined.insert(o);
        for (const auto& n : g.node()) {
            for (const auto& i : n.input())
                if (!i.empty() && !defined.count(i))
                    captured.push_back(i);
            for (const auto& a : n.attribute()) {
                if (a.has_g())
                    collect_captured(a.g(), defined, captured);
                for (const auto& sub : a.graphs())
                    collect_captured(sub, defined, captured);
            }
        }
    }

    void sort_nodes(GraphProto& graph) {
        std::unordered_set<std::string> available;
        for (const auto& v : graph.input())
            available.insert(v.name());
        for (const auto& t : graph.initializer())
            available.insert(t.name());
        for (const auto& t : graph.sparse_initializer())
            available.insert(t.values().name());
        std::vector<NodeLinks> links(static_cast<std::size_t>(graph.node_size()));
        for (int i = 0; i < graph.node_size(); ++i) {
            const NodeProto& n = graph.node(i);
            if (n.op_type().empty())
                throw InputError(file_,
                                 n.name().empty() ? "node #" + std::to_string(i)
                                                  : "node " + in_quotes(n.name()),
                                 "has no op_type");
            auto& l = links[static_cast<std::size_t>(i)];
            l.name = n.name();
            l.inputs.assign(n.input().begin(), n.input().end());
            l.outputs.assign(n.output().begin(), n.output().end());
            for (const auto& a : n.attribute()) {
                std::unordered_set<std::string> defined;
                if (a.has_g())
                    collect_captured(a.g(), defined, l.captured);
                for (const auto& sub : a.graphs())
                    collect_captured(sub, defined, l.captured);
            }
        }
        const auto order = topological_order(links, available, file_);
        bool sorted = true;
        for (std::size_t i = 0; i < order.size(); ++i)
            sorted &= order[i] == static_cast<int>(i);
        if (sorted)
            return;
        google::protobuf::RepeatedPtrField<NodeProto> reordered;
        for (const int index : order)
            *reordered.Add() = std::move(*graph.mutable_node(index));
        graph.mutable_node()->Swap(&reordered);
    }

    void infer_shapes(ModelProto& proto) {
        try {
            infer_shapes_with_folding(proto,
                                      [this](std::string message) { warn(std::move(message)); });
        } catch (const NodeRuleError& e) {
            throw InputError(file_, "node " + in_quotes(e.node), e.what());
        }
    }

    static std::optional<Shape> shape_of(const TypeProto& type, DataType& dtype) {
        if (!type.has_tensor_type())
            return std::nullopt;
        dtype = data_type_from_onnx(type.tensor_type().elem_type());
        if (!type.tensor_type().has_shape())
            return std::nullopt;
        Shape shape;
        for (const auto& d : type.tensor_type().shape().dim())
            shape.push_back(d.has_dim_value() && d.dim_value() >= 0 ? d.dim_value() : -1);
        return shape;
    }

    static Attribute convert(const onnx::AttributeProto& a) {
        using K = Attribute::Kind;
        Attribute out;
        out.name = a.name();
        switch (a.type()) {
        case onnx::AttributeProto::INT:
            out.kind = K::Int;
            out.ints = {a.i()};
            break;
        case onnx::AttributeProto::FLOAT:
            out.kind = K::Float;
            out.floats = {a.f()};
            break;
        case onnx::AttributeProto::STRING:
            out.kind = K::String;
            out.strings = {a.s()};
            break;
        case onnx::AttributeProto::INTS:
            out.kind = K::Ints;
            out.ints.assign(a.ints().begin(), a.ints().end());
            break;
        case onnx::AttributeProto::FLOATS:
            out.kind = K::Floats;
            out.floats.assign(a.floats().begin(), a.floats().end());
            break;
        case onnx::AttributeProto::STRINGS:
            out.kind = K::Strings;
            out.strings.assign(a.strings().begin(), a.strings().end());
            break;
        case onnx::AttributeProto::TENSOR:
            out.kind = K::Tensor;
            out.summary = "tensor " +
                          std::string(to_string(data_type_from_onnx(a.t().data_type()))) + " " +
                          shape_to_string(Shape(a.t().dims().begin(), a.t().dims().end()));
            if (a.t().ByteSizeLong() - a.t().name().size() - a.t().doc_string().size() <= 256) {
                onnx::TensorProto value = a.t();
                value.clear_name();
                value.clear_doc_string();
                out.data = value.SerializeAsString();
            }
            break;
        case onnx::AttributeProto::GRAPH:
            out.kind = K::Graph;
            out.summary = "graph of " + std::to_string(a.g().node_size()) + " nodes";
            break;
        default:
            out.kind = K::Other;
            out.summary = "(" + onnx::AttributeProto_AttributeType_Name(a.type()) + ")";
            break;
        }
        return out;
    }

    // The model's tensors by name, each added at its first mention.
    struct TensorIndex {
        Model& model;
        std::unordered_map<std::string, int> index;

        int add(const std::string& name, Tensor::Kind kind) {
            const auto [it, inserted] = index.emplace(name, static_cast<int>(model.tensors.size()));
            if (inserted) {
                model.tensors.push_back({});
                model.tensors.back().name = name;
                model.tensors.back().kind = kind;
            }
            return it->second;
        }

        // A declared type and shape onto a tensor already known; its index, or -1.
        int describe(const onnx::ValueInfoProto& v) {
            const auto it = index.find(v.name());
            if (it == index.end())
                return -1;
            Tensor& t = model.tensors[static_cast<std::size_t>(it->second)];
            DataType type = t.dtype;
            auto shape = shape_of(v.type(), type);
            if (type != DataType::Undefined)
                t.dtype = type;
            if (shape)
                t.shape = std::move(shape);
            return it->second;
        }
    };

    // Initializers, then the graph inputs that are not initializers.
    static void add_initializers_and_inputs(const GraphProto& graph, TensorIndex& tensors) {
        Model& model = tensors.model;
        for (int i = 0; i < graph.initializer_size(); ++i) {
            const auto& t = graph.initializer(i);
            Tensor& tensor = model.tensors[static_cast<std::size_t>(
                tensors.add(t.name(), Tensor::Kind::Initializer))];
            tensor.dtype = data_type_from_onnx(t.data_type());
            tensor.shape = Shape(t.dims().begin(), t.dims().end());
        }
        for (const auto& v : graph.input()) {
            if (tensors.index.count(v.name()))
                continue; // an initializer listed as input (IR < 4): a weight, not a user input
            const int t = tensors.add(v.name(), Tensor::Kind::GraphInput);
            model.inputs.push_back(t);
            model.tensors[t].shape = shape_of(v.type(), model.tensors[t].dtype);
        }
    }

    // Nodes with their attributes (sorted by name), and the tensors they read and write.
    static void add_nodes(const GraphProto& graph, TensorIndex& tensors) {
        Model& model = tensors.model;
        for (int n = 0; n < graph.node_size(); ++n) {
            const NodeProto& p = graph.node(n);
            Node node;
            node.name = p.name();
            node.op = p.op_type();
            node.domain = p.domain();
            for (const auto& a : p.attribute())
                node.attributes.push_back(convert(a));
            std::sort(node.attributes.begin(), node.attributes.end(),
                      [](const Attribute& a, const Attribute& b) { return a.name < b.name; });
            for (const auto& in : p.input()) {
                const int t = in.empty() ? -1 : tensors.add(in, Tensor::Kind::Activation);
                node.inputs.push_back(t);
                if (t >= 0 &&
                    (model.tensors[t].consumers.empty() || model.tensors[t].consumers.back() != n))
                    model.tensors[t].consumers.push_back(n);
            }
            for (const auto& out : p.output()) {
                const int t = out.empty() ? -1 : tensors.add(out, Tensor::Kind::Activation);
                node.outputs.push_back(t);
                if (t >= 0)
                    model.tensors[t].producer = n;
            }
            model.nodes.push_back(std::move(node));
        }
    }

    // Declared dims were checked; inferred ones (a Reshape to a huge constant) are checked here.
    // Outputs left without a shape are warned of, five by name.
    void check_inferred_shapes(const Model& model) {
        for (const auto& t : model.tensors) {
            try {
                element_count(t.shape);
            } catch (const std::overflow_error& e) {
                throw InputError(file_, "tensor " + in_quotes(t.name),
                                 std::string("inferred shape: ") + e.what());
            }
        }

        int unknown = 0;
        for (const auto& node : model.nodes)
            for (const int out : node.outputs)
                if (out >= 0 && !model.tensors[out].shape && unknown++ < 5)
                    warn("node " + in_quotes(node.name) + " (" + node.op + "): output " +
                         in_quotes(model.tensors[out].name) + " has no inferred shape");
        if (unknown > 5)
            warn(std::to_string(unknown) + " node outputs in all have no inferred shape");
    }

    Model build(const ModelProto& proto) {
        const GraphProto& graph = proto.graph();
        Model model;
        model.file = file_;
        model.ir_version = proto.ir_version();
        model.producer = proto.producer_name() +
                         (proto.producer_version().empty() ? "" : " " + proto.producer_version());
        for (const auto& opset : proto.opset_import()) {
            model.opset_imports.push_back({opset.domain(), opset.version()});
            if (opset.domain().empty() || opset.domain() == "ai.onnx")
                model.opset = opset.version();
        }

        TensorIndex tensors{model, {}};
        add_initializers_and_inputs(graph, tensors);
        add_nodes(graph, tensors);
        for (const auto& v : graph.value_info())
            tensors.describe(v);
        for (const auto& v : graph.output()) {
            const int t = tensors.describe(v);
            if (t < 0)
                throw InputError(
                    file_, "output " + in_quotes(v.name()),
                    "is produced by no node and is neither an input nor an initializer");
            model.tensors[t].is_graph_output = true;
            model.outputs.push_back(t);
        }
        check_inferred_shapes(model);
        model.bound_dims = std::move(bound_dims_);
        model.dim_roles = std::move(dim_roles_);
        return model;
    }

    void name_nodes(Model& model) {
        const int renamed = apply_autodice_names(model, options_.autodice_names);
        if (renamed > 0 && !options_.autodice_names)
            warn(std::to_string(renamed) +
                 " nodes with empty or repeated names were given AutoDiCE "
                 "names (first output, '/' -> '_')");
        if (unlisted_warnings_ > 0)
            warnings_.push_back("and " + std::to_string(unlisted_warnings_) + " more warnings");
    }

    std::string file_;
    const LoadOptions& options_;
    std::vector<std::string> warnings_;
    std::vector<std::string> notes_;
    std::vector<std::string> missing_; // external data files absent, as the model names them
    int unlisted_warnings_ = 0;
    std::map<std::string, std::int64_t> bound_dims_;
    std::map<std::string, std::int64_t> dim_roles_;
    std::unordered_set<std::string> symbolic_inputs_; // inputs with a dim the file left symbolic
};

} // namespace

Model load_model(const std::filesystem::path& file, const LoadOptions& options) {
    auto bytes = std::make_shared<const MappedFile>(file);
    auto folder = file.parent_path().empty() ? std::filesystem::path(".") : file.parent_path();
    return Importer(file.string(), options).run(std::move(bytes), std::move(folder));
}

Model load_model_from_bytes(std::vector<std::uint8_t> bytes, const std::string& name,
                            const LoadOptions& options) {
    if (bytes.empty())
        throw InputError(name, "", "the model is empty (0 bytes); expected an ONNX model");
    return Importer(name, options).run(std::make_shared<const MappedFile>(std::move(bytes)), {});
}

std::int64_t newest_known_opset() {
    return kNewestReadOpset;
}

} // namespace cleave::graph
