// The Cluster tab's link table: the default link through the switch (the first row) and every
// direct link between two hosts, each with its bandwidth (Gbit/s) and latency (us), edited in
// place through the document.
#pragma once

#include <QAbstractTableModel>

namespace cleave::ui {

class ClusterDocument;

class ClusterLinkModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { A, B, Bandwidth, Latency, ColumnCount };

    explicit ClusterLinkModel(ClusterDocument* document, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

    // Row 0 is the switch; row r > 0 is the cluster's pair r - 1.
    static int pairOf(int row) { return row - 1; }

signals:
    void editRefused(const QString& message);

private:
    ClusterDocument* document_;
};

} // namespace cleave::ui
