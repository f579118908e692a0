// Builds small ONNX models in tests, so each importer behaviour has a model made for it.
#pragma once

#include <cstdint>
#include <fstream>
#include <onnx/onnx_pb.h>
#include <string>
#include <vector>

namespace cleave::test {

class OnnxBuilder {
public:
    explicit OnnxBuilder(std::int64_t opset = 17) {
        model.set_ir_version(8);
        model.set_producer_name("cleave-tests");
        auto* import = model.add_opset_import();
        import->set_domain("");
        import->set_version(opset);
        model.mutable_graph()->set_name("test");
    }

    onnx::GraphProto& graph() { return *model.mutable_graph(); }

    // A float input; a dim < 0 becomes a symbolic dim named "N".
    void input(const std::string& name, const std::vector<std::int64_t>& dims,
               int type = onnx::TensorProto::FLOAT) {
        describe(graph().add_input(), name, dims, type);
    }
    void output(const std::string& name, int type = onnx::TensorProto::FLOAT) {
        auto* v = graph().add_output();
        v->set_name(name);
        v->mutable_type()->mutable_tensor_type()->set_elem_type(type);
    }
    // An initializer filled with zeros (raw_data of the right size).
    onnx::TensorProto& initializer(const std::string& name, const std::vector<std::int64_t>& dims,
                                   int type = onnx::TensorProto::FLOAT,
                                   std::size_t element_bytes = 4) {
        auto* t = graph().add_initializer();
        t->set_name(name);
        t->set_data_type(type);
        std::size_t count = 1;
        for (const auto d : dims) {
            t->add_dims(d);
            count *= static_cast<std::size_t>(d);
        }
        t->set_raw_data(std::string(count * element_bytes, '\0'));
        return *t;
    }
    onnx::TensorProto& int64_initializer(const std::string& name,
                                         const std::vector<std::int64_t>& values) {
        auto* t = graph().add_initializer();
        t->set_name(name);
        t->set_data_type(onnx::TensorProto::INT64);
        t->add_dims(static_cast<std::int64_t>(values.size()));
        for (const auto v : values)
            t->add_int64_data(v);
        return *t;
    }
    onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& inputs,
                          const std::vector<std::string>& outputs, const std::string& name = "") {
        auto* n = graph().add_node();
        n->set_op_type(op);
        n->set_name(name.empty() ? op + "_" + std::to_string(graph().node_size()) : name);
        for (const auto& i : inputs)
            n->add_input(i);
        for (const auto& o : outputs)
            n->add_output(o);
        return *n;
    }
    static void set_int(onnx::NodeProto& n, const std::string& name, std::int64_t value) {
        auto* a = n.add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(value);
    }
    static void set_ints(onnx::NodeProto& n, const std::string& name,
                         const std::vector<std::int64_t>& values) {
        auto* a = n.add_attribute();
        a->set_name(name);
        a->set_type(onnx::AttributeProto::INTS);
        for (const auto v : values)
            a->add_ints(v);
    }

    // Moves initializer `index`'s data out to external `location`; returns the bytes it held.
    std::string make_external(int index, const std::string& location) {
        auto& t = *graph().mutable_initializer(index);
        std::string payload = std::move(*t.mutable_raw_data());
        t.clear_raw_data();
        t.set_data_location(onnx::TensorProto::EXTERNAL);
        auto* entry = t.add_external_data();
        entry->set_key("location");
        entry->set_value(location);
        return payload;
    }

    std::vector<std::uint8_t> bytes() const {
        const std::string s = model.SerializeAsString();
        return {s.begin(), s.end()};
    }
    void save(const std::string& path) const {
        std::ofstream out(path, std::ios::binary);
        model.SerializeToOstream(&out);
    }

    onnx::ModelProto model;

private:
    static void describe(onnx::ValueInfoProto* v, const std::string& name,
                         const std::vector<std::int64_t>& dims, int type) {
        v->set_name(name);
        auto* t = v->mutable_type()->mutable_tensor_type();
        t->set_elem_type(type);
        auto* shape = t->mutable_shape();
        for (const auto d : dims) {
            auto* dim = shape->add_dim();
            if (d < 0)
                dim->set_dim_param("N");
            else
                dim->set_dim_value(d);
        }
    }
};

} // namespace cleave::test
