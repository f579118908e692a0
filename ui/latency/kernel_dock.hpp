// How the runtime will fuse the model and what its kernels cost, as the studio document holds
// them: a switch of method (shipped rule sets, a rule file or a learned classifier), a device
// picker, the kernel table with a filter and each kernel's predicted latency, the fused share of
// edges and the predicted total. The current row is the document's selected kernel.
#pragma once

#include "ui/document/latency_report.hpp"

#include <QDockWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace cleave::ui {

class KernelTableModel;
class StudioDocument;
class TermFilterProxy;

class KernelDock : public QDockWidget {
    Q_OBJECT

public:
    explicit KernelDock(StudioDocument* document, QWidget* parent = nullptr);

    // What choosing a method in the dock does: the document's method becomes `spec`, or, when it
    // cannot be read, ruleSetFailed says why and false is returned.
    bool setRuleSet(const QString& spec);
    QString latencyText() const; // the predicted total, or why there is none

    // Makes this kernel the table's current row (clearing a filter that hides it). The table's
    // current row is the document's selected kernel, both ways.
    void selectKernel(int kernel);

    QTableView* view() const { return view_; }
    QLineEdit* filterEdit() const { return filterEdit_; }
    QComboBox* deviceBox() const { return devices_; }
    const KernelTableModel* kernels() const { return kernels_; }

signals:
    void ruleSetFailed(const QString& message);

private:
    void chooseFile(bool learned);
    void chooseDeviceFile();
    void showRuleSet(const QString& spec);
    void showDevice(const QString& device);
    void showKernels();
    void showLatency(const LatencyReportPtr& report);

    StudioDocument* document_;
    QComboBox* rules_;
    QComboBox* devices_;
    QLineEdit* filterEdit_;
    QLabel* summary_;
    QLabel* latencyLabel_;
    QTableView* view_;
    KernelTableModel* kernels_;
    TermFilterProxy* proxy_;
};

} // namespace cleave::ui
