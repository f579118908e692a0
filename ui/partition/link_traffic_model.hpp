// The traffic of the mapping on show, one row per direction of each link between two hosts
// (tensors between PEs of one host go through its memory and get a row of their own): how many
// tensors cross, their bytes and the transfer time per input.
#pragma once

#include <QAbstractTableModel>
#include <cstdint>
#include <vector>

namespace cleave::ui {

class PartitionDocument;

class LinkTrafficModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Link, Tensors, Bytes, Milliseconds, ColumnCount };

    explicit LinkTrafficModel(PartitionDocument* document, QObject* parent = nullptr);

    struct Row {
        int from_host = -1;
        int to_host = -1;
        int tensors = 0;
        std::int64_t bytes = 0;
        double ms = 0;
    };
    const std::vector<Row>& links() const { return rows_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    void refresh();

    PartitionDocument* document_;
    std::vector<Row> rows_;
};

} // namespace cleave::ui
