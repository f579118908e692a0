// How the runtime will fuse the model and what its kernels cost: a switch of method (shipped rule
// sets, a rule file or a learned classifier), a device picker, the kernel table with a filter and
// each kernel's predicted latency, the fused share of edges and the predicted total. Selecting a
// kernel reports its nodes.
#pragma once

#include "core/fusion/fusion_method.hpp"
#include "ui/latency/latency_report.hpp"
#include "ui/document/model_load_runner.hpp"

#include <QDockWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTimer;

namespace cleave::ui {

class KernelTableModel;
class LatencyRunner;
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
    // A library id or a device file; latency is predicted for it by the predictor `cleave predict`
    // picks (shipped for the id, else a roofline from the spec). Until one is set, the first
    // prediction takes the first library device with a predictor that loads.
    void setDevice(const QString& device);
    QString device() const { return device_; } // empty until set or the default is known
    // A measured run of the model, compared with its prediction in every report; null: none.
    void setMeasuredRun(MeasuredRunPtr run);

    // The kernels on show, shared with the graph and the properties dock; null without a model.
    const KernelGraphPtr& kernelGraph() const { return graph_; }
    // The newest prediction for them; null while one is under way.
    const LatencyReportPtr& latency() const { return latency_; }
    bool isPredicting() const;
    QString latencyText() const; // the predicted total, or why there is none

    // Makes this kernel the table's current row (clearing a filter that hides it).
    void selectKernel(int kernel);

    QTableView* view() const { return view_; }
    QLineEdit* filterEdit() const { return filterEdit_; }
    QComboBox* deviceBox() const { return devices_; }
    const KernelTableModel* kernels() const { return kernels_; }

signals:
    void kernelSelected(const QList<int>& nodes);
    void currentKernelChanged(int kernel); // index into kernels()->kernels().kernels
    // A new model or rule set regrouped the kernels.
    void kernelsChanged();
    void ruleSetFailed(const QString& message);
    // A prediction for the kernels on show finished (it may carry an error instead of figures).
    void latencyChanged(cleave::ui::LatencyReportPtr report);

private:
    void chooseFile(bool learned);
    void chooseDeviceFile();
    void refresh();
    void schedulePrediction();
    void predict();
    void showLatency(const LatencyReportPtr& report);

    ModelPtr model_;
    QString ruleSet_ = "ort-cpu";
    QComboBox* rules_;
    QComboBox* devices_;
    QLineEdit* filterEdit_;
    QLabel* summary_;
    QLabel* latencyLabel_;
    QTableView* view_;
    KernelTableModel* kernels_;
    TermFilterProxy* proxy_;
    fusion::FusionMethod method_; // what ruleSet_ names, read once
    QString device_;
    KernelGraphPtr graph_;
    MeasuredRunPtr measured_;
    LatencyReportPtr latency_;
    LatencyRunner* runner_;
    QTimer* predictTimer_; // gathers the changes of one event-loop turn into one prediction
};

} // namespace cleave::ui
