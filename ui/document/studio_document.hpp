// A window's document (in the manner of Tiled's Document): the state the studio shows, which its
// pages and docks observe through signals rather than own, and which a project saves. It holds
// the open model and its path, the fusion method and the kernels it makes of the model, the
// device and the latency predicted for those kernels on it (off the UI thread), the cluster, the
// mapping of the kernels onto it (PartitionDocument, with its undo stack), the DSE tab's search
// (DseDocument), and the undo group of the edits made in the pages. Every change a project would
// save bumps a revision, so "changed since" is a comparison of two numbers, never of serialised
// state.
#pragma once

#include "core/fusion/fusion_method.hpp"
#include "ui/document/model_load_runner.hpp"
#include "ui/latency/latency_report.hpp"
#include "ui/partition/partition_inputs.hpp"

#include <QObject>
#include <QString>

class QTimer;
class QUndoGroup;

namespace cleave::ui {

class ClusterDocument;
class DseDocument;
class GroupingDocument;
class LatencyRunner;
class PartitionDocument;

class StudioDocument : public QObject {
    Q_OBJECT

public:
    explicit StudioDocument(QObject* parent = nullptr);
    ~StudioDocument() override;

    const ModelPtr& model() const { return model_; }
    const QString& modelPath() const { return modelPath_; } // as opened; empty before a model
    // A model loaded from `path` replaces the one open; observers hear modelChanged, then
    // kernelsChanged.
    void setModel(const QString& path, ModelPtr model);

    // A shipped name ("ort-cpu"), a rule file or "learned:FILE" (a classifier written by
    // cleave fuse-train). A method that cannot be read leaves the current one and returns why.
    QString setRuleSet(const QString& spec);
    const QString& ruleSet() const { return ruleSet_; }
    const fusion::FusionMethod& fusionMethod() const { return method_; }
    // The kernels the method makes of the model; null without a model.
    const KernelGraphPtr& kernels() const { return kernels_; }
    // A label per node (the PE a node-level mapping puts it on) that no kernel may span: each
    // part fused on its own, as each PE's runtime fuses its sub-model (fusion::detect_kernels).
    // Empty: the model fused whole. A new model or fusion method clears them.
    void setFusionParts(std::vector<int> parts);
    const std::vector<int>& fusionParts() const { return fusionParts_; }

    // A library id or a device file, chosen by the user; latency is predicted for it by the
    // predictor `cleave predict` picks. Until one is chosen, predictions take the device of the
    // cluster's first host, else the first library device with a predictor that loads, and
    // device() names the one taken, which is no edit.
    void setDevice(const QString& device);
    const QString& device() const { return device_; } // empty until chosen or the default known
    // A measured run of the model, compared with its prediction in every report; null: none.
    void setMeasuredRun(MeasuredRunPtr run);
    // The newest prediction for the kernels on the device; null while one is under way.
    const LatencyReportPtr& latency() const { return latency_; }
    bool isPredicting() const;

    // The cluster the model is split across; null: none. One set here (opened, restored) is
    // shown in the cluster editor with no history; the editor's edits become the cluster.
    void setCluster(ClusterPtr cluster);
    const ClusterPtr& cluster() const { return cluster_; }
    // The Cluster tab's editor of the cluster, with its undo stack.
    ClusterDocument* clusterEditor() const { return clusterEditor_; }
    // The Grouping tab's settings and the grouping of the editor's hosts.
    GroupingDocument* grouping() const { return grouping_; }

    // The mapping the Partition tab shows and edits, and the DSE tab applies solutions to.
    PartitionDocument* mapping() const { return mapping_; }
    // The DSE tab's settings, chart choices and result over the mapping's inputs.
    DseDocument* dse() const { return dse_; }

    // The undo stacks of the pages' edits (mapping, cluster), one active at a time.
    QUndoGroup* history() const { return history_; }

    // A part whose state the project keeps changed outside the above (a search or a grouping
    // ended): counts as a change.
    void noteChange();
    // Counts every change of the document since it was made.
    quint64 revision() const { return revision_; }

signals:
    void modelChanged(const QString& path);
    void ruleSetChanged(const QString& spec);
    // A new model, method or fusion parts regrouped the kernels.
    void kernelsChanged();
    void deviceChanged(const QString& device);
    // A prediction for the kernels on show finished (it may carry an error instead of figures);
    // null when there are no kernels.
    void latencyChanged(cleave::ui::LatencyReportPtr report);
    void clusterChanged();
    // The revision moved.
    void changed();

private:
    void bump();
    void regroup();
    std::string deviceToPredict() const;
    void preparePartition();
    void clusterMoved();
    void schedulePrediction();
    void predict();
    void takeLatency(const LatencyReportPtr& report);

    ModelPtr model_;
    QString modelPath_;
    QString ruleSet_ = "ort-cpu";
    fusion::FusionMethod method_;
    std::vector<int> fusionParts_;
    KernelGraphPtr kernels_;
    QString device_;
    bool deviceChosen_ = false; // by the user or a project; else device_ is the default shown
    MeasuredRunPtr measured_;
    LatencyReportPtr latency_;
    ClusterPtr cluster_;
    ClusterDocument* clusterEditor_;
    GroupingDocument* grouping_;
    bool settingCluster_ = false; // the editor shows the cluster set: not an edit of it
    PartitionDocument* mapping_;
    DseDocument* dse_;
    QUndoGroup* history_;
    LatencyRunner* runner_;
    QTimer* predictTimer_; // gathers the changes of one event-loop turn into one prediction
    quint64 revision_ = 0;
};

} // namespace cleave::ui
