#include "model.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace cleave::graph {

std::string shape_to_string(const std::optional<Shape>& shape) {
    if (!shape)
        return "?";
    if (shape->empty())
        return "scalar";
    std::string text;
    for (std::size_t i = 0; i < shape->size(); ++i) {
        if (i > 0)
            text += 'x';
        text += (*shape)[i] < 0 ? std::string("?") : std::to_string((*shape)[i]);
    }
    return text;
}

std::int64_t element_count(const std::optional<Shape>& shape) {
    if (!shape)
        return -1;
    std::int64_t count = 1;
    bool unknown = false;
    for (const auto dim : *shape) {
        if (dim < 0) {
            unknown = true;
            continue;
        }
        if (__builtin_mul_overflow(count, dim, &count))
            throw std::overflow_error("the product of dims " + shape_to_string(shape) +
                                      " does not fit in 64 bits");
    }
    return unknown ? -1 : count;
}

std::int64_t Tensor::bytes() const {
    const auto count = elements();
    return count < 0 ? -1 : storage_bytes(dtype, count);
}

std::string Attribute::to_string() const {
    std::ostringstream out;
    auto list = [&out](const auto& values, auto&& write) {
        out << '[';
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (i > 0)
                out << ", ";
            write(values[i]);
        }
        out << ']';
    };
    auto quoted = [&out](const std::string& s) { out << '\'' << s << '\''; };
    switch (kind) {
    case Kind::Int:
        out << (ints.empty() ? 0 : ints.front());
        break;
    case Kind::Float:
        out << (floats.empty() ? 0.0 : floats.front());
        break;
    case Kind::String:
        quoted(strings.empty() ? std::string() : strings.front());
        break;
    case Kind::Ints:
        list(ints, [&out](std::int64_t v) { out << v; });
        break;
    case Kind::Floats:
        list(floats, [&out](double v) { out << v; });
        break;
    case Kind::Strings:
        list(strings, quoted);
        break;
    case Kind::Tensor:
    case Kind::Graph:
    case Kind::Other:
        out << summary;
        break;
    }
    return out.str();
}

const Attribute* Node::attribute(std::string_view wanted) const {
    const auto it =
        std::lower_bound(attributes.begin(), attributes.end(), wanted,
                         [](const Attribute& a, std::string_view n) { return a.name < n; });
    return it != attributes.end() && it->name == wanted ? &*it : nullptr;
}

std::int64_t Node::int_attribute(std::string_view wanted, std::int64_t fallback) const {
    const auto* a = attribute(wanted);
    return a && a->kind == Attribute::Kind::Int && !a->ints.empty() ? a->ints.front() : fallback;
}

std::vector<std::int64_t> Node::ints_attribute(std::string_view wanted) const {
    const auto* a = attribute(wanted);
    return a && (a->kind == Attribute::Kind::Ints || a->kind == Attribute::Kind::Int)
               ? a->ints
               : std::vector<std::int64_t>{};
}

int Model::find_tensor(std::string_view wanted) const {
    for (std::size_t i = 0; i < tensors.size(); ++i)
        if (tensors[i].name == wanted)
            return static_cast<int>(i);
    return -1;
}

int Model::find_node(std::string_view wanted) const {
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].name == wanted)
            return static_cast<int>(i);
    return -1;
}

std::vector<int> Model::consumers_of(const Node& node) const {
    std::vector<int> consumers;
    for (const int t : node.outputs)
        if (t >= 0)
            for (const int c : tensors[static_cast<std::size_t>(t)].consumers)
                consumers.push_back(c);
    return consumers;
}

} // namespace cleave::graph
