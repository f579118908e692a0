// The model's nodes as a table (name, op, output shape, parameters, MACs, FLOPs) in
// topological order; numbers sort as numbers through SortRole.
#pragma once

#include "ui/document/model_load_runner.hpp"
#include "ui/tables/term_filter_proxy.hpp"

#include <QAbstractTableModel>

namespace cleave::ui {

class NodeTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Index, Name, Op, OutputShape, Parameters, Macs, Flops, ColumnCount };
    static constexpr int SortRole = TermFilterProxy::SortRole;
    // Text a filter term may match: name, op (with domain) and output shapes.
    static constexpr int SearchRole = TermFilterProxy::SearchRole;

    explicit NodeTableModel(QObject* parent = nullptr);

    void setModel(ModelPtr model);
    const ModelPtr& model() const { return model_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QString outputShapes(const graph::Node& node) const;

    ModelPtr model_;
};

} // namespace cleave::ui
