#include "ui/dse/dse_axis_model.hpp"

#include <QComboBox>
#include <QSignalBlocker>

namespace cleave::ui {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

} // namespace

std::vector<DseQuantity> DseAxisModel::quantities() const {
    std::vector<DseQuantity> quantities{DseQuantity::throughput, DseQuantity::memory};
    if (objectives_.energy)
        quantities.push_back(DseQuantity::energy);
    if (objectives_.latency)
        quantities.push_back(DseQuantity::latency);
    return quantities;
}

double DseAxisModel::value(const dse::Solution& solution, DseQuantity quantity) const {
    switch (quantity) {
    case DseQuantity::throughput:
        return solution.throughput_per_s;
    case DseQuantity::memory:
        return objectives_.value(solution.objectives, dse::Objective::max_memory_bytes) / kMiB;
    case DseQuantity::energy:
        return objectives_.energy
                   ? objectives_.value(solution.objectives, dse::Objective::max_energy_mj)
                   : 0.0;
    case DseQuantity::latency:
        return objectives_.latency
                   ? objectives_.value(solution.objectives, dse::Objective::latency_ms)
                   : 0.0;
    case DseQuantity::generation:
        return solution.generation;
    case DseQuantity::none:
        break;
    }
    return 0;
}

QString DseAxisModel::name(DseQuantity quantity) {
    switch (quantity) {
    case DseQuantity::throughput:
        return tr("throughput (1/s)");
    case DseQuantity::memory:
        return tr("max memory (MiB)");
    case DseQuantity::energy:
        return tr("max energy (mJ)");
    case DseQuantity::latency:
        return tr("latency (ms)");
    case DseQuantity::generation:
        return tr("generation");
    case DseQuantity::none:
        break;
    }
    return tr("none");
}

QString DseAxisModel::unit(DseQuantity quantity) {
    switch (quantity) {
    case DseQuantity::throughput:
        return tr("/s");
    case DseQuantity::memory:
        return tr(" MiB");
    case DseQuantity::energy:
        return tr(" mJ");
    case DseQuantity::latency:
        return tr(" ms");
    case DseQuantity::generation:
    case DseQuantity::none:
        break;
    }
    return tr(" (generation)");
}

void DseAxisModel::offer(QComboBox* box, bool colour, DseQuantity fallback) const {
    const auto old = box->currentIndex() >= 0 ? chosen(box) : fallback;
    const QSignalBlocker quiet(box);
    box->clear();
    if (colour)
        box->addItem(name(DseQuantity::none), static_cast<int>(DseQuantity::none));
    for (const auto q : quantities())
        box->addItem(name(q), static_cast<int>(q));
    if (colour)
        box->addItem(name(DseQuantity::generation), static_cast<int>(DseQuantity::generation));
    const int index = box->findData(static_cast<int>(old));
    box->setCurrentIndex(index >= 0 ? index : box->findData(static_cast<int>(fallback)));
}

DseQuantity DseAxisModel::chosen(const QComboBox* box) {
    return static_cast<DseQuantity>(box->currentData().toInt());
}

} // namespace cleave::ui
