#include "contrib_op_checks.hpp"

#include "../input_error.hpp"

namespace cleave::graph {

namespace {

class NodeCheck {
public:
    NodeCheck(const Model& model, const Node& node, std::size_t index)
        : model_(model), node_(node), index_(index) {}

    const Tensor* input(std::size_t i) const {
        return i < node_.inputs.size() && node_.inputs[i] >= 0
                   ? &model_.tensors[static_cast<std::size_t>(node_.inputs[i])]
                   : nullptr;
    }
    // The last dim of input i; -1 when unknown.
    std::int64_t last_dim(std::size_t i) const {
        const auto* t = input(i);
        return t && t->shape && !t->shape->empty() ? t->shape->back() : -1;
    }
    std::int64_t attribute(const char* name, std::int64_t fallback) const {
        return node_.int_attribute(name, fallback);
    }

    [[noreturn]] void refuse(const std::string& problem) const {
        throw InputError(model_.file,
                         node_.name.empty() ? "node #" + std::to_string(index_)
                                            : "node '" + node_.name + "'",
                         problem);
    }
    [[noreturn]] void refuse_attribute(const char* name, const std::string& problem) const {
        refuse("attribute '" + std::string(name) + "' is " + std::to_string(attribute(name, 0)) +
               problem);
    }

private:
    const Model& model_;
    const Node& node_;
    std::size_t index_;
};

std::string described(const Tensor& t) {
    return "'" + t.name + "' (" + shape_to_string(t.shape) + ")";
}

// B packed as [N, ceil(K / block_size), block_size x bits / 8] bytes, scales N x blocks, zero
// points N x ceil(blocks x bits / 8) bytes (or N x blocks of the scales' type).
void check_matmul_nbits(const NodeCheck& c) {
    const auto k = c.attribute("K", 0);
    const auto n = c.attribute("N", 0);
    const auto bits = c.attribute("bits", 4);
    const auto block = c.attribute("block_size", 0);
    if (bits < 2 || bits > 8)
        c.refuse_attribute("bits", "; expected 2 to 8");
    if (block < 16 || (block & (block - 1)) != 0)
        c.refuse_attribute("block_size", "; expected a power of 2, at least 16");
    if (k < 1)
        c.refuse_attribute("K", "; expected at least 1");
    if (n < 1)
        c.refuse_attribute("N", "; expected at least 1");
    const auto blocks = (k + block - 1) / block;
    const Shape packed{n, blocks, block * bits / 8};
    const auto* b = c.input(1);
    if (b && b->shape && b->shape->size() == 3 && *b->shape != packed) {
        const auto& dims = *b->shape;
        const char* attribute = dims[0] != n ? "N" : dims[2] != packed[2] ? "block_size" : "K";
        c.refuse_attribute(attribute, " but B " + described(*b) +
                                          " disagrees; expected B of N x ceil(K / block_size) x "
                                          "(block_size x bits / 8) = " +
                                          shape_to_string(packed));
    } else if (b && b->shape && b->shape->size() != 3) {
        c.refuse("input B " + described(*b) + " has rank " + std::to_string(b->shape->size()) +
                 "; expected N x ceil(K / block_size) x (block_size x bits / 8) = " +
                 shape_to_string(packed));
    }
    if (const auto a = c.last_dim(0); a >= 0 && a != k)
        c.refuse_attribute("K", " but input A " + described(*c.input(0)) + " has " +
                                    std::to_string(a) + " in its last dim; expected them equal");
    if (const auto* scales = c.input(2);
        scales && scales->elements() >= 0 && scales->elements() != n * blocks)
        c.refuse("input scales " + described(*scales) + " holds " +
                 std::to_string(scales->elements()) +
                 " values; expected N x ceil(K / block_size) = " + std::to_string(n * blocks));
    const auto* zeros = c.input(3);
    if (!zeros || zeros->elements() < 0)
        return;
    const bool packed_zeros = zeros->dtype == DataType::Uint8;
    const auto expected = packed_zeros ? n * ((blocks * bits + 7) / 8) : n * blocks;
    if (zeros->elements() != expected)
        c.refuse("input zero_points " + described(*zeros) + " holds " +
                 std::to_string(zeros->elements()) + " values; expected " +
                 std::to_string(expected) +
                 (packed_zeros ? " (N x ceil(blocks x bits / 8) bytes)" : " (N x blocks)"));
}

// query [B, S, num_heads x H], key and value [B, L, kv_num_heads x H]; packed, query alone of
// (num_heads + 2 kv_num_heads) x H.
void check_group_query_attention(const NodeCheck& c) {
    const auto heads = c.attribute("num_heads", 0);
    const auto kv_heads = c.attribute("kv_num_heads", 0);
    if (heads < 1)
        c.refuse_attribute("num_heads", "; expected at least 1");
    if (kv_heads < 1)
        c.refuse_attribute("kv_num_heads", "; expected at least 1");
    if (heads % kv_heads != 0)
        c.refuse_attribute("num_heads", ", not a multiple of kv_num_heads (" +
                                            std::to_string(kv_heads) +
                                            "); expected every key/value head to serve as many "
                                            "query heads");
    const auto query = c.last_dim(0);
    const bool packed = !c.input(2);
    const auto query_heads = packed ? heads + 2 * kv_heads : heads;
    if (query > 0 && query % query_heads != 0)
        c.refuse_attribute("num_heads", ", but the query's hidden size " + std::to_string(query) +
                                            " does not divide by " +
                                            (packed ? "num_heads + 2 x kv_num_heads = " : "") +
                                            std::to_string(query_heads) +
                                            "; expected a whole head size");
    const auto key = packed ? -1 : c.last_dim(1);
    if (key > 0 && key % kv_heads != 0)
        c.refuse_attribute("kv_num_heads", ", but the key's hidden size " + std::to_string(key) +
                                               " does not divide by it; expected a whole head "
                                               "size");
    if (key > 0 && query > 0 && key / kv_heads != query / heads)
        c.refuse_attribute("kv_num_heads",
                           ", giving key heads of " + std::to_string(key / kv_heads) +
                               " but query heads of " + std::to_string(query / heads) +
                               "; expected one head size");
}

void check_multi_head_attention(const NodeCheck& c) {
    const auto heads = c.attribute("num_heads", 0);
    if (heads < 1)
        c.refuse_attribute("num_heads", "; expected at least 1");
    const auto* query = c.input(0);
    const auto hidden = query && query->shape && query->shape->size() == 3 ? c.last_dim(0) : -1;
    if (hidden > 0 && hidden % heads != 0)
        c.refuse_attribute("num_heads", ", but the query's hidden size " + std::to_string(hidden) +
                                            " does not divide by it; expected a whole head size");
}

} // namespace

void check_contrib_nodes(const Model& model) {
    for (std::size_t i = 0; i < model.nodes.size(); ++i) {
        const Node& node = model.nodes[i];
        if (node.domain != "com.microsoft")
            continue;
        const NodeCheck check(model, node, i);
        if (node.op == "MatMulNBits")
            check_matmul_nbits(check);
        else if (node.op == "GroupQueryAttention")
            check_group_query_attention(check);
        else if (node.op == "MultiHeadAttention")
            check_multi_head_attention(check);
    }
}

} // namespace cleave::graph
