// A window's document (in the manner of Tiled's Document): the state the studio shows, which its
// pages and docks observe through signals rather than own, which a project saves, and the only way
// that state changes. It holds the open model, its path and the input shapes and dim bindings it
// was read with
// (loaded off the UI thread), the fusion method and the kernels it makes of the model, the device
// and the latency predicted for those kernels on it, the measured dataset predictions are compared
// with, the selection every view shows, the cluster (held once, in its editor), the mapping of the
// kernels onto it (PartitionDocument, with its undo stack), the DSE tab's search (DseDocument), the
// grouping, and the undo group of the edits made in the pages. Flows that wait (a model loading,
// a mapping waiting for its kernels to be predicted, a project applied step by step) run here, one
// pending slot each. Every change a project would save bumps a revision, so "changed since" is a
// comparison of two numbers, never of serialised state.
#pragma once

#include "core/fusion/fusion_method.hpp"
#include "core/graph/dim_bindings.hpp"
#include "core/partition/mapping.hpp"
#include "core/project/project.hpp"
#include "ui/document/core_ptrs.hpp"
#include "ui/document/latency_report.hpp"

#include <QObject>
#include <QString>
#include <QStringList>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QTimer;
class QUndoGroup;

namespace cleave::ui {

class ClusterDocument;
class DseDocument;
class GroupingDocument;
class LatencyRunner;
class ModelLoadRunner;
class PartitionDocument;
class TaskRunner;

using InputShapes = std::map<std::string, graph::Shape>;

// What the views show as picked: a node or a kernel (indices into the model and the kernels on
// show), or nothing.
struct Selection {
    int node = -1;
    int kernel = -1;
    bool operator==(const Selection&) const = default;
};

class StudioDocument : public QObject {
    Q_OBJECT

public:
    explicit StudioDocument(QObject* parent = nullptr);
    ~StudioDocument() override;

    // ---- the model
    // Loads in the background and returns at once; the model on show stays until the new one is
    // ready (kernelsChanged, then modelChanged), or the load fails (loadFailed) or is cancelled
    // (loadCancelled). Only the newest request is reported. `inputShapes`: dims by input name, as
    // --input-shape gives them; `dims`: symbolic dims bound as --dim, --batch, --prefill and
    // --decode bind them (a decoder loads only with its token counts bound).
    void openModel(const QString& path, InputShapes inputShapes = {}, graph::DimBindings dims = {});
    void cancelLoad();
    bool isLoading() const;
    // The loader, for its progress.
    ModelLoadRunner* loader() const { return loader_; }
    const ModelPtr& model() const { return model_; }
    const QString& modelPath() const { return modelPath_; } // as opened; empty before a model
    // The input shapes the model on show was read with (those given; the rest from the file).
    const InputShapes& inputShapes() const { return inputShapes_; }
    // The dim bindings the model on show was read with.
    const graph::DimBindings& dimBindings() const { return dims_; }
    // The newest model asked for, shown or not (one that failed for unbound dims is asked for
    // again with them): its path (empty before any), input shapes and dim bindings.
    const QString& requestedPath() const { return requestedPath_; }
    const InputShapes& requestedShapes() const { return requestedShapes_; }
    const graph::DimBindings& requestedDims() const { return requestedDims_; }
    // A model read elsewhere replaces the one open; observers hear kernelsChanged, then
    // modelChanged, when everything of the new model is in place.
    void setModel(const QString& path, ModelPtr model, InputShapes inputShapes = {},
                  graph::DimBindings dims = {});

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

    // ---- what is picked
    // A node or kernel picked in any view; every view shows it. Setting what is already picked
    // emits nothing, so views that show a pick they made hear no echo.
    void select(Selection selection);
    void selectNode(int node) { select({node, -1}); }
    void selectKernel(int kernel) { select({-1, kernel}); }
    const Selection& selection() const { return selection_; }

    // ---- latency
    // A library id or a device file, chosen by the user; latency is predicted for it by the
    // predictor `cleave predict` picks. Until one is chosen, predictions take the device of the
    // cluster's first host, else the first library device with a predictor that loads, and
    // device() names the one taken, which is no edit.
    void setDevice(const QString& device);
    const QString& device() const { return device_; } // empty until chosen or the default known
    // Measured runs to compare predictions with (a dataset read in the background: datasetChanged
    // or datasetFailed); null: none.
    void openDataset(const QString& path);
    void setDataset(MeasuredDatasetPtr dataset);
    const MeasuredDatasetPtr& dataset() const { return dataset_; }
    // A measured run of the model, compared with its prediction in every report; null: none.
    void setMeasuredRun(MeasuredRunPtr run);
    const MeasuredRunPtr& measuredRun() const { return measured_; }
    // The newest prediction for the kernels on the device; null while one is under way.
    const LatencyReportPtr& latency() const { return latency_; }
    bool isPredicting() const;

    // ---- the cluster
    // The cluster the model is split across, as its editor holds it; null: none (or no hosts).
    // One set here (opened, restored) is shown in the editor with no history; the editor's edits
    // become the cluster.
    void setCluster(const ClusterPtr& cluster);
    // Reads a cluster file or platform.txt (device::load_cluster) and sets it (clusterOpened); an
    // error naming the file and the place, or empty.
    QString openCluster(const QString& path);
    ClusterPtr cluster() const;
    // The Cluster tab's editor of the cluster, with its undo stack.
    ClusterDocument* clusterEditor() const { return clusterEditor_; }
    // The Grouping tab's settings and the grouping of the editor's hosts.
    GroupingDocument* grouping() const { return grouping_; }

    // ---- the mapping
    // The mapping the Partition tab shows and edits, and the DSE tab applies solutions to.
    PartitionDocument* mapping() const { return mapping_; }
    // Reads an AutoDiCE mapping.json of the model on show over the cluster and opens it
    // (openMapping); an error naming the file and the place, or empty when it is being opened.
    QString openMappingFile(const QString& path);
    // Shows a node-level mapping (the cluster PE of every model node) as one undo step named
    // after `source`: at once where it keeps every kernel on one PE and the kernels on show are
    // predicted; else once they are, fused per PE where the mapping cuts them. Ends in
    // mappingOpened (with a notice per cut kernel and per PE that runs several stretches) or
    // mappingFailed. An error for what is wrong at once, or empty.
    QString openMapping(std::vector<int> peOfNode, const QString& source);
    bool isOpeningMapping() const { return pendingMapping_ != nullptr; }

    // The DSE tab's settings, chart choices and result over the mapping's inputs.
    DseDocument* dse() const { return dse_; }

    // ---- projects
    // The document as a project (paths absolute).
    project::Project snapshot() const;
    // Restores `project`, read from `file` (for messages and relative paths): the fusion rules, the
    // device and the cluster at once, then the model (in the background), then its mapping once
    // the kernels are predicted, then the DSE and grouping state. Ends in applied(), with each
    // problem met on the way said once; what could be restored is.
    void apply(project::Project project, const QString& file);
    bool isApplying() const { return applying_ != nullptr; }

    // The undo stacks of the pages' edits (mapping, cluster), one active at a time.
    QUndoGroup* history() const { return history_; }

    // A part whose state the project keeps changed outside the above (a search or a grouping
    // ended): counts as a change.
    void noteChange();
    // Counts every change of the document since it was made.
    quint64 revision() const { return revision_; }

signals:
    void loadStarted(const QString& path);
    void loadFailed(const QString& path, const QString& message);
    void loadCancelled(const QString& path);
    void modelChanged(const QString& path);
    void ruleSetChanged(const QString& spec);
    // A new model, method or fusion parts regrouped the kernels.
    void kernelsChanged();
    void selectionChanged(const cleave::ui::Selection& selection);
    void deviceChanged(const QString& device);
    void datasetChanged(const QString& path);
    void datasetFailed(const QString& path, const QString& message);
    // A prediction for the kernels on show finished (it may carry an error instead of figures);
    // null when there are no kernels.
    void latencyChanged(cleave::ui::LatencyReportPtr report);
    void clusterChanged();
    void clusterOpened(const QString& path); // read from a file (openCluster)
    void mappingOpened(const QString& source, const QString& notice);
    void mappingFailed(const QString& source, const QString& message);
    // A project was applied: its problems, one line each (empty when all of it was restored).
    void applied(const QStringList& problems);
    // The revision moved.
    void changed();

private:
    struct PendingMapping;
    struct Applying;

    void bump();
    void regroup();
    std::string deviceToPredict() const;
    void preparePartition();
    void clusterMoved();
    void schedulePrediction();
    void predict();
    void takeLatency(const LatencyReportPtr& report);
    void takeModel(const QString& path, const ModelPtr& model);
    void failLoad(const QString& path, const QString& message);
    std::optional<QString> showPendingMapping();
    void continueMapping();
    void applyMapping();
    void finishApply();

    ModelLoadRunner* loader_;
    ModelPtr model_;
    QString modelPath_;
    QString requestedPath_; // of the newest load
    InputShapes requestedShapes_;
    graph::DimBindings requestedDims_;
    InputShapes inputShapes_;
    graph::DimBindings dims_;
    QString ruleSet_ = "ort-cpu";
    fusion::FusionMethod method_;
    std::vector<int> fusionParts_;
    KernelGraphPtr kernels_;
    Selection selection_;
    QString device_;
    bool deviceChosen_ = false; // by the user or a project; else device_ is the default shown
    TaskRunner* datasetReader_;
    MeasuredDatasetPtr dataset_;
    MeasuredRunPtr measured_;
    LatencyReportPtr latency_;
    ClusterDocument* clusterEditor_;
    GroupingDocument* grouping_;
    PartitionDocument* mapping_;
    DseDocument* dse_;
    QUndoGroup* history_;
    LatencyRunner* runner_;
    QTimer* predictTimer_; // gathers the changes of one event-loop turn into one prediction
    std::unique_ptr<PendingMapping> pendingMapping_;
    std::unique_ptr<Applying> applying_;
    quint64 revision_ = 0;
};

} // namespace cleave::ui

Q_DECLARE_METATYPE(cleave::ui::Selection)
