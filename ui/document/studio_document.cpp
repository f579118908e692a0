#include "ui/document/studio_document.hpp"

#include "core/input_error.hpp"
#include "ui/cluster/cluster_document.hpp"
#include "ui/cluster/grouping_document.hpp"
#include "ui/dse/dse_document.hpp"
#include "ui/latency/latency_runner.hpp"
#include "ui/partition/partition_document.hpp"

#include <QTimer>
#include <QUndoGroup>
#include <utility>

namespace cleave::ui {

StudioDocument::StudioDocument(QObject* parent)
    : QObject(parent), method_(fusion::find_fusion_method(ruleSet_.toStdString())),
      clusterEditor_(new ClusterDocument(this)),
      grouping_(new GroupingDocument(clusterEditor_, this)), mapping_(new PartitionDocument(this)),
      dse_(new DseDocument(mapping_, this)), history_(new QUndoGroup(this)),
      runner_(new LatencyRunner(this)), predictTimer_(new QTimer(this)) {
    predictTimer_->setSingleShot(true);
    predictTimer_->setInterval(0);
    connect(predictTimer_, &QTimer::timeout, this, &StudioDocument::predict);
    connect(runner_, &LatencyRunner::predicted, this, &StudioDocument::takeLatency);
    history_->addStack(mapping_->undoStack());
    history_->addStack(clusterEditor_->undoStack());
    // An edit, undo or redo in the editor: the cluster from then on (null without hosts).
    connect(clusterEditor_, &ClusterDocument::changed, this, [this] {
        if (settingCluster_)
            return;
        cluster_ = clusterEditor_->clusterPtr();
        clusterMoved();
    });
    connect(dse_, &DseDocument::changed, this, &StudioDocument::noteChange);
    connect(grouping_, &GroupingDocument::changed, this, &StudioDocument::noteChange);
}

StudioDocument::~StudioDocument() = default;

void StudioDocument::bump() {
    ++revision_;
    emit changed();
}

void StudioDocument::noteChange() {
    bump();
}

void StudioDocument::setModel(const QString& path, ModelPtr model) {
    model_ = std::move(model);
    modelPath_ = path;
    fusionParts_.clear();
    bump();
    emit modelChanged(path);
    regroup();
}

QString StudioDocument::setRuleSet(const QString& spec) {
    try {
        method_ = fusion::find_fusion_method(spec.toStdString());
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    const bool same = spec == ruleSet_;
    ruleSet_ = spec;
    fusionParts_.clear();
    if (!same)
        bump();
    emit ruleSetChanged(spec);
    regroup(); // a rule file read again may group differently
    return {};
}

void StudioDocument::setDevice(const QString& device) {
    const bool same = device == device_;
    deviceChosen_ = true;
    if (same)
        return;
    device_ = device;
    bump();
    emit deviceChanged(device);
    schedulePrediction();
}

// Until one is chosen: the device of the cluster's first host, else (empty) the first library
// device with a predictor that loads.
std::string StudioDocument::deviceToPredict() const {
    if (!deviceChosen_ && cluster_ && !cluster_->hosts.empty())
        return cluster_->hosts.front().device_ref;
    return deviceChosen_ ? device_.toStdString() : std::string();
}

void StudioDocument::setMeasuredRun(MeasuredRunPtr run) {
    if (run == measured_)
        return;
    measured_ = std::move(run);
    schedulePrediction();
}

bool StudioDocument::isPredicting() const {
    return predictTimer_->isActive() || runner_->isRunning();
}

void StudioDocument::setCluster(ClusterPtr cluster) {
    if (cluster == cluster_)
        return;
    cluster_ = std::move(cluster);
    settingCluster_ = true;
    clusterEditor_->setCluster(cluster_);
    settingCluster_ = false;
    clusterMoved();
}

// A new cluster: a change; the mapping's inputs, and the default device, follow it.
void StudioDocument::clusterMoved() {
    bump();
    emit clusterChanged();
    preparePartition();
    if (!deviceChosen_)
        schedulePrediction();
}

void StudioDocument::setFusionParts(std::vector<int> parts) {
    if (parts == fusionParts_ || (!parts.empty() && (!model_ || parts.size() != model_->nodes.size())))
        return;
    fusionParts_ = std::move(parts);
    bump();
    regroup();
}

// Every change of model, method or fusion parts comes here: the kernels, then their prediction.
void StudioDocument::regroup() {
    kernels_ = model_ ? std::make_shared<const fusion::KernelGraph>(
                            fusion::detect_kernels(*model_, method_, fusionParts_))
                      : nullptr;
    schedulePrediction();
    emit kernelsChanged();
    preparePartition();
}

// The mapping's inputs: every kernel predicted on every PE of the cluster.
void StudioDocument::preparePartition() {
    mapping_->prepare({model_, kernels_, cluster_, ruleSet_.toStdString()});
}

// The figures on show stay until the new ones arrive, a few milliseconds later.
void StudioDocument::schedulePrediction() {
    latency_.reset();
    predictTimer_->start();
}

void StudioDocument::predict() {
    if (!kernels_) {
        emit latencyChanged(nullptr);
        return;
    }
    runner_->start({model_, kernels_, deviceToPredict(), ruleSet_.toStdString(), measured_});
}

void StudioDocument::takeLatency(const LatencyReportPtr& report) {
    latency_ = report;
    const QString shown = QString::fromStdString(report->request.device);
    if (!deviceChosen_ && report->hasFigures() && shown != device_) { // the default: no edit
        device_ = shown;
        emit deviceChanged(device_);
    }
    emit latencyChanged(report);
}

} // namespace cleave::ui
