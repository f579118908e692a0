#include "shape_folding.hpp"

#include "node_inference.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace cleave::graph {

namespace {

using onnx::TensorProto;

// Folding stops at tensors larger than this: shape computations are tiny.
constexpr std::size_t kMaxFoldedElements = 1024;

struct Value {
    int type = TensorProto::INT64; // INT64, INT32 or BOOL
    std::vector<std::int64_t> dims;
    std::vector<std::int64_t> data;
};

using Values = std::unordered_map<std::string, Value>;

bool is_integer(int type) {
    return type == TensorProto::INT64 || type == TensorProto::INT32 || type == TensorProto::BOOL;
}

// Elements of a shape; saturates so that a huge shape is never mistaken for a small one.
std::size_t volume(const std::vector<std::int64_t>& dims) {
    std::size_t n = 1;
    for (const auto d : dims)
        if (__builtin_mul_overflow(n, static_cast<std::size_t>(std::max<std::int64_t>(d, 0)), &n))
            return SIZE_MAX;
    return n;
}

std::optional<Value> from_tensor(const TensorProto& t) {
    if (!is_integer(t.data_type()) || t.data_location() == TensorProto::EXTERNAL)
        return std::nullopt;
    Value v;
    v.type = t.data_type();
    v.dims.assign(t.dims().begin(), t.dims().end());
    const std::size_t count = volume(v.dims);
    if (count > kMaxFoldedElements)
        return std::nullopt;
    if (t.has_raw_data()) {
        const std::size_t width = t.data_type() == TensorProto::INT64   ? 8
                                  : t.data_type() == TensorProto::INT32 ? 4
                                                                        : 1;
        if (t.raw_data().size() != count * width)
            return std::nullopt;
        for (std::size_t i = 0; i < count; ++i) {
            std::int64_t x = 0;
            if (width == 8)
                std::memcpy(&x, t.raw_data().data() + 8 * i, 8);
            else if (width == 4) {
                std::int32_t y = 0;
                std::memcpy(&y, t.raw_data().data() + 4 * i, 4);
                x = y;
            } else
                x = t.raw_data()[i] != 0;
            v.data.push_back(x);
        }
    } else if (t.data_type() == TensorProto::INT64) {
        v.data.assign(t.int64_data().begin(), t.int64_data().end());
    } else {
        v.data.assign(t.int32_data().begin(), t.int32_data().end());
    }
    if (v.data.size() != count)
        return std::nullopt;
    return v;
}

TensorProto to_tensor(const Value& v) {
    TensorProto t;
    t.set_data_type(v.type);
    for (const auto d : v.dims)
        t.add_dims(d);
    for (const auto x : v.data) {
        if (v.type == TensorProto::INT64)
            t.add_int64_data(x);
        else
            t.add_int32_data(static_cast<std::int32_t>(x));
    }
    return t;
}

const onnx::AttributeProto* attribute(const onnx::NodeProto& n, const char* name) {
    for (const auto& a : n.attribute())
        if (a.name() == name)
            return &a;
    return nullptr;
}

std::int64_t int_attribute(const onnx::NodeProto& n, const char* name, std::int64_t fallback) {
    const auto* a = attribute(n, name);
    return a ? a->i() : fallback;
}

// Numpy broadcasting of two small tensors, elementwise.
template <typename Op>
std::optional<Value> broadcast(const Value& a, const Value& b, int type, Op op) {
    const std::size_t rank = std::max(a.dims.size(), b.dims.size());
    std::vector<std::int64_t> dims(rank);
    auto dim = [rank](const Value& v, std::size_t i) {
        const std::size_t offset = rank - v.dims.size();
        return i < offset ? std::int64_t(1) : v.dims[i - offset];
    };
    for (std::size_t i = 0; i < rank; ++i) {
        const auto x = dim(a, i), y = dim(b, i);
        if (x != y && x != 1 && y != 1)
            return std::nullopt;
        dims[i] = std::max(x, y);
    }
    Value out;
    out.type = type;
    out.dims = dims;
    const std::size_t count = volume(dims);
    if (count > kMaxFoldedElements)
        return std::nullopt;
    auto at = [&](const Value& v, std::size_t flat) {
        std::size_t index = 0, stride = 1;
        for (std::size_t i = rank; i-- > 0;) {
            const std::size_t coordinate = (flat / stride) % static_cast<std::size_t>(dims[i]);
            stride *= static_cast<std::size_t>(dims[i]);
            const std::size_t offset = rank - v.dims.size();
            if (i >= offset && v.dims[i - offset] != 1) {
                std::size_t inner = 1;
                for (std::size_t j = i + 1; j < rank; ++j)
                    inner *= static_cast<std::size_t>(dim(v, j));
                index += coordinate * inner;
            }
        }
        return v.data[index];
    };
    for (std::size_t i = 0; i < count; ++i) {
        const auto r = op(at(a, i), at(b, i));
        if (!r)
            return std::nullopt;
        out.data.push_back(*r);
    }
    return out;
}

// Row-major strides of `dims`.
std::vector<std::size_t> strides_of(const std::vector<std::int64_t>& dims) {
    std::vector<std::size_t> strides(dims.size(), 1);
    for (std::size_t i = dims.size(); i-- > 1;)
        strides[i - 1] = strides[i] * static_cast<std::size_t>(dims[i]);
    return strides;
}

// A value of `dims` whose element at each index is the input's element at `source(index)`.
template <typename Source>
Value gather(const Value& in, const std::vector<std::int64_t>& dims, Source source) {
    Value out{in.type, dims, {}};
    const std::size_t count = volume(dims);
    std::vector<std::int64_t> index(dims.size(), 0);
    for (std::size_t i = 0; i < count; ++i) {
        out.data.push_back(in.data[source(index)]);
        for (std::size_t a = dims.size(); a-- > 0;) {
            if (++index[a] < dims[a])
                break;
            index[a] = 0;
        }
    }
    return out;
}

// ONNX Slice (opset 10+) of a small tensor: starts, ends, axes and steps as the operator
// clamps them. As exporters pad (pads reversed by a Slice of step -1 over a [-1, 2] view).
std::optional<Value> slice(const Value& in, const Value& starts, const Value& ends,
                           const Value* axes, const Value* steps) {
    const auto rank = static_cast<std::int64_t>(in.dims.size());
    const std::size_t n = starts.data.size();
    if (ends.data.size() != n || (axes && axes->data.size() != n) ||
        (steps && steps->data.size() != n))
        return std::nullopt;
    std::vector<std::int64_t> first(in.dims.size(), 0), step(in.dims.size(), 1), dims = in.dims;
    for (std::size_t i = 0; i < n; ++i) {
        std::int64_t axis = axes ? axes->data[i] : static_cast<std::int64_t>(i);
        axis = axis < 0 ? axis + rank : axis;
        const std::int64_t s = steps ? steps->data[i] : 1;
        if (axis < 0 || axis >= rank || s == 0 || s == std::numeric_limits<std::int64_t>::min())
            return std::nullopt;
        const auto a = static_cast<std::size_t>(axis);
        const std::int64_t size = in.dims[a];
        auto clamp = [&](std::int64_t x, std::int64_t low, std::int64_t high) {
            if (x < 0)
                x = x < std::numeric_limits<std::int64_t>::min() + size ? low : x + size;
            return std::clamp(x, low, high);
        };
        const std::int64_t begin =
            s > 0 ? clamp(starts.data[i], 0, size) : clamp(starts.data[i], -1, size - 1);
        const std::int64_t end =
            s > 0 ? clamp(ends.data[i], 0, size) : clamp(ends.data[i], -1, size - 1);
        const std::int64_t span = s > 0 ? end - begin : begin - end;
        const std::int64_t magnitude = s > 0 ? s : -s;
        dims[a] = span <= 0 ? 0 : (span + magnitude - 1) / magnitude;
        first[a] = begin;
        step[a] = s;
    }
    const auto strides = strides_of(in.dims);
    return gather(in, dims, [&](const std::vector<std::int64_t>& index) {
        std::size_t flat = 0;
        for (std::size_t a = 0; a < index.size(); ++a)
            flat += static_cast<std::size_t>(first[a] + index[a] * step[a]) * strides[a];
        return flat;
    });
}

// ONNX Transpose of a small tensor; an empty `perm` reverses the axes.
std::optional<Value> transpose(const Value& in, std::vector<std::int64_t> perm) {
    const std::size_t rank = in.dims.size();
    if (perm.empty())
        for (std::size_t i = rank; i-- > 0;)
            perm.push_back(static_cast<std::int64_t>(i));
    std::vector<bool> used(rank, false);
    if (perm.size() != rank)
        return std::nullopt;
    std::vector<std::int64_t> dims;
    for (const auto p : perm) {
        if (p < 0 || static_cast<std::size_t>(p) >= rank || used[static_cast<std::size_t>(p)])
            return std::nullopt;
        used[static_cast<std::size_t>(p)] = true;
        dims.push_back(in.dims[static_cast<std::size_t>(p)]);
    }
    const auto strides = strides_of(in.dims);
    return gather(in, dims, [&](const std::vector<std::int64_t>& index) {
        std::size_t flat = 0;
        for (std::size_t a = 0; a < rank; ++a)
            flat += static_cast<std::size_t>(index[a]) * strides[static_cast<std::size_t>(perm[a])];
        return flat;
    });
}

// The inputs of a node whose values are known (null where not), by position.
using Inputs = std::vector<const Value*>;

// The first `count` inputs are there and known.
bool all_known(const Inputs& in, std::size_t count) {
    if (in.size() < count)
        return false;
    for (std::size_t i = 0; i < count; ++i)
        if (!in[i])
            return false;
    return true;
}

std::optional<Value> fold_constant(const onnx::NodeProto& n) {
    if (const auto* a = attribute(n, "value"))
        return from_tensor(a->t());
    if (const auto* i = attribute(n, "value_int"))
        return Value{TensorProto::INT64, {}, {i->i()}};
    if (const auto* is = attribute(n, "value_ints"))
        return Value{TensorProto::INT64, {is->ints_size()}, {is->ints().begin(), is->ints().end()}};
    return std::nullopt;
}

// Shape's dims of its input from `start` to `end`, where the input's dims are known.
std::optional<Value> fold_shape(const onnx::NodeProto& n, const KnownDims& known_dims) {
    const auto dims = known_dims(n.input(0));
    if (!dims)
        return std::nullopt;
    const auto rank = static_cast<std::int64_t>(dims->size());
    auto clamp = [rank](std::int64_t x) {
        return std::clamp(x < 0 ? x + rank : x, std::int64_t(0), rank);
    };
    const auto start = clamp(int_attribute(n, "start", 0));
    const auto end = clamp(int_attribute(n, "end", rank));
    Value v;
    v.data.assign(dims->begin() + start, dims->begin() + std::max(start, end));
    v.dims = {static_cast<std::int64_t>(v.data.size())};
    return v;
}

std::optional<Value> fold_cast(const onnx::NodeProto& n, const Value& x) {
    const auto to = int_attribute(n, "to", 0);
    if (!is_integer(static_cast<int>(to)))
        return std::nullopt;
    Value out = x;
    out.type = static_cast<int>(to);
    if (to == TensorProto::BOOL)
        for (auto& v : out.data)
            v = v != 0;
    return out;
}

// Gather from a vector.
std::optional<Value> fold_gather(const Value& data, const Value& indices) {
    const auto size = static_cast<std::int64_t>(data.data.size());
    Value v{data.type, indices.dims, {}};
    for (auto index : indices.data) {
        index = index < 0 ? index + size : index;
        if (index < 0 || index >= size)
            return std::nullopt;
        v.data.push_back(data.data[static_cast<std::size_t>(index)]);
    }
    return v;
}

// Unsqueeze or Squeeze, the axes an attribute (older opsets) or the second input.
std::optional<Value> fold_squeeze(const onnx::NodeProto& n, const Inputs& in) {
    std::vector<std::int64_t> axes;
    if (const auto* a = attribute(n, "axes"))
        axes.assign(a->ints().begin(), a->ints().end());
    else if (in.size() >= 2 && in[1])
        axes = in[1]->data;
    else if (in.size() >= 2 && !in[1] && !n.input(1).empty())
        return std::nullopt;
    Value v = *in[0];
    if (n.op_type() == "Unsqueeze") {
        const auto rank = static_cast<std::int64_t>(v.dims.size() + axes.size());
        for (auto& a : axes)
            a = a < 0 ? a + rank : a;
        std::sort(axes.begin(), axes.end());
        for (const auto a : axes) {
            if (a < 0 || a > static_cast<std::int64_t>(v.dims.size()))
                return std::nullopt;
            v.dims.insert(v.dims.begin() + a, 1);
        }
        return v;
    }
    const auto rank = static_cast<std::int64_t>(v.dims.size());
    std::vector<std::int64_t> kept;
    for (std::int64_t i = 0; i < rank; ++i) {
        const bool listed = std::any_of(
            axes.begin(), axes.end(), [&](std::int64_t a) { return (a < 0 ? a + rank : a) == i; });
        if ((axes.empty() && v.dims[i] == 1) || listed)
            continue;
        kept.push_back(v.dims[i]);
    }
    v.dims = kept;
    return v;
}

// Concat of vectors.
std::optional<Value> fold_concat(const Inputs& in) {
    Value v{in[0]->type, {0}, {}};
    for (const auto* part : in) {
        if (part->dims.size() != 1)
            return std::nullopt;
        v.data.insert(v.data.end(), part->data.begin(), part->data.end());
    }
    v.dims = {static_cast<std::int64_t>(v.data.size())};
    return v;
}

std::optional<Value> fold_slice(const onnx::NodeProto& n, const Inputs& in) {
    auto optional = [&](int i) { return n.input_size() > i && !n.input(i).empty(); };
    if ((optional(3) && !in[3]) || (optional(4) && !in[4]))
        return std::nullopt;
    return slice(*in[0], *in[1], *in[2], in.size() >= 4 ? in[3] : nullptr,
                 in.size() >= 5 ? in[4] : nullptr);
}

// Add, Sub, Mul, Div, Mod, Max or Min; none on an overflow or a division by zero.
std::optional<Value> fold_arithmetic(const std::string& op, const Value& a, const Value& b) {
    return broadcast(
        a, b, a.type, [&](std::int64_t x, std::int64_t y) -> std::optional<std::int64_t> {
            std::int64_t r = 0;
            if (op == "Add")
                return __builtin_add_overflow(x, y, &r) ? std::nullopt : std::optional(r);
            if (op == "Sub")
                return __builtin_sub_overflow(x, y, &r) ? std::nullopt : std::optional(r);
            if (op == "Mul")
                return __builtin_mul_overflow(x, y, &r) ? std::nullopt : std::optional(r);
            if (op == "Max")
                return std::max(x, y);
            if (op == "Min")
                return std::min(x, y);
            if (y == 0 || (y == -1 && x == std::numeric_limits<std::int64_t>::min()))
                return std::nullopt;
            return op == "Div" ? x / y : x % y;
        });
}

// Equal, Less, Greater, And or Or.
std::optional<Value> fold_comparison(const std::string& op, const Value& a, const Value& b) {
    return broadcast(a, b, TensorProto::BOOL,
                     [&](std::int64_t x, std::int64_t y) -> std::optional<std::int64_t> {
                         if (op == "Equal")
                             return x == y;
                         if (op == "Less")
                             return x < y;
                         if (op == "Greater")
                             return x > y;
                         return op == "And" ? (x && y) : (x || y);
                     });
}

// Neg, Abs or Not; none where the lowest integer would be negated.
std::optional<Value> fold_unary(const std::string& op, const Value& in) {
    Value out = in;
    for (auto& x : out.data) {
        if (op != "Not" && x == std::numeric_limits<std::int64_t>::min())
            return std::nullopt;
        x = op == "Neg" ? -x : op == "Abs" ? std::abs(x) : !x;
    }
    return out;
}

// Where(c, x, y) = c ? x : y, built from two broadcasts so shapes follow numpy.
std::optional<Value> fold_where(const Value& c, const Value& x, const Value& y) {
    auto chosen =
        broadcast(c, x, x.type, [](std::int64_t k, std::int64_t v) -> std::optional<std::int64_t> {
            return k ? v : 0;
        });
    auto other =
        broadcast(c, y, y.type, [](std::int64_t k, std::int64_t v) -> std::optional<std::int64_t> {
            return k ? 0 : v;
        });
    if (!chosen || !other)
        return std::nullopt;
    return broadcast(
        *chosen, *other, x.type,
        [](std::int64_t a, std::int64_t b) -> std::optional<std::int64_t> { return a + b; });
}

std::optional<Value> fold_range(const Value& from, const Value& to, const Value& by) {
    const auto start = from.data[0], limit = to.data[0], delta = by.data[0];
    if (delta == 0)
        return std::nullopt;
    Value v{from.type, {0}, {}};
    for (auto x = start; delta > 0 ? x < limit : x > limit;) {
        if (v.data.size() >= kMaxFoldedElements)
            return std::nullopt;
        v.data.push_back(x);
        if (__builtin_add_overflow(x, delta, &x))
            break;
    }
    v.dims = {static_cast<std::int64_t>(v.data.size())};
    return v;
}

std::optional<Value> fold_constant_of_shape(const onnx::NodeProto& n, const Value& shape) {
    std::int64_t fill = 0;
    int type = TensorProto::FLOAT;
    if (const auto* a = attribute(n, "value")) {
        const auto v = from_tensor(a->t());
        if (!v || v->data.size() != 1)
            return std::nullopt;
        fill = v->data[0];
        type = v->type;
    }
    if (!is_integer(type) || volume(shape.data) > kMaxFoldedElements)
        return std::nullopt;
    return Value{type, shape.data, std::vector<std::int64_t>(volume(shape.data), fill)};
}

std::optional<Value> fold_reshape(const Value& in, const Value& shape) {
    std::vector<std::int64_t> dims = shape.data;
    std::int64_t known = 1;
    int infer = -1;
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] == 0 && i < in.dims.size())
            dims[i] = in.dims[i];
        if (dims[i] == -1)
            infer = static_cast<int>(i);
        else if (__builtin_mul_overflow(known, dims[i], &known))
            return std::nullopt;
    }
    if (infer >= 0 && known > 0)
        dims[static_cast<std::size_t>(infer)] = static_cast<std::int64_t>(in.data.size()) / known;
    if (volume(dims) != in.data.size())
        return std::nullopt;
    return Value{in.type, dims, in.data};
}

std::optional<Value> fold_expand(const Value& in, const Value& shape) {
    const Value target{TensorProto::INT64, shape.data,
                       std::vector<std::int64_t>(volume(shape.data), 0)};
    return broadcast(in, target, in.type,
                     [](std::int64_t x, std::int64_t) -> std::optional<std::int64_t> { return x; });
}

// The value of `n`'s first output, by its op, where what it needs is known.
std::optional<Value> folded(const onnx::NodeProto& n, const Inputs& in,
                            const KnownDims& known_dims) {
    const auto all = [&](std::size_t count) { return all_known(in, count); };
    const std::string& op = n.op_type();
    if (op == "Constant")
        return fold_constant(n);
    if (op == "Shape" && n.input_size() >= 1)
        return fold_shape(n, known_dims);
    if (op == "Size" && n.input_size() >= 1) {
        if (const auto dims = known_dims(n.input(0)))
            return Value{TensorProto::INT64, {}, {static_cast<std::int64_t>(volume(*dims))}};
        return std::nullopt;
    }
    if (op == "Identity" && all(1))
        return *in[0];
    if (op == "Cast" && all(1))
        return fold_cast(n, *in[0]);
    if (op == "Gather" && all(2) && in[0]->dims.size() == 1)
        return fold_gather(*in[0], *in[1]);
    if ((op == "Unsqueeze" || op == "Squeeze") && all(1))
        return fold_squeeze(n, in);
    if (op == "Concat" && !in.empty() && all(in.size()))
        return fold_concat(in);
    if (op == "Slice" && all(3))
        return fold_slice(n, in);
    if (op == "Transpose" && all(1)) {
        std::vector<std::int64_t> perm;
        if (const auto* a = attribute(n, "perm"))
            perm.assign(a->ints().begin(), a->ints().end());
        return transpose(*in[0], perm);
    }
    if (all(2) && (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" || op == "Mod" ||
                   op == "Max" || op == "Min"))
        return fold_arithmetic(op, *in[0], *in[1]);
    if (all(2) && (op == "Equal" || op == "Less" || op == "Greater" || op == "And" || op == "Or"))
        return fold_comparison(op, *in[0], *in[1]);
    if ((op == "Neg" || op == "Abs" || op == "Not") && all(1))
        return fold_unary(op, *in[0]);
    if (op == "Where" && all(3))
        return fold_where(*in[0], *in[1], *in[2]);
    if (op == "Range" && all(3) && in[0]->data.size() == 1 && in[1]->data.size() == 1 &&
        in[2]->data.size() == 1)
        return fold_range(*in[0], *in[1], *in[2]);
    if (op == "ConstantOfShape" && all(1))
        return fold_constant_of_shape(n, *in[0]);
    if (op == "Reshape" && all(2))
        return fold_reshape(*in[0], *in[1]);
    if (op == "Expand" && all(2))
        return fold_expand(*in[0], *in[1]);
    return std::nullopt;
}

class Folder {
public:
    explicit Folder(const onnx::GraphProto& g) {
        for (const auto& t : g.initializer())
            if (auto v = from_tensor(t))
                values_[t.name()] = std::move(*v);
    }

    // The value of `n`'s first output where its inputs' values (or, for Shape and Size, its
    // input's dims) are known; null otherwise.
    const Value* fold(const onnx::NodeProto& n, const KnownDims& known_dims) {
        if (!n.domain().empty() && n.domain() != "ai.onnx")
            return nullptr;
        Inputs in;
        for (const auto& name : n.input()) {
            const auto it = values_.find(name);
            in.push_back(it == values_.end() ? nullptr : &it->second);
        }
        auto out = folded(n, in, known_dims);
        if (!out || n.output_size() < 1 || n.output(0).empty())
            return nullptr;
        return &(values_[n.output(0)] = std::move(*out));
    }

private:
    Values values_;
};

} // namespace

void infer_shapes_with_folding(onnx::ModelProto& model,
                               const std::function<void(std::string)>& warn) {
    Folder folder(model.graph());
    infer_node_by_node(model, warn,
                       [&folder](const onnx::NodeProto& n,
                                 const KnownDims& known_dims) -> std::optional<TensorProto> {
                           const Value* v = folder.fold(n, known_dims);
                           return v ? std::optional(to_tensor(*v)) : std::nullopt;
                       });
}

} // namespace cleave::graph
