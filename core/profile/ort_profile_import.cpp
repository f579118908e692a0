#include "ort_profile_import.hpp"

#include "core/fusion/rule_engine.hpp"
#include "core/graph/model_file.hpp"
#include "core/input_error.hpp"
#include "core/json_reader.hpp"
#include "core/statistics.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <unordered_map>

namespace cleave::profile {

namespace {

using nlohmann::json;

constexpr std::string_view kKernelSuffix = "_kernel_time";
const std::string kExpected = "ONNX Runtime's profiling trace (a JSON array of trace events)";

// "input_type_shape": [{"float": [1, 3, 224, 224]}, ...]
std::vector<graph::Shape> read_shapes(const JsonReader& reader, const json& value,
                                      const std::string& at) {
    if (!value.is_array())
        reader.fail(at, "expected a list of {\"<dtype>\": [dims]} objects");
    std::vector<graph::Shape> shapes;
    for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string here = child_pointer(at, i);
        if (!value[i].is_object() || value[i].size() != 1 || !value[i].begin()->is_array())
            reader.fail(here, "expected one {\"<dtype>\": [dims]} object");
        graph::Shape dims;
        const auto& list = *value[i].begin();
        for (std::size_t d = 0; d < list.size(); ++d)
            dims.push_back(reader.whole_number_at(list[d],
                                                  child_pointer(child_pointer(here, value[i].begin().key()), d),
                                                  0, std::numeric_limits<int>::max()));
        shapes.push_back(std::move(dims));
    }
    return shapes;
}

struct TimedEvent {
    double ts = 0;
    OrtKernelEvent event;
};

bool all_digits(std::string_view text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

// ORT names a node its optimiser made after the node it grew from: "fused <node>" (activation
// fusions), "<node>/MatMulAddFusion", "<node>/MatMulScaleFusion//MatmulTransposeFusion/" (the
// fusions as path components), "<node>_new_reshape" (Reshape chains merged), "<name>_token_<n>"
// (made unique). The node, or the name as is.
std::string grown_from(std::string name) {
    if (name.starts_with("fused "))
        name.erase(0, 6);
    for (bool changed = true; changed;) {
        changed = false;
        while (!name.empty() && name.back() == '/') {
            name.pop_back();
            changed = true;
        }
        if (const auto slash = name.rfind('/');
            slash != std::string::npos && slash > 0 && name.ends_with("Fusion")) {
            name.erase(slash);
            changed = true;
        }
        if (name.ends_with("_new_reshape") && name.size() > 12) {
            name.erase(name.size() - 12);
            changed = true;
        }
        if (const auto token = name.rfind("_token_"); token != std::string::npos) {
            if (all_digits(std::string_view(name).substr(token + 7))) {
                name.erase(token);
                changed = true;
            }
        }
    }
    return name;
}

// "HardSigmoid_156": how ORT's trace names a node without a name (here node 156).
bool is_unnamed_node_label(const std::string& label, const std::string& op) {
    return label.size() > op.size() + 1 && label.starts_with(op) && label[op.size()] == '_' &&
           all_digits(std::string_view(label).substr(op.size() + 1));
}

// Operators of ONNX Runtime's own domains that its CPU graph optimiser writes, for the domain of
// a kernel when the optimised model is not given.
std::string contrib_domain(const std::string& op) {
    static const std::set<std::string> microsoft = {"Attention",
                                                    "BiasGelu",
                                                    "BiasAdd",
                                                    "BiasSoftmax",
                                                    "DynamicQuantizeMatMul",
                                                    "EmbedLayerNormalization",
                                                    "FastGelu",
                                                    "FusedConv",
                                                    "FusedGemm",
                                                    "FusedMatMul",
                                                    "Gelu",
                                                    "GroupQueryAttention",
                                                    "MatMulIntegerToFloat",
                                                    "MatMulNBits",
                                                    "MultiHeadAttention",
                                                    "NhwcMaxPool",
                                                    "QLinearAdd",
                                                    "QLinearMul",
                                                    "QuickGelu",
                                                    "RotaryEmbedding",
                                                    "SkipLayerNormalization",
                                                    "SkipSimplifiedLayerNormalization"};
    if (microsoft.count(op))
        return "com.microsoft";
    if (op == "ReorderInput" || op == "ReorderOutput")
        return "com.microsoft.nchwc";
    return "";
}

int latest_producer_kernel(const graph::Model& model, const graph::Node& node,
                           const std::vector<int>& kernel_of_node) {
    int latest = -1;
    for (const int t : node.inputs)
        if (t >= 0)
            if (const int p = model.tensors[static_cast<std::size_t>(t)].producer;
                p > latest && kernel_of_node[static_cast<std::size_t>(p)] >= 0)
                latest = p;
    return latest < 0 ? -1 : kernel_of_node[static_cast<std::size_t>(latest)];
}

int earliest_consumer_kernel(const graph::Model& model, const graph::Node& node,
                             const std::vector<int>& kernel_of_node) {
    int first = -1;
    for (const int c : model.consumers_of(node))
        if (kernel_of_node[static_cast<std::size_t>(c)] >= 0 && (first < 0 || c < first))
            first = c;
    return first < 0 ? -1 : kernel_of_node[static_cast<std::size_t>(first)];
}

// x * f(x) (SiLU as Sigmoid then Mul, HardSwish): f joins the consumer that reads x as well,
// which ORT fuses with it and names after itself.
int gate_consumer_kernel(const graph::Model& model, const graph::Node& node,
                         const std::vector<int>& kernel_of_node) {
    for (const int c : model.consumers_of(node)) {
        const int k = kernel_of_node[static_cast<std::size_t>(c)];
        if (k < 0)
            continue;
        for (const int t : model.nodes[static_cast<std::size_t>(c)].inputs)
            if (t >= 0 && std::find(node.inputs.begin(), node.inputs.end(), t) != node.inputs.end())
                return k;
    }
    return -1;
}

} // namespace

OrtTrace read_ort_trace(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(path, "", "cannot read the file; expected " + kExpected);
    std::stringstream s;
    s << in.rdbuf();
    const std::string text = s.str();
    const JsonReader r(path, JsonReader::TextPlace::line_and_column);
    const json root = r.parse(text, kExpected);
    std::string base;
    const json* events = &root;
    if (root.is_object() && root.contains("traceEvents")) { // Chrome's object form
        events = &root["traceEvents"];
        base = "/traceEvents";
    }
    if (!events->is_array())
        r.fail(base, "expected " + kExpected);

    struct Span {
        double ts, dur;
    };
    std::vector<Span> runs;
    std::vector<TimedEvent> kernels;
    for (std::size_t i = 0; i < events->size(); ++i) {
        const std::string at = child_pointer(base, i);
        const json& event = (*events)[i];
        r.expect_object(event, at, "a trace event object");
        const auto cat = event.find("cat");
        const auto name = event.find("name");
        if (cat == event.end() || !cat->is_string() || name == event.end() || !name->is_string())
            continue; // metadata and other tools' events
        const std::string& category = cat->get_ref<const std::string&>();
        const std::string& label = name->get_ref<const std::string&>();
        if (category == "Session" && label == "model_run") {
            runs.push_back({r.number(event, at, "ts", true, "us", true).value(),
                            r.number(event, at, "dur", true, "us", true).value()});
            continue;
        }
        if (category != "Node" || !label.ends_with(kKernelSuffix))
            continue;
        TimedEvent timed;
        timed.ts = r.number(event, at, "ts", true, "us", true).value();
        timed.event.us = r.number(event, at, "dur", true, "us", true).value();
        timed.event.node = label.substr(0, label.size() - kKernelSuffix.size());
        timed.event.pointer = at;
        const auto* args = r.object(event, at, "args", true, "an object with \"op_name\"");
        timed.event.op = r.string(*args, at + "/args", "op_name", true, "the node's operator type");
        if (const auto p = args->find("provider"); p != args->end() && p->is_string())
            timed.event.provider = p->get<std::string>();
        if (const auto shapes = args->find("input_type_shape"); shapes != args->end())
            timed.event.input_shapes = read_shapes(r, *shapes, at + "/args/input_type_shape");
        kernels.push_back(std::move(timed));
    }
    if (runs.empty())
        throw InputError(path, base,
                         "no \"model_run\" event (cat \"Session\"); expected the trace of a "
                         "session that ran the model at least once, written by enable_profiling");
    if (kernels.empty())
        throw InputError(path, base,
                         "no per-kernel events (cat \"Node\", name \"<node>_kernel_time\"); "
                         "expected the trace of a session that ran the model with "
                         "enable_profiling on");

    std::sort(runs.begin(), runs.end(), [](const Span& a, const Span& b) { return a.ts < b.ts; });
    std::stable_sort(kernels.begin(), kernels.end(),
                     [](const TimedEvent& a, const TimedEvent& b) { return a.ts < b.ts; });
    OrtTrace trace;
    trace.file = path;
    trace.runs.resize(runs.size());
    for (const auto& run : runs)
        trace.run_ms.push_back(run.dur / 1000);
    std::size_t run = 0;
    for (auto& k : kernels) {
        while (run < runs.size() && k.ts > runs[run].ts + runs[run].dur)
            ++run;
        if (run == runs.size())
            break;
        if (k.ts >= runs[run].ts) // kernels outside every run (none seen so far) are left out
            trace.runs[run].push_back(std::move(k.event));
    }
    return trace;
}

std::map<std::string, graph::Shape>
ort_trace_input_shapes(const OrtTrace& trace, const graph::Model& model,
                       const std::vector<graph::WrittenNode>& optimized) {
    std::map<std::string, graph::Shape> shapes;
    for (const int t : model.inputs) {
        const std::string& input = model.tensors[static_cast<std::size_t>(t)].name;
        // (kernel name, input position) pairs that read the graph input
        std::vector<std::pair<std::string, std::size_t>> readers;
        if (!optimized.empty()) {
            for (const auto& node : optimized)
                for (std::size_t i = 0; i < node.inputs.size(); ++i)
                    if (node.inputs[i] == input)
                        readers.emplace_back(node.name, i);
        } else {
            for (const int c : model.tensors[static_cast<std::size_t>(t)].consumers) {
                const auto& node = model.nodes[static_cast<std::size_t>(c)];
                for (std::size_t i = 0; i < node.inputs.size(); ++i)
                    if (node.inputs[i] == t)
                        readers.emplace_back(node.name, i);
            }
        }
        bool found = false;
        for (const auto& run : trace.runs) {
            for (const auto& event : run)
                for (const auto& [name, position] : readers)
                    if ((event.node == name || grown_from(event.node) == name) &&
                        position < event.input_shapes.size()) {
                        shapes[input] = event.input_shapes[position];
                        found = true;
                        break;
                    }
            if (found)
                break;
        }
    }
    return shapes;
}

namespace {

// A kernel of the trace: its first event and its time in each run kept.
struct TraceKernel {
    const OrtKernelEvent* first = nullptr;
    std::vector<double> us;
};

// Kernels by (node name, occurrence within a run), in the order they first ran, over runs
// [skipped, end); their end-to-end times go to result.run, their providers to result.providers.
std::vector<TraceKernel> trace_kernels(const OrtTrace& trace, int skipped, int end,
                                       OrtImport& result) {
    std::vector<TraceKernel> kernels;
    std::map<std::pair<std::string, int>, std::size_t> index;
    MeasuredRun& run = result.run;
    for (std::size_t r = static_cast<std::size_t>(skipped); r < static_cast<std::size_t>(end);
         ++r) {
        run.e2e_ms.push_back(trace.run_ms[r]);
        std::map<std::string, int> seen;
        for (const auto& event : trace.runs[r]) {
            const auto key = std::make_pair(event.node, seen[event.node]++);
            auto [it, added] = index.emplace(key, kernels.size());
            if (added)
                kernels.push_back({&event, {}});
            kernels[it->second].us.push_back(event.us);
            if (!event.provider.empty() &&
                std::find(result.providers.begin(), result.providers.end(), event.provider) ==
                    result.providers.end())
                result.providers.push_back(event.provider);
        }
    }
    return kernels;
}

// Each kernel's node in the optimised graph: the first not yet taken with its name and op.
// Per optimised node, its kernel (-1: none).
std::vector<int> optimized_kernels(const OrtTrace& trace, const std::vector<TraceKernel>& kernels,
                                   const std::vector<graph::WrittenNode>& optimized,
                                   const OrtImportOptions& options) {
    std::vector<int> kernel_of_optimized(optimized.size(), -1);
    if (optimized.empty())
        return kernel_of_optimized;
    std::unordered_map<std::string, std::vector<int>> by_name;
    for (std::size_t o = 0; o < optimized.size(); ++o)
        by_name[optimized[o].name].push_back(static_cast<int>(o));
    for (std::size_t k = 0; k < kernels.size(); ++k) {
        const auto& event = *kernels[k].first;
        int match = -1;
        // ORT calls a node the optimised model leaves unnamed "<op>_<node index>".
        std::vector<std::string> names{event.node};
        if (is_unnamed_node_label(event.node, event.op))
            names.emplace_back();
        for (const auto& name : names) {
            const auto it = by_name.find(name);
            if (it == by_name.end() || match >= 0)
                continue;
            for (const int o : it->second)
                if (kernel_of_optimized[static_cast<std::size_t>(o)] < 0 &&
                    optimized[static_cast<std::size_t>(o)].op == event.op) {
                    match = o;
                    break;
                }
        }
        if (match < 0)
            throw InputError(trace.file,
                             event.pointer + " (node '" + event.node + "', " + event.op + ")",
                             "names a node that " + options.optimized_file +
                                 " does not have; expected the optimised model saved by the "
                                 "session that wrote this trace");
        kernel_of_optimized[static_cast<std::size_t>(match)] = static_cast<int>(k);
    }
    return kernel_of_optimized;
}

// Per model node, the kernel that computes it (-1: none yet); the first claim holds.
struct NodeClaims {
    std::vector<int> of_node;

    void claim(int node, int kernel) {
        if (node >= 0 && kernel >= 0 && of_node[static_cast<std::size_t>(node)] < 0)
            of_node[static_cast<std::size_t>(node)] = kernel;
    }
};

// A node the optimiser kept (or fused into a node that kept its name), a node whose output a
// kernel writes (fusions keep the last node's output), or, without the optimised graph, a node
// a kernel names; then the node a fused kernel is named after.
void claim_named_nodes(NodeClaims& claims, const graph::Model& model,
                       const std::vector<TraceKernel>& kernels,
                       const std::vector<graph::WrittenNode>& optimized,
                       const std::vector<int>& kernel_of_optimized) {
    const std::size_t count = model.nodes.size();
    if (!optimized.empty()) {
        std::unordered_map<std::string, int> kernel_by_name;
        std::unordered_map<std::string, int> kernel_by_output;
        for (std::size_t o = 0; o < optimized.size(); ++o) {
            const int k = kernel_of_optimized[o];
            if (k < 0)
                continue;
            if (!optimized[o].name.empty())
                kernel_by_name.emplace(optimized[o].name, k);
            for (const auto& out : optimized[o].outputs)
                if (!out.empty())
                    kernel_by_output.emplace(out, k);
        }
        for (std::size_t n = 0; n < count; ++n)
            if (const auto it = kernel_by_name.find(model.nodes[n].name);
                it != kernel_by_name.end())
                claims.claim(static_cast<int>(n), it->second);
        // A node whose output a kernel writes: fusions keep the last node's output.
        for (std::size_t n = 0; n < count; ++n)
            for (const int t : model.nodes[n].outputs)
                if (t >= 0)
                    if (const auto it =
                            kernel_by_output.find(model.tensors[static_cast<std::size_t>(t)].name);
                        it != kernel_by_output.end())
                        claims.claim(static_cast<int>(n), it->second);
    } else {
        for (std::size_t k = 0; k < kernels.size(); ++k)
            claims.claim(model.find_node(kernels[k].first->node), static_cast<int>(k));
    }
    for (std::size_t k = 0; k < kernels.size(); ++k)
        claims.claim(model.find_node(grown_from(kernels[k].first->node)), static_cast<int>(k));
}

// MatMulAddFusion turns a 3-D MatMul + Add into a Gemm between two Reshapes it adds; the second
// writes the Add's output, or, merged with a Reshape after the Add (FuseContiguousReshapes),
// that Reshape's, so the Add is claimed by it or by no kernel. It is computed by the Gemm its
// MatMul went to.
void claim_gemm_adds(NodeClaims& claims, const graph::Model& model,
                     const std::vector<TraceKernel>& kernels) {
    const std::size_t count = model.nodes.size();
    for (std::size_t n = 0; n < count; ++n) {
        const int k = claims.of_node[n];
        if (model.nodes[n].op != "Add" ||
            (k >= 0 &&
             grown_from(kernels[static_cast<std::size_t>(k)].first->node) != "gemm_output_reshape"))
            continue;
        for (const int t : model.nodes[n].inputs) {
            const int p = t < 0 ? -1 : model.tensors[static_cast<std::size_t>(t)].producer;
            const int gemm = p < 0 ? -1 : claims.of_node[static_cast<std::size_t>(p)];
            if (gemm >= 0 && model.nodes[static_cast<std::size_t>(p)].op == "MatMul" &&
                kernels[static_cast<std::size_t>(gemm)].first->op == "Gemm") {
                claims.of_node[n] = gemm;
                break;
            }
        }
    }
}

// FuseContiguousReshapes merges a chain of Reshape, Squeeze and Unsqueeze nodes into one Reshape
// named after the chain's first ("<first>_new_reshape"); the rest of the chain, gone from the
// optimised graph, is computed by it (timm's Swin: two Reshapes into a 3-D MatMul, merged with
// the Gemm's input Reshape), not by the kernel the chain feeds.
void claim_merged_reshapes(NodeClaims& claims, const graph::Model& model,
                           const std::vector<TraceKernel>& kernels) {
    const auto reshape_like = [](const std::string& op) {
        return op == "Reshape" || op == "Squeeze" || op == "Unsqueeze";
    };
    for (std::size_t k = 0; k < kernels.size(); ++k) {
        const std::string& name = kernels[k].first->node;
        if (!name.ends_with("_new_reshape"))
            continue;
        int n = model.find_node(grown_from(name));
        while (n >= 0 && claims.of_node[static_cast<std::size_t>(n)] == static_cast<int>(k)) {
            const auto next = model.consumers_of(model.nodes[static_cast<std::size_t>(n)]);
            if (next.size() != 1 || claims.of_node[static_cast<std::size_t>(next[0])] >= 0 ||
                !reshape_like(model.nodes[static_cast<std::size_t>(next[0])].op))
                break;
            claims.claim(next[0], static_cast<int>(k));
            n = next[0];
        }
    }
}

// Nodes no kernel claims were fused into a kernel next to them. The optimised graph keeps a
// fusion's output, so such a node fed the kernel that took its pattern; by names alone, ORT's
// fusions mostly grow from their first node (Conv + BatchNormalization + Relu), so a node joins
// the kernel it reads from, except the f of x * f(x).
void claim_fused_neighbours(NodeClaims& claims, const graph::Model& model,
                            const std::vector<bool>& constant, bool with_optimized) {
    const std::size_t count = model.nodes.size();
    if (with_optimized) {
        for (std::size_t n = count; n-- > 0;)
            if (!constant[n])
                claims.claim(static_cast<int>(n),
                             earliest_consumer_kernel(model, model.nodes[n], claims.of_node));
        for (std::size_t n = 0; n < count; ++n)
            if (!constant[n])
                claims.claim(static_cast<int>(n),
                             latest_producer_kernel(model, model.nodes[n], claims.of_node));
    } else {
        for (std::size_t n = 0; n < count; ++n)
            if (!constant[n] && claims.of_node[n] < 0) {
                const int gate = gate_consumer_kernel(model, model.nodes[n], claims.of_node);
                claims.claim(static_cast<int>(n),
                             gate >= 0
                                 ? gate
                                 : latest_producer_kernel(model, model.nodes[n], claims.of_node));
            }
        for (std::size_t n = count; n-- > 0;)
            if (!constant[n])
                claims.claim(static_cast<int>(n),
                             earliest_consumer_kernel(model, model.nodes[n], claims.of_node));
    }
}

// Load-time constants, as the shared Xeon measurements list them: one whose tensor the optimised
// graph still has belongs to the kernel that reads it, to none when several do (ORT keeps one of
// several equal constants and points every reader at it); one whose tensor the optimiser removed
// (a duplicate, or folded away) to the kernel of its first reader.
void claim_constants(NodeClaims& claims, const graph::Model& model,
                     const std::vector<bool>& constant,
                     const std::vector<graph::WrittenNode>& optimized,
                     const std::vector<int>& kernel_of_optimized) {
    const std::size_t count = model.nodes.size();
    std::unordered_map<std::string, std::set<int>> readers;
    for (std::size_t o = 0; o < optimized.size(); ++o)
        if (const int k = kernel_of_optimized[o]; k >= 0)
            for (const auto& in : optimized[o].inputs)
                readers[in].insert(k);
    for (std::size_t n = count; n-- > 0;) {
        if (!constant[n] || claims.of_node[n] >= 0)
            continue;
        std::set<int> reading;
        bool kept = false;
        for (const int t : model.nodes[n].outputs)
            if (t >= 0)
                if (const auto it = readers.find(model.tensors[static_cast<std::size_t>(t)].name);
                    it != readers.end()) {
                    kept = true;
                    reading.insert(it->second.begin(), it->second.end());
                }
        if (!kept)
            claims.claim(static_cast<int>(n),
                         earliest_consumer_kernel(model, model.nodes[n], claims.of_node));
        else if (reading.size() == 1)
            claims.claim(static_cast<int>(n), *reading.begin());
    }
}

// The precision the model computes in: its first floating-point input's, else its first
// floating-point output's (a decoder's first input is its token ids), else its first input's.
graph::DataType computing_dtype(const graph::Model& model) {
    for (const auto* list : {&model.inputs, &model.outputs})
        for (const int t : *list)
            if (graph::is_floating(model.tensors[static_cast<std::size_t>(t)].dtype))
                return model.tensors[static_cast<std::size_t>(t)].dtype;
    return model.tensors[static_cast<std::size_t>(model.inputs.front())].dtype;
}

// The run: the model's input, the variation of its times, and per kernel its name, op, domain,
// the nodes it covers and its median time.
void fill_run(MeasuredRun& run, const graph::Model& model, const OrtImportOptions& options,
              const std::vector<TraceKernel>& kernels,
              const std::vector<graph::WrittenNode>& optimized,
              const std::vector<int>& kernel_of_optimized, const std::vector<int>& kernel_of_node) {
    const std::size_t count = model.nodes.size();
    run.model = graph::model_name(model.file);
    run.threads = options.threads;
    if (!model.inputs.empty()) {
        const auto& input = model.tensors[static_cast<std::size_t>(model.inputs[0])];
        run.dtype = std::string(graph::to_string(computing_dtype(model)));
        if (input.shape)
            run.input_shape = *input.shape;
    }
    run.cv = coefficient_of_variation(run.e2e_ms);
    for (std::size_t k = 0; k < kernels.size(); ++k) {
        const auto& event = *kernels[k].first;
        MeasuredKernel kernel;
        kernel.name = event.node;
        kernel.op = event.op;
        int o = -1;
        for (std::size_t i = 0; i < optimized.size() && o < 0; ++i)
            if (kernel_of_optimized[i] == static_cast<int>(k))
                o = static_cast<int>(i);
        kernel.domain =
            o >= 0 ? optimized[static_cast<std::size_t>(o)].domain : contrib_domain(event.op);
        for (std::size_t n = 0; n < count; ++n)
            if (kernel_of_node[n] == static_cast<int>(k))
                kernel.covers.push_back(model.nodes[n].name);
        kernel.us = median(kernels[k].us);
        run.kernels.push_back(std::move(kernel));
    }
}

} // namespace

OrtImport import_ort_profile(const OrtTrace& trace, const graph::Model& model,
                             const std::vector<graph::WrittenNode>& optimized,
                             const OrtImportOptions& options) {
    OrtImport result;
    result.runs_in_trace = static_cast<int>(trace.runs.size());
    const int skipped = std::clamp(options.warmups, 0, result.runs_in_trace - 1);
    const int end = options.runs > 0 ? std::min(result.runs_in_trace, skipped + options.runs)
                                     : result.runs_in_trace;
    result.runs_kept = end - skipped;
    const auto kernels = trace_kernels(trace, skipped, end, result);
    const auto kernel_of_optimized = optimized_kernels(trace, kernels, optimized, options);

    const std::size_t count = model.nodes.size();
    NodeClaims claims{std::vector<int>(count, -1)};
    claim_named_nodes(claims, model, kernels, optimized, kernel_of_optimized);
    claim_gemm_adds(claims, model, kernels);
    claim_merged_reshapes(claims, model, kernels);
    const std::vector<bool> constant = fusion::load_time_constants(model);
    claim_fused_neighbours(claims, model, constant, !optimized.empty());
    if (!optimized.empty())
        claim_constants(claims, model, constant, optimized, kernel_of_optimized);

    bool any_covered = false;
    for (std::size_t n = 0; n < count; ++n) {
        result.run_time_nodes += constant[n] ? 0 : 1;
        if (claims.of_node[n] >= 0) {
            result.covered_nodes += constant[n] ? 0 : 1;
            any_covered = true;
        }
    }
    if (!any_covered)
        throw InputError(trace.file, "",
                         "none of its " + std::to_string(kernels.size()) +
                             " kernels is a node of " + model.file + " (the first is '" +
                             kernels.front().first->node +
                             "'); expected the trace of a session of this model");
    fill_run(result.run, model, options, kernels, optimized, kernel_of_optimized, claims.of_node);
    return result;
}

} // namespace cleave::profile
