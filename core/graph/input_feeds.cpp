#include "input_feeds.hpp"

#include "../ascii_case.hpp"
#include "data_type.hpp"
#include "input_dim_binding.hpp"

#include <algorithm>

namespace cleave::graph {

namespace {

// The vocabulary the ids index: the rows of the table a Gather (or GatherBlockQuantized) looks
// them up in, else the last dim of a logits output; 1 (every id 0) when neither says.
std::int64_t vocabulary(const Model& model, int ids) {
    for (const int n : model.tensors[static_cast<std::size_t>(ids)].consumers) {
        const auto& node = model.nodes[static_cast<std::size_t>(n)];
        if ((node.op == "Gather" || node.op == "GatherBlockQuantized") && node.inputs.size() > 1 &&
            node.inputs[1] == ids && node.inputs[0] >= 0 && node.int_attribute("axis", 0) == 0) {
            const auto& table = model.tensors[static_cast<std::size_t>(node.inputs[0])].shape;
            if (table && !table->empty() && (*table)[0] > 0)
                return (*table)[0];
        }
    }
    for (const int o : model.outputs) {
        const auto& t = model.tensors[static_cast<std::size_t>(o)];
        if (ascii_lower(t.name).find("logits") != std::string::npos && t.shape &&
            !t.shape->empty() && t.shape->back() > 0)
            return t.shape->back();
    }
    return 1;
}

} // namespace

std::string_view to_string(InputFeed::Fill fill) {
    switch (fill) {
    case InputFeed::Fill::Uniform:
        return "uniform";
    case InputFeed::Fill::Constant:
        return "constant";
    case InputFeed::Fill::TokenIds:
        return "ids";
    case InputFeed::Fill::Positions:
        return "positions";
    }
    return "uniform";
}

std::vector<InputFeed> input_feeds(const Model& model) {
    const std::int64_t past = bound_role(model, DimRole::CachedTokens).value_or(0);
    const std::int64_t total = past + bound_role(model, DimRole::NewTokens).value_or(0);
    std::vector<InputFeed> feeds;
    for (const int i : model.inputs) {
        const auto& t = model.tensors[static_cast<std::size_t>(i)];
        const std::string name = ascii_lower(t.name);
        using F = InputFeed::Fill;
        InputFeed feed{is_floating(t.dtype) ? F::Uniform : F::Constant, 0};
        if (name.ends_with("attention_mask") && !t.shape.value_or(Shape{}).empty() &&
            t.shape->size() == 2) // [batch, total]: every token attended
            feed = {F::Constant, 1};
        else if (!is_floating(t.dtype)) {
            if (name.ends_with("input_ids"))
                feed = {F::TokenIds, vocabulary(model, i)};
            else if (name == "position_ids" || name == "cache_position")
                feed = {F::Positions, past};
            else if (name == "seqlens_k") // GroupQueryAttention's, when a graph takes it as input
                feed = {F::Constant, std::max<std::int64_t>(total - 1, 0)};
            else if (name == "total_sequence_length" || name == "total_seq_len")
                feed = {F::Constant, total};
        }
        feeds.push_back(feed);
    }
    return feeds;
}

} // namespace cleave::graph
