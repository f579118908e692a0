// The DSE tab's chart choices as a project keeps them (DseDocument::view): the quantities on the
// front's x, y and z axes and in its colour, how the evaluated points off the front are drawn
// and which view is on show, as {x, y, z, colour, dominated, infeasible, tab} (docs/studio.md).
#pragma once

#include "ui/dse/dse_axis_model.hpp"

#include <nlohmann/json.hpp>

namespace cleave::ui {

// How the evaluated points off the front are drawn, per kind (dominated, infeasible).
enum class DseDisplay { hidden, shown, marked };

struct DseViewState {
    DseQuantity x = DseQuantity::throughput;
    DseQuantity y = DseQuantity::memory;
    DseQuantity z = DseQuantity::energy;
    DseQuantity colour = DseQuantity::energy;
    DseDisplay dominated = DseDisplay::shown;
    DseDisplay infeasible = DseDisplay::hidden;
    int tab = 0; // the view's index

    nlohmann::json toJson() const;
    // `view`'s choices over `shown`: a choice missing or unknown keeps the one in `shown`.
    static DseViewState fromJson(const nlohmann::json& view, const DseViewState& shown);
};

} // namespace cleave::ui
