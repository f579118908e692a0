// The DSE tab's front as a table, fastest first: throughput, bottleneck, the largest memory and
// energy of one device (and latency when it is an objective), the stage and level a solution was
// found in and its mapping as "points | PEs"; each row's tooltip is its solution's summary.
#pragma once

#include "core/dse/nsga2_search.hpp"
#include "ui/document/partition_inputs.hpp"

#include <QAbstractTableModel>
#include <vector>

namespace cleave::ui {

// A solution's mapping (kernel ranges and PEs), figures, stage and level, one item a line.
QString dse_solution_summary(const dse::Solution& solution, const dse::ObjectiveSet& objectives,
                             const device::Cluster& cluster, int kernelCount);

class DseFrontModel : public QAbstractTableModel {
    Q_OBJECT

public:
    explicit DseFrontModel(QObject* parent = nullptr);

    // `front` in the order of its rows (the DSE document's: fastest first); `inputs` gives the
    // PE names and kernel count.
    void setFront(std::vector<dse::Solution> front, const dse::ObjectiveSet& objectives,
                  PartitionInputsPtr inputs);
    const std::vector<dse::Solution>& front() const { return front_; }
    const dse::ObjectiveSet& objectives() const { return objectives_; }
    QString summary(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    enum class Column { throughput, bottleneck, memory, energy, latency, stage, level, mapping };
    std::vector<Column> columns_;
    std::vector<dse::Solution> front_;
    dse::ObjectiveSet objectives_;
    PartitionInputsPtr inputs_;
};

} // namespace cleave::ui
