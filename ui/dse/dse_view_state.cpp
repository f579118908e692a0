#include "ui/dse/dse_view_state.hpp"

#include <array>
#include <string>
#include <utility>

namespace cleave::ui {

namespace {

constexpr std::array<std::pair<DseQuantity, const char*>, 6> kQuantityKeys{{
    {DseQuantity::none, "none"},
    {DseQuantity::throughput, "throughput"},
    {DseQuantity::memory, "memory"},
    {DseQuantity::energy, "energy"},
    {DseQuantity::latency, "latency"},
    {DseQuantity::generation, "generation"},
}};

constexpr std::array<std::pair<DseDisplay, const char*>, 3> kDisplayKeys{{
    {DseDisplay::hidden, "hidden"},
    {DseDisplay::shown, "shown"},
    {DseDisplay::marked, "marked"},
}};

template <typename Value, std::size_t N>
const char* keyOf(const std::array<std::pair<Value, const char*>, N>& keys, Value value) {
    for (const auto& [v, key] : keys)
        if (v == value)
            return key;
    return keys.front().second;
}

// The value `view[name]` names; `shown` when it is missing or names none of `keys`.
template <typename Value, std::size_t N>
Value valueOf(const std::array<std::pair<Value, const char*>, N>& keys, const nlohmann::json& view,
              const char* name, Value shown) {
    const auto it = view.find(name);
    if (it == view.end() || !it->is_string())
        return shown;
    const auto text = it->get<std::string>();
    for (const auto& [v, key] : keys)
        if (text == key)
            return v;
    return shown;
}

} // namespace

nlohmann::json DseViewState::toJson() const {
    return {{"x", keyOf(kQuantityKeys, x)},
            {"y", keyOf(kQuantityKeys, y)},
            {"z", keyOf(kQuantityKeys, z)},
            {"colour", keyOf(kQuantityKeys, colour)},
            {"dominated", keyOf(kDisplayKeys, dominated)},
            {"infeasible", keyOf(kDisplayKeys, infeasible)},
            {"tab", tab}};
}

DseViewState DseViewState::fromJson(const nlohmann::json& view, const DseViewState& shown) {
    DseViewState state;
    state.x = valueOf(kQuantityKeys, view, "x", shown.x);
    state.y = valueOf(kQuantityKeys, view, "y", shown.y);
    state.z = valueOf(kQuantityKeys, view, "z", shown.z);
    state.colour = valueOf(kQuantityKeys, view, "colour", shown.colour);
    state.dominated = valueOf(kDisplayKeys, view, "dominated", shown.dominated);
    state.infeasible = valueOf(kDisplayKeys, view, "infeasible", shown.infeasible);
    const auto tab = view.find("tab");
    state.tab = tab != view.end() && tab->is_number_integer() ? tab->get<int>() : shown.tab;
    return state;
}

} // namespace cleave::ui
