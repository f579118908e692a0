#include "ui/dse/dse_front_model.hpp"

#include <QStringList>

namespace cleave::ui {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

const char* levelName(dse::Level level) {
    return level == dse::Level::analytical ? "analytical" : "replay";
}

double valueOf(const dse::Solution& s, const dse::ObjectiveSet& objectives,
               dse::Objective objective) {
    return objectives.value(s.objectives, objective);
}

} // namespace

QString dse_solution_summary(const dse::Solution& s, const dse::ObjectiveSet& objectives,
                             const device::Cluster& cluster, int kernelCount) {
    QStringList lines;
    lines << QObject::tr("%1 segment(s):").arg(s.mapping.pes.size());
    for (std::size_t seg = 0; seg < s.mapping.pes.size(); ++seg) {
        const int begin = seg == 0 ? 0 : s.mapping.points[seg - 1];
        const int end = seg < s.mapping.points.size() ? s.mapping.points[seg] : kernelCount;
        lines << QObject::tr("  kernels %1–%2 on %3")
                     .arg(begin)
                     .arg(end - 1)
                     .arg(QString::fromStdString(
                         cluster.pes[static_cast<std::size_t>(s.mapping.pes[seg])].key));
    }
    QString figures = QObject::tr("%1 inferences/s, max memory %2 MiB")
                          .arg(s.throughput_per_s, 0, 'f', 1)
                          .arg(valueOf(s, objectives, dse::Objective::max_memory_bytes) / kMiB, 0, 'f', 1);
    if (objectives.energy)
        figures += QObject::tr(", max energy %1 mJ")
                       .arg(valueOf(s, objectives, dse::Objective::max_energy_mj), 0, 'f', 2);
    if (objectives.latency)
        figures += QObject::tr(", latency %1 ms")
                       .arg(valueOf(s, objectives, dse::Objective::latency_ms), 0, 'f', 3);
    lines << figures;
    lines << QObject::tr("found in stage %1, level %2 (%3), generation %4")
                 .arg(s.stage)
                 .arg(static_cast<int>(s.level))
                 .arg(levelName(s.level))
                 .arg(s.generation);
    return lines.join("\n");
}

DseFrontModel::DseFrontModel(QObject* parent) : QAbstractTableModel(parent) {
    setFront({}, {}, nullptr);
}

void DseFrontModel::setFront(std::vector<dse::Solution> front,
                             const dse::ObjectiveSet& objectives, PartitionInputsPtr inputs) {
    beginResetModel();
    front_ = std::move(front);
    objectives_ = objectives;
    inputs_ = std::move(inputs);
    columns_ = {Column::throughput, Column::bottleneck, Column::memory};
    if (objectives_.energy)
        columns_.push_back(Column::energy);
    if (objectives_.latency)
        columns_.push_back(Column::latency);
    columns_.insert(columns_.end(), {Column::stage, Column::level, Column::mapping});
    endResetModel();
}

QString DseFrontModel::summary(int row) const {
    if (row < 0 || row >= rowCount() || !inputs_)
        return {};
    return dse_solution_summary(front_[static_cast<std::size_t>(row)], objectives_,
                                *inputs_->request.cluster, inputs_->kernelCount());
}

int DseFrontModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(front_.size());
}

int DseFrontModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(columns_.size());
}

QVariant DseFrontModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const auto& s = front_[static_cast<std::size_t>(index.row())];
    const Column column = columns_[static_cast<std::size_t>(index.column())];
    if (role == Qt::ToolTipRole)
        return summary(index.row());
    if (role == Qt::TextAlignmentRole)
        return column <= Column::latency ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                         : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Column::throughput: return QString::number(s.throughput_per_s, 'f', 1);
    case Column::bottleneck:
        return QString::number(valueOf(s, objectives_, dse::Objective::bottleneck_ms), 'f', 3);
    case Column::memory:
        return QString::number(valueOf(s, objectives_, dse::Objective::max_memory_bytes) / kMiB,
                               'f', 1);
    case Column::energy:
        return QString::number(valueOf(s, objectives_, dse::Objective::max_energy_mj), 'f', 2);
    case Column::latency:
        return QString::number(valueOf(s, objectives_, dse::Objective::latency_ms), 'f', 3);
    case Column::stage: return s.stage;
    case Column::level:
        return QString("%1 (%2)").arg(static_cast<int>(s.level)).arg(levelName(s.level));
    case Column::mapping: {
        QStringList points, pes;
        for (const int p : s.mapping.points)
            points << QString::number(p);
        for (const int pe : s.mapping.pes)
            pes << (inputs_ ? QString::fromStdString(
                                  inputs_->request.cluster->pes[static_cast<std::size_t>(pe)].key)
                            : QString::number(pe));
        return QString("%1 | %2").arg(points.isEmpty() ? tr("(no split)") : points.join(","),
                                      pes.join(","));
    }
    }
    return {};
}

QVariant DseFrontModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 ||
        section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (columns_[static_cast<std::size_t>(section)]) {
    case Column::throughput: return tr("Throughput (1/s)");
    case Column::bottleneck: return tr("Bottleneck (ms)");
    case Column::memory: return tr("Max memory (MiB)");
    case Column::energy: return tr("Max energy (mJ)");
    case Column::latency: return tr("Latency (ms)");
    case Column::stage: return tr("Stage");
    case Column::level: return tr("Level");
    case Column::mapping: return tr("Mapping (points | PEs)");
    }
    return {};
}

} // namespace cleave::ui
