// The Cluster tab's host table: one row per host with its device, the PEs it brings (AutoDiCE
// keys), memory and peak FP32 rate, and, once the Grouping tab has grouped this cluster, the
// host's group in its colour. Host names and devices are edited in place through the document;
// a refused edit is reported by editRefused() and changes nothing.
#pragma once

#include <QAbstractTableModel>
#include <QColor>
#include <QHash>

namespace cleave::ui {

class ClusterDocument;

class ClusterHostModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Host, Device, Pes, Memory, PeakFp32, Group, ColumnCount };
    enum Role { DeviceIdRole = Qt::UserRole + 1 };

    explicit ClusterHostModel(ClusterDocument* document, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    // Each host's group (by host name) and the groups' colours; empty: no grouping to show.
    void setGroups(const QHash<QString, int>& groups, const QList<QColor>& colours);

signals:
    void editRefused(const QString& message);

private:
    ClusterDocument* document_;
    QHash<QString, int> groups_;
    QList<QColor> colours_;
};

} // namespace cleave::ui
