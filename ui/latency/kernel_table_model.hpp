// The kernels a runtime will run (core/fusion) as a table: type, member ops, MACs, bytes in and
// out, weight bytes and the predicted latency on the chosen device; numbers sort as numbers
// through SortRole.
#pragma once

#include "core/fusion/kernel_graph.hpp"
#include "core/predict/predictor.hpp"
#include "ui/document/core_ptrs.hpp"
#include "ui/tables/term_filter_proxy.hpp"

#include <QAbstractTableModel>

namespace cleave::ui {

class KernelTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        Index,
        Type,
        Name,
        Latency,
        Ops,
        Macs,
        BytesIn,
        BytesOut,
        WeightBytes,
        ColumnCount
    };
    static constexpr int SortRole = TermFilterProxy::SortRole;
    static constexpr int SearchRole = TermFilterProxy::SearchRole; // type, name and member ops

    explicit KernelTableModel(QObject* parent = nullptr);

    // The kernels shown, shared with the studio document; null: none.
    void setKernels(ModelPtr model, KernelGraphPtr kernels);
    const fusion::KernelGraph& kernels() const { return *kernels_; }
    // One entry per kernel, or none: the Latency column stays empty.
    void setLatency(std::vector<predict::KernelLatency> latency);
    bool hasLatency() const { return !latency_.empty(); }
    const ModelPtr& model() const { return model_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QString ops(const fusion::Kernel& kernel) const;
    QVariant latencyCell(int row, int role) const;

    ModelPtr model_;
    KernelGraphPtr kernels_ = std::make_shared<const fusion::KernelGraph>();
    std::vector<predict::KernelLatency> latency_;
};

} // namespace cleave::ui
