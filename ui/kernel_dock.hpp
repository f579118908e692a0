// How the runtime will fuse the model: a switch of method (shipped rule sets, a rule file or a
// learned classifier), the
// kernel table with a filter, and the fused share of edges. Selecting a kernel reports its nodes.
#pragma once

#include "core/fusion/fusion_method.hpp"
#include "model_loader.hpp"

#include <QDockWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace cleave::ui {

class KernelTableModel;
class TermFilterProxy;

class KernelDock : public QDockWidget {
    Q_OBJECT

public:
    explicit KernelDock(QWidget* parent = nullptr);

    void setModel(const ModelPtr& model);
    // A shipped name ("ort-cpu"), a rule file or "learned:FILE" (a classifier written by
    // cleave fuse-train); a bad file is reported and the current method is kept.
    bool setRuleSet(const QString& spec);
    QString ruleSet() const { return ruleSet_; }

    // Makes this kernel the table's current row (clearing a filter that hides it).
    void selectKernel(int kernel);

    QTableView* view() const { return view_; }
    QLineEdit* filterEdit() const { return filterEdit_; }
    const KernelTableModel* kernels() const { return kernels_; }

signals:
    void kernelSelected(const QList<int>& nodes);
    void currentKernelChanged(int kernel); // index into kernels()->kernels().kernels
    // A new model or rule set regrouped the kernels.
    void kernelsChanged();
    void ruleSetFailed(const QString& message);

private:
    void chooseFile(bool learned);
    void refresh();

    ModelPtr model_;
    QString ruleSet_ = "ort-cpu";
    QComboBox* rules_;
    QLineEdit* filterEdit_;
    QLabel* summary_;
    QTableView* view_;
    KernelTableModel* kernels_;
    TermFilterProxy* proxy_;
    fusion::FusionMethod method_; // what ruleSet_ names, read once
};

} // namespace cleave::ui
