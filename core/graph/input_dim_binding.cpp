#include "input_dim_binding.hpp"

#include "../ascii_case.hpp"
#include "../input_error.hpp"
#include "dim_expression.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>
#include <type_traits>

namespace cleave::graph {

namespace {

bool contains(std::string_view text, std::string_view part) {
    return text.find(part) != std::string_view::npos;
}

// past_key_values.0.key (Optimum, ONNX Runtime GenAI), past.0 / past_key.0 (older exporters),
// past_key_values_key_cache_0 / key_cache.0 (torch.onnx's dynamo exporter). An encoder-decoder's
// cross-attention cache holds encoder positions, not cached tokens.
bool is_past_key_value(std::string_view lowered) {
    if (contains(lowered, "encoder") || contains(lowered, "cross"))
        return false;
    return lowered.rfind("past", 0) == 0 || contains(lowered, "key_cache") ||
           contains(lowered, "value_cache") || contains(lowered, "cache_key") ||
           contains(lowered, "cache_value");
}

std::string describe(DimRole role) {
    switch (role) {
    case DimRole::Batch:
        return "batch";
    case DimRole::NewTokens:
        return "new-token count";
    case DimRole::CachedTokens:
        return "cached-token count";
    case DimRole::TotalTokens:
        return "total-token count (cached + new)";
    }
    return {};
}

std::string quoted(const std::string& text) {
    return "'" + text + "'";
}

} // namespace

std::string_view to_string(DimRole role) {
    switch (role) {
    case DimRole::Batch:
        return "batch";
    case DimRole::NewTokens:
        return "sequence";
    case DimRole::CachedTokens:
        return "past";
    case DimRole::TotalTokens:
        return "total";
    }
    return {};
}

std::vector<std::optional<DimRole>> input_dim_roles(std::string_view input, std::size_t rank) {
    using R = DimRole;
    const std::string n = ascii_lower(input);
    const auto roles = [&](std::vector<std::optional<DimRole>> list) {
        return list.size() == rank ? list : std::vector<std::optional<DimRole>>(rank);
    };
    if (n.ends_with("input_ids") || n == "position_ids")
        return roles({R::Batch, R::NewTokens});
    if (n == "inputs_embeds")
        return roles({R::Batch, R::NewTokens, std::nullopt});
    if (n == "cache_position")
        return roles({R::NewTokens});
    if (n.ends_with("attention_mask") && !contains(n, "encoder"))
        return rank == 4 ? roles({R::Batch, std::nullopt, R::NewTokens, R::TotalTokens})
                         : roles({R::Batch, R::TotalTokens});
    if (is_past_key_value(n)) // [batch, heads, past, head dim]; past.N: [2, batch, heads, ...]
        return rank == 5
                   ? roles({std::nullopt, R::Batch, std::nullopt, R::CachedTokens, std::nullopt})
                   : roles({R::Batch, std::nullopt, R::CachedTokens, std::nullopt});
    return roles({});
}

std::optional<std::int64_t> bound_role(const Model& model, DimRole role) {
    const auto it = model.dim_roles.find(std::string(to_string(role)));
    if (it == model.dim_roles.end())
        return std::nullopt;
    return it->second;
}

std::optional<DimRole> spelled_dim_role(std::string_view param) {
    struct Spelling {
        std::string_view name;
        DimRole role;
    };
    static constexpr std::array kSpellings{
        Spelling{"batch", DimRole::Batch},
        Spelling{"batch_size", DimRole::Batch},
        Spelling{"batchsize", DimRole::Batch},
        Spelling{"sequence_length", DimRole::NewTokens},
        Spelling{"seq_len", DimRole::NewTokens},
        Spelling{"seq_length", DimRole::NewTokens},
        Spelling{"past_sequence_length", DimRole::CachedTokens},
        Spelling{"past_seq_len", DimRole::CachedTokens},
        Spelling{"past_seq_length", DimRole::CachedTokens},
        Spelling{"past_length", DimRole::CachedTokens},
        Spelling{"total_sequence_length", DimRole::TotalTokens},
        Spelling{"total_seq_len", DimRole::TotalTokens},
        Spelling{"total_length", DimRole::TotalTokens},
    };
    const std::string n = ascii_lower(param);
    for (const auto& s : kSpellings)
        if (s.name == n)
            return s.role;
    return std::nullopt;
}

namespace {

// One binding and where it came from, for the message when two disagree.
struct Known {
    std::int64_t value = 0;
    std::string source;
};

class DimBinder {
public:
    DimBinder(const std::vector<InputDims>& inputs, const DimBindings& bindings,
              const std::string& file)
        : inputs_(inputs), bindings_(bindings), file_(file) {
        for (const auto& input : inputs) {
            auto roles = input_dim_roles(input.name, input.dims.size());
            for (std::size_t i = 0; i < roles.size(); ++i) {
                decoder_ |= roles[i] == DimRole::CachedTokens;
                if (!roles[i])
                    roles[i] = spelled_dim_role(input.dims[i].param);
            }
            roles_at_.push_back(std::move(roles));
        }
    }

    BoundInputDims run() {
        check_dim_bindings(bindings_);
        BoundInputDims out;
        if (!decoder_ && bindings_.empty()) {
            for (std::size_t k = 0; k < inputs_.size(); ++k)
                out.shapes.push_back(resolve(k, out));
            return out;
        }
        check_names_used();
        bind_given();
        derive_roles();
        bind_names_from_roles();
        out.warnings = std::move(warnings_);
        out.notes = std::move(notes_);
        for (std::size_t k = 0; k < inputs_.size(); ++k)
            out.shapes.push_back(resolve(k, out));
        report_roles(out);
        return out;
    }

private:
    // --dim names, and the dims --input-shape fixed, by name; the role flags.
    void bind_given() {
        for (const auto& [name, value] : bindings_.names)
            bind(names_, name, value, "--dim " + name + "=" + std::to_string(value));
        for (const auto& input : inputs_)
            for (const auto& dim : input.dims)
                if (dim.value >= 0 && is_dim_name(dim.param))
                    bind(names_, dim.param, dim.value, "--input-shape for " + quoted(input.name));
        const auto flag = [](const char* name, std::int64_t value) {
            return std::string(name) + " " + std::to_string(value);
        };
        if (bindings_.batch)
            bind(roles_, DimRole::Batch, *bindings_.batch, flag("--batch", *bindings_.batch));
        const std::string tokens = bindings_.prefill  ? flag("--prefill", *bindings_.prefill)
                                   : bindings_.decode ? flag("--decode", *bindings_.decode)
                                                      : std::string();
        if (const auto n = bindings_.new_tokens())
            bind(roles_, DimRole::NewTokens, *n, tokens);
        if (const auto c = bindings_.cached_tokens())
            bind(roles_, DimRole::CachedTokens, *c, tokens);
    }

    // Roles from the dims that hold them: fixed ones and those bound by name; then the total
    // from its parts, and the batch's default.
    void derive_roles() {
        for_each_role_dim([&](const InputDims& input, std::size_t i, DimRole role) {
            const InputDim& dim = input.dims[i];
            if (dim.value >= 0 && dim.param.empty())
                bind(roles_, role, dim.value,
                     "input " + quoted(input.name) + " dim " + std::to_string(i) +
                         " (fixed in the model)");
            else if (const auto it = names_.find(dim.param); it != names_.end())
                bind(roles_, role, it->second.value, it->second.source);
        });
        const auto n = roles_.find(DimRole::NewTokens);
        const auto c = roles_.find(DimRole::CachedTokens);
        if (n != roles_.end() && c != roles_.end())
            bind(roles_, DimRole::TotalTokens, n->second.value + c->second.value,
                 "cached + new tokens (" + c->second.source + ", " + n->second.source + ")");
        std::set<std::string> defaulted;
        if (!roles_.count(DimRole::Batch))
            for_each_role_dim([&](const InputDims& input, std::size_t i, DimRole role) {
                if (role == DimRole::Batch && input.dims[i].value < 0 &&
                    !names_.count(input.dims[i].param))
                    defaulted.insert(input.dims[i].param.empty() ? "?" : input.dims[i].param);
            });
        if (!defaulted.empty()) {
            roles_[DimRole::Batch] = {1, "the default batch"};
            std::string list;
            for (const auto& name : defaulted)
                list += (list.empty() ? "" : ", ") + name;
            notes_.push_back("batch dim (" + list + ") not bound; using 1 (set it with --batch)");
        }
        check_role(DimRole::Batch);
        check_role(DimRole::NewTokens);
        warn_unused_flags();
    }

    // A dim that plays a role takes its name from it, so that the name binds elsewhere too.
    void bind_names_from_roles() {
        for (std::size_t k = 0; k < inputs_.size(); ++k)
            for (std::size_t i = 0; i < inputs_[k].dims.size(); ++i) {
                const auto& role = roles_at_[k][i];
                const auto& param = inputs_[k].dims[i].param;
                const auto known = role ? roles_.find(*role) : roles_.end();
                if (known != roles_.end() && is_dim_name(param))
                    bind(names_, param, known->second.value,
                         known->second.source + ", the " + describe(*role));
            }
    }

    Shape resolve(std::size_t k, BoundInputDims& out) {
        const InputDims& input = inputs_[k];
        Shape shape;
        for (std::size_t i = 0; i < input.dims.size(); ++i) {
            const InputDim& dim = input.dims[i];
            std::optional<std::int64_t> value;
            if (dim.value >= 0)
                value = dim.value;
            else if (!decoder_ && bindings_.empty())
                value = std::nullopt;
            else if (const auto role = roles_at_[k][i]; role && roles_.count(*role))
                value = roles_.at(*role).value;
            else if (!dim.param.empty())
                value = evaluate(input, i);
            if (value && !dim.param.empty() && dim.value < 0)
                out.names[dim.param] = *value;
            if (!value)
                value = unbound(input, i, roles_at_[k][i], out);
            shape.push_back(*value);
        }
        return shape;
    }

    std::optional<std::int64_t> evaluate(const InputDims& input, std::size_t i) const {
        const std::string& param = input.dims[i].param;
        DimValues values;
        for (const auto& [name, known] : names_)
            values[name] = known.value;
        if (const auto exact = values.find(param); exact != values.end())
            return exact->second;
        std::optional<std::int64_t> value;
        try {
            value = evaluate_dim_expression(param, values);
        } catch (const InputError& e) {
            throw InputError(file_, place(input, i),
                             e.problem() + "; or bind the whole text with --dim '" + param + "=N'");
        }
        if (value && *value < 0)
            throw InputError(file_, place(input, i),
                             "evaluates to " + std::to_string(*value) + "; expected a dim >= 0");
        return value;
    }

    // A decoder's token counts may not be guessed; anything else becomes 1, as it always did.
    std::int64_t unbound(const InputDims& input, std::size_t i, std::optional<DimRole> role,
                         BoundInputDims& out) const {
        const std::string& param = input.dims[i].param;
        if (decoder_ && role && role != DimRole::Batch)
            throw InputError(file_, place(input, i),
                             "the decoder's " + describe(*role) +
                                 " is not bound; give --prefill N or --decode L" +
                                 (is_dim_name(param) ? ", or --dim " + param + "=N" : ""));
        out.warnings.push_back("input " + quoted(input.name) + " dim " + std::to_string(i) +
                               (param.empty() ? "" : " (" + param + ")") +
                               " is not fixed; using 1 (set it with --input-shape" +
                               (param.empty() ? ")" : " or --dim)"));
        return 1;
    }

    std::string place(const InputDims& input, std::size_t i) const {
        const std::string& param = input.dims[i].param;
        return "input " + quoted(input.name) + " dim " + std::to_string(i) +
               (param.empty() ? "" : " (" + param + ")");
    }

    template <typename Key, typename Map>
    void bind(Map& map, const Key& key, std::int64_t value, const std::string& source) {
        const auto [it, inserted] = map.emplace(key, Known{value, source});
        if (inserted || it->second.value == value)
            return;
        std::string what;
        if constexpr (std::is_same_v<Key, DimRole>)
            what = "the " + describe(key);
        else
            what = "dim " + quoted(key);
        throw InputError(file_, what,
                         it->second.source + " gives " + std::to_string(it->second.value) +
                             " but " + source + " gives " + std::to_string(value));
    }

    template <typename F> void for_each_role_dim(F&& visit) const {
        for (std::size_t k = 0; k < inputs_.size(); ++k)
            for (std::size_t i = 0; i < inputs_[k].dims.size(); ++i)
                if (roles_at_[k][i])
                    visit(inputs_[k], i, *roles_at_[k][i]);
    }

    void check_role(DimRole role) const {
        const auto it = roles_.find(role);
        if (it != roles_.end() && it->second.value == 0)
            throw InputError(file_, "the " + describe(role),
                             it->second.source + " gives 0; expected at least 1");
    }

    void check_names_used() const {
        std::set<std::string, std::less<>> used;
        for (const auto& input : inputs_)
            for (const auto& dim : input.dims) {
                used.insert(dim.param);
                for (auto& name : dim_expression_names(dim.param))
                    used.insert(std::move(name));
            }
        for (const auto& [name, value] : bindings_.names) {
            if (used.count(name))
                continue;
            std::string list;
            for (const auto& u : used)
                if (!u.empty())
                    list += (list.empty() ? "" : ", ") + u;
            throw InputError(file_, "--dim " + name + "=" + std::to_string(value),
                             "no input dim of the model is named so; its symbolic dims are: " +
                                 (list.empty() ? std::string("none") : list));
        }
    }

    void warn_unused_flags() {
        std::set<DimRole> present;
        for_each_role_dim(
            [&](const InputDims&, std::size_t, DimRole role) { present.insert(role); });
        const auto unused = [&](bool given, DimRole role, const char* flag) {
            if (given && !present.count(role))
                warnings_.push_back(std::string(flag) +
                                    " binds no dim: no input of the model has a " + describe(role) +
                                    " dim");
        };
        unused(bindings_.batch.has_value(), DimRole::Batch, "--batch");
        unused(bindings_.prefill.has_value(), DimRole::NewTokens, "--prefill");
        unused(bindings_.decode.has_value(), DimRole::NewTokens, "--decode");
    }

    void report_roles(BoundInputDims& out) const {
        for_each_role_dim([&](const InputDims&, std::size_t, DimRole role) {
            if (const auto it = roles_.find(role); it != roles_.end())
                out.roles[std::string(to_string(role))] = it->second.value;
        });
    }

    const std::vector<InputDims>& inputs_;
    const DimBindings& bindings_;
    const std::string& file_;
    std::vector<std::vector<std::optional<DimRole>>> roles_at_;
    bool decoder_ = false;
    std::map<std::string, Known, std::less<>> names_;
    std::map<DimRole, Known> roles_;
    std::vector<std::string> warnings_;
    std::vector<std::string> notes_;
};

} // namespace

BoundInputDims bind_input_dims(const std::vector<InputDims>& inputs, const DimBindings& bindings,
                               const std::string& file) {
    return DimBinder(inputs, bindings, file).run();
}

} // namespace cleave::graph
