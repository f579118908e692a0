#include "ui/graph/node_table_model.hpp"

#include "ui/tables/count_cell.hpp"

namespace cleave::ui {

NodeTableModel::NodeTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void NodeTableModel::setModel(ModelPtr model) {
    beginResetModel();
    model_ = std::move(model);
    endResetModel();
}

int NodeTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !model_ ? 0 : static_cast<int>(model_->nodes.size());
}

int NodeTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString NodeTableModel::outputShapes(const graph::Node& node) const {
    QStringList shapes;
    for (const int t : node.outputs)
        if (t >= 0)
            shapes << QString::fromStdString(graph::shape_to_string(model_->tensors[t].shape));
    return shapes.join(", ");
}

QVariant NodeTableModel::data(const QModelIndex& index, int role) const {
    if (!model_ || !index.isValid())
        return {};
    const auto& node = model_->nodes[static_cast<std::size_t>(index.row())];
    const QString op =
        QString::fromStdString(node.domain.empty() ? node.op : node.domain + "." + node.op);
    switch (index.column()) {
    case Index:
        if (role != SearchRole)
            return rowNumberCell(index.row(), role);
        break;
    case Name:
        if (role == Qt::DisplayRole || role == SortRole || role == Qt::ToolTipRole)
            return QString::fromStdString(node.name);
        break;
    case Op:
        if (role == Qt::DisplayRole || role == SortRole)
            return op;
        break;
    case OutputShape:
        if (role == Qt::DisplayRole || role == SortRole)
            return outputShapes(node);
        break;
    case Parameters:
        return countCell(node.cost.weight_parameters, role);
    case Macs:
        return countCell(node.cost.macs, role);
    case Flops:
        return countCell(node.cost.flops, role);
    default:
        break;
    }
    if (role == SearchRole)
        return QString::fromStdString(node.name) + '\n' + op + '\n' + outputShapes(node);
    if (role == Qt::ToolTipRole && !node.cost.complete)
        return tr("A shape this node needs is unknown: its figures are a lower bound.");
    return {};
}

QVariant NodeTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::TextAlignmentRole)
        return QVariant((section == Name || section == Op || section == OutputShape
                             ? Qt::AlignLeft
                             : Qt::AlignRight) |
                        Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Index:
        return tr("#");
    case Name:
        return tr("Name");
    case Op:
        return tr("Op");
    case OutputShape:
        return tr("Output shape");
    case Parameters:
        return tr("Parameters");
    case Macs:
        return tr("MACs");
    case Flops:
        return tr("FLOPs");
    default:
        return {};
    }
}

} // namespace cleave::ui
