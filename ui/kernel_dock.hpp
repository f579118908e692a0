// How the runtime will fuse the model: a rule-set switch (shipped sets or a rule file), the
// kernel table with a filter, and the fused share of edges. Selecting a kernel reports its nodes.
#pragma once

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
    // A shipped name ("ort-cpu") or a rule file; a bad file is reported and the set is kept.
    bool setRuleSet(const QString& name_or_path);
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
    void chooseRuleFile();
    void refresh();

    ModelPtr model_;
    QString ruleSet_ = "ort-cpu";
    QComboBox* rules_;
    QLineEdit* filterEdit_;
    QLabel* summary_;
    QTableView* view_;
    KernelTableModel* kernels_;
    TermFilterProxy* proxy_;
};

} // namespace cleave::ui
