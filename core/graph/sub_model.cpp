#include "sub_model.hpp"

#include "../input_error.hpp"
#include "autodice_names.hpp"
#include "mapped_file.hpp"
#include "model_file.hpp"
#include "node_inference.hpp"
#include "onnx_source.hpp"
#include "weight_payloads.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>
#include <sys/uio.h>
#include <unistd.h>
#include <unordered_map>
#include <unordered_set>

namespace cleave::graph {

namespace {

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedOutputStream;

// Field numbers from onnx.proto.
constexpr int kModelGraph = 7;
constexpr int kGraphInitializer = 5;
constexpr int kTensorRawData = 9;

std::string in_quotes(const std::string& s) {
    return "'" + s + "'";
}

// The tag and length prefix of a length-delimited field.
std::string field_header(int number, std::uint64_t length) {
    std::uint8_t bytes[24];
    std::uint8_t* p = CodedOutputStream::WriteTagToArray(
        WireFormatLite::MakeTag(number, WireFormatLite::WIRETYPE_LENGTH_DELIMITED), bytes);
    p = CodedOutputStream::WriteVarint64ToArray(length, p);
    return std::string(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(p - bytes));
}

bool has_subgraph(const onnx::NodeProto& node) {
    return std::any_of(
        node.attribute().begin(), node.attribute().end(),
        [](const onnx::AttributeProto& a) { return a.has_g() || a.graphs_size() > 0; });
}

// What went wrong writing or reading `file`, with errno's reason.
[[noreturn]] void fail(const std::filesystem::path& file, const std::string& what) {
    throw InputError(file.string(), "", what + " (" + std::strerror(errno) + ")");
}

// Everything the file needs, in order: owned byte strings and spans of the mapped model file.
class Pieces {
public:
    void add(std::string bytes) {
        owned_.push_back(std::move(bytes));
        spans_.emplace_back();
        owner_.push_back(static_cast<int>(owned_.size()) - 1);
    }
    void add(std::span<const std::uint8_t> bytes) {
        spans_.push_back(bytes);
        owner_.push_back(-1);
    }

    std::uint64_t write(const std::filesystem::path& file, bool sync) const {
        std::vector<iovec> vectors;
        std::uint64_t total = 0;
        for (std::size_t i = 0; i < spans_.size(); ++i) {
            iovec v{};
            if (owner_[i] >= 0) {
                const auto& s = owned_[static_cast<std::size_t>(owner_[i])];
                v.iov_base = const_cast<char*>(s.data());
                v.iov_len = s.size();
            } else {
                v.iov_base = const_cast<std::uint8_t*>(spans_[i].data());
                v.iov_len = spans_[i].size();
            }
            total += v.iov_len;
            if (v.iov_len > 0)
                vectors.push_back(v);
        }
        const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0)
            fail(file, "cannot create the file");
        std::size_t next = 0;
        while (next < vectors.size()) {
            const int count =
                static_cast<int>(std::min<std::size_t>(vectors.size() - next, IOV_MAX));
            const ssize_t n = ::writev(fd, vectors.data() + next, count);
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                const int error = errno;
                ::close(fd);
                errno = error;
                fail(file, "cannot write the file");
            }
            // Skip what was written; a partial write leaves the rest of one vector.
            auto left = static_cast<std::size_t>(n);
            while (next < vectors.size() && left >= vectors[next].iov_len)
                left -= vectors[next++].iov_len;
            if (left > 0) {
                vectors[next].iov_base = static_cast<char*>(vectors[next].iov_base) + left;
                vectors[next].iov_len -= left;
            }
        }
        // Without sync, writeback starts now and the caller syncs later (many files, one wait).
        if (sync ? ::fsync(fd) != 0 : ::sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE) != 0) {
            const int error = errno;
            ::close(fd);
            errno = error;
            fail(file, "cannot flush the file");
        }
        if (::close(fd) != 0)
            fail(file, "cannot close the file");
        return total;
    }

private:
    std::vector<std::string> owned_;
    std::vector<std::span<const std::uint8_t>> spans_;
    std::vector<int> owner_;
};

} // namespace

SubModelPlan plan_sub_model(const Model& model, std::vector<int> nodes) {
    std::sort(nodes.begin(), nodes.end());
    std::vector<char> inside(model.nodes.size(), 0);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const int n = nodes[i];
        if (n < 0 || n >= static_cast<int>(model.nodes.size()))
            throw InputError(model.file, "node #" + std::to_string(n),
                             "is no node of the model (it has " +
                                 std::to_string(model.nodes.size()) + ")");
        if (i > 0 && nodes[i - 1] == n)
            throw InputError(model.file, "node " + in_quotes(model.nodes[n].name),
                             "is listed twice for one sub-model");
        inside[static_cast<std::size_t>(n)] = 1;
    }
    if (model.source)
        for (const int n : nodes)
            if (has_subgraph(model.source->proto.graph().node(n)))
                throw InputError(model.file, "node " + in_quotes(model.nodes[n].name),
                                 "has a subgraph attribute (" + model.nodes[n].op +
                                     "); sub-models of such nodes are not supported");

    SubModelPlan plan;
    plan.nodes = std::move(nodes);
    std::vector<char> seen(model.tensors.size(), 0);
    std::vector<int> activations;
    for (const int n : plan.nodes)
        for (const int t : model.nodes[n].inputs) {
            if (t < 0 || seen[t])
                continue;
            const Tensor& tensor = model.tensors[t];
            if (tensor.producer >= 0 && inside[tensor.producer])
                continue;
            seen[t] = 1;
            if (tensor.kind == Tensor::Kind::Initializer)
                plan.initializers.push_back(t);
            else if (tensor.kind == Tensor::Kind::GraphInput)
                plan.inputs.push_back(t);
            else
                activations.push_back(t);
        }
    plan.inputs.insert(plan.inputs.end(), activations.begin(), activations.end());
    for (const int n : plan.nodes)
        for (const int t : model.nodes[n].outputs) {
            if (t < 0)
                continue;
            const Tensor& tensor = model.tensors[t];
            const bool read_elsewhere =
                std::any_of(tensor.consumers.begin(), tensor.consumers.end(),
                            [&](int c) { return !inside[static_cast<std::size_t>(c)]; });
            if (tensor.is_graph_output || read_elsewhere)
                plan.outputs.push_back(t);
        }
    return plan;
}

std::filesystem::path sub_model_data_file(const std::filesystem::path& file) {
    return file.string() + ".data";
}

std::string sub_model_tensor_name(const std::string& name, SubModelNaming naming) {
    if (naming == SubModelNaming::model)
        return name;
    std::string renamed = name;
    std::replace(renamed.begin(), renamed.end(), '/', '_');
    return renamed;
}

namespace {

// The types a model's tensors take at any binding of the dims its file leaves symbolic: inferred
// again from the file's own declarations of its inputs and outputs (empty where the file binds
// nothing, or that inference fails), so that a sub-model runs wherever the whole model does, a
// decoder's at every step.
std::unordered_map<std::string, onnx::TypeProto> symbolic_types(const OnnxSource& source) {
    std::unordered_map<std::string, onnx::TypeProto> types;
    if (source.file_inputs.empty())
        return types;
    onnx::ModelProto copy;
    copy.set_ir_version(source.proto.ir_version());
    *copy.mutable_opset_import() = source.proto.opset_import();
    *copy.mutable_functions() = source.proto.functions();
    auto& graph = *copy.mutable_graph();
    *graph.mutable_node() = source.proto.graph().node(); // sorted; large payloads held apart
    *graph.mutable_initializer() = source.proto.graph().initializer();
    for (const auto& v : source.file_inputs)
        *graph.add_input() = v;
    for (const auto& v : source.file_outputs)
        *graph.add_output() = v;
    try {
        infer_node_by_node(copy, [](const std::string&) {});
    } catch (const std::exception&) {
        return types; // element types alone, then
    }
    for (const auto* list : {&graph.input(), &graph.value_info(), &graph.output()})
        for (const auto& v : *list)
            types[v.name()] = v.type();
    return types;
}

// One sub-model being written: the whole model's graph, the sub-model's tensor names (each
// renamed once, checked for collisions) and where the declared types are.
class SubModelWriter {
public:
    SubModelWriter(const Model& model, const SubModelPlan& plan, SubModelNaming naming)
        : model_(model), plan_(plan), naming_(naming), source_(*model.source),
          graph_(source_.proto.graph()) {
        // Where the declared types are: graph inputs, value_info (inferred) and graph outputs.
        for (const auto& v : graph_.value_info())
            declared_.emplace(v.name(), &v);
        for (const auto& v : graph_.output())
            declared_.emplace(v.name(), &v);
        for (const auto& v : graph_.input())
            graph_inputs_.emplace(v.name(), &v);
    }

    std::uint64_t write(const std::filesystem::path& file, bool sync) {
        onnx::GraphProto sub;
        sub.set_name(graph_.name());
        add_nodes(sub);
        const std::vector<int> streamed = add_initializers(sub);
        add_values(sub);
        if (!external_.empty())
            write_external_data(sub, file, sync);
        return pieces(sub, streamed).write(file, sync);
    }

private:
    const std::string& name_of(const std::string& original) {
        auto it = names_.find(original);
        if (it != names_.end())
            return it->second;
        std::string renamed = sub_model_tensor_name(original, naming_);
        if (!taken_.insert(renamed).second)
            throw InputError(model_.file, "tensor " + in_quotes(original),
                             "its AutoDiCE name " + in_quotes(renamed) +
                                 " is also another tensor's; rename one of them in the model");
        return names_.emplace(original, std::move(renamed)).first->second;
    }

    // Tensor t's type and shape as declared, else as inferred, under its sub-model name; for a
    // model whose file leaves dims symbolic, as they are at any binding.
    void value_info(onnx::ValueInfoProto* out, int t) {
        const Tensor& tensor = model_.tensors[t];
        if (symbolic_) {
            if (const auto it = symbolic_types_.find(tensor.name); it != symbolic_types_.end())
                *out->mutable_type() = it->second;
            auto* type = out->mutable_type()->mutable_tensor_type();
            if (type->elem_type() == 0)
                type->set_elem_type(static_cast<std::int32_t>(tensor.dtype));
            out->set_name(name_of(tensor.name));
            return;
        }
        const onnx::ValueInfoProto* found = nullptr;
        if (const auto input = graph_inputs_.find(tensor.name); input != graph_inputs_.end())
            found = input->second;
        else if (const auto d = declared_.find(tensor.name); d != declared_.end())
            found = d->second;
        if (found)
            out->CopyFrom(*found);
        else if (tensor.dtype != DataType::Undefined) {
            auto* type = out->mutable_type()->mutable_tensor_type();
            type->set_elem_type(static_cast<std::int32_t>(tensor.dtype));
            if (tensor.shape) {
                auto* shape = type->mutable_shape();
                for (const auto d : *tensor.shape)
                    if (d >= 0)
                        shape->add_dim()->set_dim_value(d);
                    else
                        shape->add_dim();
            }
        }
        out->set_name(name_of(tensor.name));
    }

    void add_nodes(onnx::GraphProto& sub) {
        for (const int n : plan_.nodes) {
            onnx::NodeProto* node = sub.add_node();
            node->CopyFrom(graph_.node(n));
            node->set_name(naming_ == SubModelNaming::autodice
                               ? autodice_name(model_, model_.nodes[n])
                               : model_.nodes[n].name);
            for (auto& in : *node->mutable_input())
                if (!in.empty())
                    in = name_of(in);
            for (auto& out : *node->mutable_output())
                if (!out.empty())
                    out = name_of(out);
        }
    }

    // The initializers the nodes read: small ones copied into the graph; returns the large
    // ones, whose raw bytes stay in the mapped file and are streamed after it.
    std::vector<int> add_initializers(onnx::GraphProto& sub) {
        std::unordered_map<std::string, int> initializer_index;
        for (int i = 0; i < graph_.initializer_size(); ++i)
            initializer_index.emplace(graph_.initializer(i).name(), i);
        std::vector<int> streamed;
        for (const int t : plan_.initializers) {
            const std::string& original = model_.tensors[t].name;
            const int i = initializer_index.at(original);
            const onnx::TensorProto& tensor = graph_.initializer(i);
            if (tensor.data_location() == onnx::TensorProto::EXTERNAL) {
                external_.push_back({i, sub.initializer_size()});
                onnx::TensorProto* copy = sub.add_initializer();
                copy->CopyFrom(tensor);
                copy->set_name(name_of(original));
                continue;
            }
            if (source_.initializer_payloads[static_cast<std::size_t>(i)]) {
                streamed.push_back(i);
                continue;
            }
            onnx::TensorProto* copy = sub.add_initializer();
            copy->CopyFrom(tensor);
            copy->set_name(name_of(original));
        }
        return streamed;
    }

    // Inputs: graph inputs the nodes read (an initializer listed as input stays listed), then
    // the activations produced elsewhere; the outputs; the shapes of the tensors inside, for
    // runtimes that read them.
    void add_values(onnx::GraphProto& sub) {
        for (const auto& v : graph_.input()) {
            const int t = model_.find_tensor(v.name());
            if (t < 0 || model_.tensors[t].kind != Tensor::Kind::Initializer)
                continue;
            if (std::find(plan_.initializers.begin(), plan_.initializers.end(), t) !=
                plan_.initializers.end())
                value_info(sub.add_input(), t);
        }
        for (const int t : plan_.inputs)
            value_info(sub.add_input(), t);
        for (const int t : plan_.outputs)
            value_info(sub.add_output(), t);
        if (symbolic_)
            return; // inside, the runtime infers them at each binding
        std::unordered_set<int> border(plan_.outputs.begin(), plan_.outputs.end());
        for (const int n : plan_.nodes)
            for (const int t : model_.nodes[n].outputs)
                if (t >= 0 && !border.count(t) && declared_.count(model_.tensors[t].name))
                    value_info(sub.add_value_info(), t);
    }

    // The whole model's ModelProto fields, less its graph.
    onnx::ModelProto header() const {
        const onnx::ModelProto& whole = source_.proto;
        onnx::ModelProto out;
        out.set_ir_version(whole.ir_version());
        *out.mutable_opset_import() = whole.opset_import();
        out.set_producer_name(whole.producer_name());
        out.set_producer_version(whole.producer_version());
        out.set_domain(whole.domain());
        out.set_model_version(whole.model_version());
        *out.mutable_metadata_props() = whole.metadata_props();
        *out.mutable_functions() = whole.functions();
        return out;
    }

    // ModelProto fields, then the graph: its small part, then each large initializer as its
    // TensorProto header followed by the raw bytes from the model file.
    Pieces pieces(const onnx::GraphProto& sub, const std::vector<int>& streamed) {
        Pieces out;
        std::string graph_bytes = sub.SerializeAsString();
        std::vector<std::string> tensor_heads;
        std::uint64_t graph_length = graph_bytes.size();
        for (const int i : streamed) {
            onnx::TensorProto head = graph_.initializer(i);
            head.set_name(name_of(head.name()));
            const auto payload = source_.raw_initializer(i);
            std::string bytes = head.SerializeAsString();
            bytes += field_header(kTensorRawData, payload.size());
            const std::uint64_t tensor_length = bytes.size() + payload.size();
            bytes.insert(0, field_header(kGraphInitializer, tensor_length));
            graph_length += bytes.size() + payload.size();
            tensor_heads.push_back(std::move(bytes));
        }
        out.add(header().SerializeAsString() + field_header(kModelGraph, graph_length));
        out.add(std::move(graph_bytes));
        for (std::size_t s = 0; s < streamed.size(); ++s) {
            out.add(std::move(tensor_heads[s]));
            out.add(source_.raw_initializer(streamed[s]));
        }
        return out;
    }

    // The bytes initializer i keeps in its external file: the file, offset and length.
    struct ExternalRange {
        std::filesystem::path file;
        std::int64_t offset = 0;
        std::int64_t length = 0;
    };
    ExternalRange external_range(int i) const {
        const onnx::TensorProto& t = graph_.initializer(i);
        const auto data = external_data(t, model_.file, "initializer " + t.name());
        ExternalRange r{source_.folder / data.location, data.offset, data.length};
        if (r.length < 0) { // the dims' bytes, as the importer checked them
            std::int64_t elements = 1;
            for (const auto d : t.dims())
                elements *= d;
            r.length = storage_bytes(static_cast<DataType>(t.data_type()), elements);
        }
        return r;
    }

    // The external initializers' bytes into FILE.data beside the sub-model, each at an offset
    // of a multiple of 4096 (as exporters align them, so that runtimes can map them), and their
    // TensorProtos pointed there. Blocks of zeros are skipped, not written: the file is sparse
    // where the model's was.
    void write_external_data(onnx::GraphProto& sub, const std::filesystem::path& file, bool sync) {
        constexpr std::int64_t kAlign = 4096;
        constexpr std::size_t kBlock = 1 << 20;
        const std::filesystem::path data = sub_model_data_file(file);
        const int out = ::open(data.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (out < 0)
            fail(data, "cannot create the file");
        std::vector<char> block(kBlock);
        std::int64_t end = 0;
        std::filesystem::path open_path;
        int in = -1;
        auto close_all = [&] {
            if (in >= 0)
                ::close(in);
            ::close(out);
        };
        try {
            for (const auto& [source_index, sub_index] : external_) {
                const ExternalRange range = external_range(source_index);
                if (range.file != open_path) {
                    if (in >= 0)
                        ::close(in);
                    in = ::open(range.file.c_str(), O_RDONLY | O_CLOEXEC);
                    if (in < 0)
                        fail(range.file, "cannot open the model's external data");
                    open_path = range.file;
                }
                const std::int64_t at = (end + kAlign - 1) / kAlign * kAlign;
                for (std::int64_t done = 0; done < range.length;) {
                    const auto want = static_cast<std::size_t>(
                        std::min<std::int64_t>(range.length - done, kBlock));
                    const ssize_t n = ::pread(in, block.data(), want, range.offset + done);
                    if (n <= 0)
                        fail(range.file, n == 0 ? "ends before the bytes an initializer needs"
                                                : "cannot read the model's external data");
                    const auto got = static_cast<std::size_t>(n);
                    const bool zeros = std::all_of(block.begin(), block.begin() + n,
                                                   [](char c) { return c == 0; });
                    for (std::size_t written = 0; !zeros && written < got;) {
                        const ssize_t w = ::pwrite(out, block.data() + written, got - written,
                                                   at + done + static_cast<std::int64_t>(written));
                        if (w < 0 && errno != EINTR)
                            fail(data, "cannot write the file");
                        written += w > 0 ? static_cast<std::size_t>(w) : 0;
                    }
                    done += n;
                }
                end = at + range.length;
                onnx::TensorProto* t = sub.mutable_initializer(sub_index);
                t->clear_external_data();
                auto entry = [&](const char* key, const std::string& value) {
                    auto* e = t->add_external_data();
                    e->set_key(key);
                    e->set_value(value);
                };
                entry("location", data.filename().string());
                entry("offset", std::to_string(at));
                entry("length", std::to_string(range.length));
            }
            if (::ftruncate(out, end) != 0)
                fail(data, "cannot write the file");
            if (sync ? ::fsync(out) != 0 : ::sync_file_range(out, 0, 0, SYNC_FILE_RANGE_WRITE) != 0)
                fail(data, "cannot flush the file");
        } catch (...) {
            close_all();
            throw;
        }
        if (in >= 0)
            ::close(in);
        if (::close(out) != 0)
            fail(data, "cannot close the file");
    }

    const Model& model_;
    const SubModelPlan& plan_;
    SubModelNaming naming_;
    const OnnxSource& source_;
    const onnx::GraphProto& graph_;
    std::unordered_map<std::string, std::string> names_;
    std::unordered_set<std::string> taken_;
    std::unordered_map<std::string, const onnx::ValueInfoProto*> declared_;
    std::unordered_map<std::string, const onnx::ValueInfoProto*> graph_inputs_;
    std::vector<std::pair<int, int>> external_; // (the model's initializer, the sub-model's)
    bool symbolic_ = !source_.file_inputs.empty();
    std::unordered_map<std::string, onnx::TypeProto> symbolic_types_ = symbolic_types(source_);
};

} // namespace

ModelIo read_model_io(const std::filesystem::path& file) {
    const MappedFile mapped(file);
    const auto separated = separate_weight_payloads(mapped.bytes(), file.string(), 4096);
    onnx::ModelProto proto;
    if (!proto.ParseFromString(separated.structure))
        throw InputError(file.string(), "",
                         "not an ONNX model: the protobuf message does not parse as a ModelProto");
    std::unordered_set<std::string> initializers;
    for (const auto& t : proto.graph().initializer())
        initializers.insert(t.name());
    ModelIo io;
    for (const auto& v : proto.graph().input())
        if (!initializers.count(v.name()))
            io.inputs.push_back(v.name());
    for (const auto& v : proto.graph().output())
        io.outputs.push_back(v.name());
    return io;
}

std::uint64_t write_sub_model(const Model& model, const SubModelPlan& plan,
                              const std::filesystem::path& file, SubModelNaming naming, bool sync) {
    if (!model.source)
        throw InputError(model.file, "",
                         "the model was not loaded from ONNX; no sub-model can be written");
    require_weights(model, "writing sub-models");
    return SubModelWriter(model, plan, naming).write(file, sync);
}

} // namespace cleave::graph
