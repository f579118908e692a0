#include "ui/cluster/cluster_host_model.hpp"

#include "ui/document/cluster_document.hpp"

#include <QBrush>
#include <QLocale>
#include <QStringList>

namespace cleave::ui {

namespace {

QString number(double value) {
    return QLocale().toString(value, 'g', 6);
}

// A derived rate carries a '*', as in `cleave devices list`.
QString peakText(const device::DeviceSpec& device) {
    QStringList rates;
    for (const auto& pe : device.processing_elements)
        rates << (pe.peak_gflops.fp32 ? number(*pe.peak_gflops.fp32) +
                                            (pe.peak_gflops.derived ? "*" : "")
                                      : QString("–"));
    return rates.join(" / ");
}

QString memoryText(const device::DeviceSpec& device) {
    if (!device.memory || !device.memory->capacity_gib)
        return "–";
    return QObject::tr("%1 GiB").arg(number(*device.memory->capacity_gib));
}

// Black or white, whichever reads better on `background`.
QColor textOn(const QColor& background) {
    return background.lightnessF() > 0.55 ? Qt::black : Qt::white;
}

} // namespace

ClusterHostModel::ClusterHostModel(ClusterDocument* document, QObject* parent)
    : QAbstractTableModel(parent), document_(document) {
    connect(document_, &ClusterDocument::changed, this, [this] {
        beginResetModel();
        endResetModel();
    });
}

int ClusterHostModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : document_->hostCount();
}

int ClusterHostModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ClusterHostModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const auto& cluster = document_->cluster();
    const auto row = static_cast<std::size_t>(index.row());
    const auto& host = cluster.hosts[row];
    const QString name = QString::fromStdString(host.host);
    const auto group = groups_.constFind(name);
    const bool grouped = group != groups_.constEnd() && *group < colours_.size();
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (index.column()) {
        case Host:
            return name;
        case Device:
            return QString::fromStdString(role == Qt::EditRole ? host.device_ref : host.device.id);
        case Pes: {
            QStringList keys;
            for (const auto& pe : cluster.pes)
                if (pe.host_index == row)
                    keys << QString::fromStdString(pe.key);
            return keys.join(' ');
        }
        case Memory:
            return memoryText(host.device);
        case PeakFp32:
            return peakText(host.device);
        case Group:
            return grouped ? tr("group %1").arg(*group + 1) : QString();
        }
    }
    if (role == DeviceIdRole)
        return QString::fromStdString(host.device_ref);
    if (role == Qt::ToolTipRole) {
        if (index.column() == Host && !host.match.empty())
            return tr("Matched from the platform file: %1").arg(QString::fromStdString(host.match));
        if (index.column() == Device || index.column() == Host)
            return QString::fromStdString(host.device.name);
        if (index.column() == PeakFp32)
            return tr("Peak FP32 GFLOP/s of each PE, in the order of the PEs column; * derived "
                      "as cores x clock x FLOP per clock where no document gives the rate "
                      "(cleave devices show %1); – where no figure is known")
                .arg(QString::fromStdString(host.device.id));
    }
    if (grouped && index.column() == Group) {
        if (role == Qt::BackgroundRole)
            return QBrush(colours_[*group]);
        if (role == Qt::ForegroundRole)
            return QBrush(textOn(colours_[*group]));
    }
    if (grouped && index.column() == Host && role == Qt::DecorationRole)
        return colours_[*group];
    return {};
}

QVariant ClusterHostModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Host:
        return tr("Host");
    case Device:
        return tr("Device");
    case Pes:
        return tr("PEs (AutoDiCE keys)");
    case Memory:
        return tr("Memory");
    case PeakFp32:
        return tr("Peak FP32 GFLOP/s");
    case Group:
        return tr("Group");
    }
    return {};
}

Qt::ItemFlags ClusterHostModel::flags(const QModelIndex& index) const {
    auto flags = QAbstractTableModel::flags(index);
    if (index.column() == Host || index.column() == Device)
        flags |= Qt::ItemIsEditable;
    return flags;
}

bool ClusterHostModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (role != Qt::EditRole || !index.isValid())
        return false;
    QString error;
    if (index.column() == Host)
        error = document_->renameHost(index.row(), value.toString());
    else if (index.column() == Device)
        error = document_->setDevice(index.row(), value.toString());
    else
        return false;
    if (!error.isEmpty()) {
        emit editRefused(error);
        return false;
    }
    return true;
}

void ClusterHostModel::setGroups(const QHash<QString, int>& groups, const QList<QColor>& colours) {
    groups_ = groups;
    colours_ = colours;
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

} // namespace cleave::ui
