// The quantities the DSE tab's front charts put on an axis or in colour, for one search's
// objectives: the choices to offer, their names and units as the charts label them, and a
// solution's value of each (memory in MiB).
#pragma once

#include "core/dse/nsga2_search.hpp"

#include <QCoreApplication>
#include <QString>
#include <vector>

class QComboBox;

namespace cleave::ui {

// generation: colour only (when the search first met the mapping).
enum class DseQuantity { none, throughput, memory, energy, latency, generation };

class DseAxisModel {
    Q_DECLARE_TR_FUNCTIONS(cleave::ui::DseAxisModel)

public:
    explicit DseAxisModel(const dse::ObjectiveSet& objectives) : objectives_(objectives) {}

    // Throughput and memory, then energy and latency where the search has them.
    std::vector<DseQuantity> quantities() const;
    // 0 for an objective the search does not have.
    double value(const dse::Solution& solution, DseQuantity quantity) const;
    static QString name(DseQuantity quantity);
    // What ends the colour legend's ranges.
    static QString unit(DseQuantity quantity);

    // Offers the quantities in `box` (with none and generation for a colour), keeping its choice
    // where it is still offered, else `fallback`; without a signal (the caller redraws once).
    void offer(QComboBox* box, bool colour, DseQuantity fallback) const;
    static DseQuantity chosen(const QComboBox* box);

private:
    dse::ObjectiveSet objectives_;
};

} // namespace cleave::ui
