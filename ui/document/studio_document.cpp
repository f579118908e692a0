#include "ui/document/studio_document.hpp"

#include "core/autodice/mapping_file.hpp"
#include "core/input_error.hpp"
#include "ui/document/cluster_document.hpp"
#include "ui/document/grouping_document.hpp"
#include "ui/document/autosave_files.hpp"
#include "ui/document/model_load_runner.hpp"
#include "ui/document/task_runner.hpp"
#include "ui/document/dse_document.hpp"
#include "ui/document/latency_runner.hpp"
#include "ui/document/partition_document.hpp"

#include <QFileInfo>
#include <QTimer>
#include <QUndoGroup>
#include <QUndoStack>
#include <utility>

namespace cleave::ui {

namespace {

QString shapeText(const std::string& name, const graph::Shape& dims) {
    QString text = QString::fromStdString(name) + "=";
    for (std::size_t i = 0; i < dims.size(); ++i)
        text += (i ? "x" : "") + QString::number(dims[i]);
    return text;
}

} // namespace

// A mapping waiting for the kernels it is shown over to be predicted.
struct StudioDocument::PendingMapping {
    QString source;      // the file it came from
    std::string place;   // where in that file, for messages ("/mapping" of a project)
    partition::KernelAssignment assignment;
    KernelGraphPtr kernels; // the kernels the assignment is of
    ClusterPtr cluster;
    QStringList cuts; // the kernels of the whole model's fusion it cut
};

// A project being applied: what it waits for, and the problems met so far.
struct StudioDocument::Applying {
    project::Project project;
    QString file;
    bool modelTaken = false;
    bool mappingAsked = false;
    QStringList problems;
};

StudioDocument::StudioDocument(QObject* parent)
    : QObject(parent), loader_(new ModelLoadRunner(this)),
      method_(fusion::find_fusion_method(ruleSet_.toStdString())),
      datasetReader_(new TaskRunner(this)), clusterEditor_(new ClusterDocument(this)),
      grouping_(new GroupingDocument(clusterEditor_, this)), mapping_(new PartitionDocument(this)),
      dse_(new DseDocument(mapping_, this)), history_(new QUndoGroup(this)),
      runner_(new LatencyRunner(this)), predictTimer_(new QTimer(this)) {
    qRegisterMetaType<Selection>();
    predictTimer_->setSingleShot(true);
    predictTimer_->setInterval(0);
    connect(predictTimer_, &QTimer::timeout, this, &StudioDocument::predict);
    connect(runner_, &LatencyRunner::predicted, this, &StudioDocument::takeLatency);
    connect(loader_, &ModelLoadRunner::loaded, this, &StudioDocument::takeModel);
    connect(loader_, &ModelLoadRunner::failed, this, &StudioDocument::failLoad);
    connect(loader_, &ModelLoadRunner::cancelled, this, [this](const QString& path) {
        emit loadCancelled(path);
        if (applying_) {
            applying_->problems << tr("opening the model %1 was cancelled").arg(path);
            finishApply();
        }
    });
    connect(mapping_, &PartitionDocument::prepared, this, [this] {
        if (pendingMapping_)
            continueMapping();
        else if (applying_)
            applyMapping();
    });
    history_->addStack(mapping_->undoStack());
    history_->addStack(clusterEditor_->undoStack());
    // The editor holds the cluster: one set here, an edit, an undo or a redo all arrive here.
    connect(clusterEditor_, &ClusterDocument::changed, this, &StudioDocument::clusterMoved);
    connect(dse_, &DseDocument::changed, this, &StudioDocument::noteChange);
    connect(mapping_, &PartitionDocument::workloadChanged, this, &StudioDocument::noteChange);
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

// ---- the model -------------------------------------------------------------------------------

void StudioDocument::openModel(const QString& path, InputShapes inputShapes,
                               graph::DimBindings dims) {
    requestedPath_ = path;
    requestedShapes_ = inputShapes;
    requestedDims_ = dims;
    emit loadStarted(path);
    loader_->load(path, std::move(inputShapes), std::move(dims));
}

void StudioDocument::cancelLoad() {
    loader_->cancel();
}

bool StudioDocument::isLoading() const {
    return loader_->isLoading();
}

void StudioDocument::takeModel(const QString& path, const ModelPtr& model) {
    setModel(path, model, requestedShapes_, requestedDims_);
    if (applying_) {
        applying_->modelTaken = true;
        applyMapping();
    }
}

void StudioDocument::failLoad(const QString& path, const QString& message) {
    emit loadFailed(path, message);
    if (applying_) {
        applying_->problems << tr("the model could not be opened: %1").arg(message);
        finishApply();
    }
}

void StudioDocument::setModel(const QString& path, ModelPtr model, InputShapes inputShapes,
                              graph::DimBindings dims) {
    model_ = std::move(model);
    modelPath_ = path;
    inputShapes_ = std::move(inputShapes);
    dims_ = std::move(dims);
    fusionParts_.clear();
    bump();
    regroup();
    emit modelChanged(path); // with its kernels in place
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
    selection_ = {}; // indices into the kernels and nodes replaced
    schedulePrediction();
    emit kernelsChanged();
    preparePartition();
}

void StudioDocument::select(Selection selection) {
    if (selection == selection_)
        return;
    selection_ = selection;
    emit selectionChanged(selection_);
}

// ---- latency ---------------------------------------------------------------------------------

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
    const auto shown = cluster();
    if (!deviceChosen_ && shown && !shown->hosts.empty())
        return shown->hosts.front().device_ref;
    return deviceChosen_ ? device_.toStdString() : std::string();
}

void StudioDocument::openDataset(const QString& path) {
    struct Outcome {
        MeasuredDatasetPtr dataset;
        QString error;
    };
    datasetReader_->start<Outcome>(
        [file = path.toStdString()]() -> Outcome {
            try {
                return {std::make_shared<const profile::MeasuredDataset>(
                            profile::load_measured_dataset(file)),
                        {}};
            } catch (const std::exception& e) {
                return {nullptr, QString::fromStdString(e.what())};
            }
        },
        [this, path](const Outcome& outcome) {
            if (!outcome.dataset)
                return emit datasetFailed(path, outcome.error);
            setDataset(outcome.dataset);
            emit datasetChanged(path);
        });
}

void StudioDocument::setDataset(MeasuredDatasetPtr dataset) {
    dataset_ = std::move(dataset);
    setMeasuredRun(nullptr); // a run of the dataset replaced
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

// ---- the cluster -----------------------------------------------------------------------------

ClusterPtr StudioDocument::cluster() const {
    return clusterEditor_->clusterPtr();
}

void StudioDocument::setCluster(const ClusterPtr& cluster) {
    if (cluster == clusterEditor_->clusterPtr())
        return;
    clusterEditor_->setCluster(cluster); // clusterMoved
}

QString StudioDocument::openCluster(const QString& path) {
    ClusterPtr cluster;
    try {
        cluster = std::make_shared<const device::Cluster>(device::load_cluster(path.toStdString()));
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    setCluster(cluster);
    emit clusterOpened(path);
    return {};
}

// A new cluster: a change; the mapping's inputs, and the default device, follow it.
void StudioDocument::clusterMoved() {
    bump();
    emit clusterChanged();
    preparePartition();
    if (!deviceChosen_)
        schedulePrediction();
}

// The mapping's inputs: every kernel predicted on every PE of the cluster.
void StudioDocument::preparePartition() {
    mapping_->prepare({model_, kernels_, cluster(), ruleSet_.toStdString(), inputShapes_, dims_});
}

// ---- the mapping -----------------------------------------------------------------------------

QString StudioDocument::openMappingFile(const QString& path) {
    const auto shown = cluster();
    if (!model_ || !shown)
        return tr("Open a model and a cluster before a mapping.");
    std::vector<int> peOfNode;
    try {
        peOfNode = autodice::read_mapping_file(path.toStdString(), *model_, *shown);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return openMapping(std::move(peOfNode), path);
}

QString StudioDocument::openMapping(std::vector<int> peOfNode, const QString& source) {
    const auto shown = cluster();
    if (!model_ || !kernels_ || !shown)
        return tr("Open a model and a cluster before a mapping.");
    auto pending = std::make_unique<PendingMapping>();
    pending->source = source;
    pending->place = applying_ && applying_->file == source ? "/mapping" : "";
    pending->cluster = shown;
    try {
        auto mapped = autodice::mapped_kernels(peOfNode, *model_, *kernels_, method_, *shown);
        pending->assignment = std::move(mapped.assignment);
        for (const auto& cut : mapped.cut)
            pending->cuts << QString::fromStdString(cut);
        if (!mapped.cut.empty()) {
            // Each PE fuses its own nodes, as its runtime will: the kernels fused per part.
            fusionParts_ = std::move(peOfNode);
            kernels_ = std::make_shared<const fusion::KernelGraph>(std::move(mapped.kernels));
            selection_ = {};
            bump();
            schedulePrediction();
            emit kernelsChanged();
        }
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    pending->kernels = kernels_;
    const bool cut = !pending->cuts.isEmpty();
    pendingMapping_ = std::move(pending);
    if (cut) {
        preparePartition();
        mapping_->setNotice(tr("Opening %1: its PEs' nodes are fused apart and predicted…")
                                .arg(QFileInfo(source).fileName()));
        return {};
    }
    return showPendingMapping().value_or(QString());
}

// The pending mapping shown once the kernels it is of are predicted for its cluster: empty when
// shown, else why it cannot be; nothing while it still waits. The pending slot ends unless it
// waits.
std::optional<QString> StudioDocument::showPendingMapping() {
    const auto& pending = *pendingMapping_;
    const auto& inputs = mapping_->inputs();
    if (pending.kernels != kernels_ || pending.cluster != cluster()) {
        pendingMapping_.reset();
        return tr("the model, its kernels or the cluster changed before the mapping was shown");
    }
    const bool current =
        inputs && inputs->request.kernels == pending.kernels && inputs->request.cluster == pending.cluster;
    if (!current) {
        if (mapping_->isPreparing())
            return std::nullopt;
        const QString failure = mapping_->failure();
        pendingMapping_.reset();
        return failure.isEmpty() ? tr("the kernels could not be predicted on the cluster") : failure;
    }
    const QString name = QFileInfo(pending.source).fileName();
    autodice::MappingSegments segments;
    try {
        segments = autodice::mapping_segments(pending.assignment, *inputs->request.cluster,
                                              inputs->pe_errors, pending.source.toStdString(),
                                              pending.place);
    } catch (const std::exception& e) {
        pendingMapping_.reset();
        return QString::fromStdString(e.what());
    }
    const QStringList cuts = pending.cuts;
    const QString source = pending.source;
    pendingMapping_.reset();
    mapping_->replaceMapping(segments.mapping, tr("Open %1").arg(name));
    QStringList notices;
    if (!cuts.isEmpty())
        notices << tr("%1 cuts through kernels, so each PE fuses its nodes on its own and the "
                      "parts are costed as kernels of their own: %2")
                       .arg(name, cuts.join("; "));
    QStringList scattered;
    for (const auto& note : segments.scattered)
        scattered << QString::fromStdString(note);
    if (!scattered.isEmpty())
        notices << tr("%1 is not split-point shaped: %2. It is shown as %3 segments, one per "
                      "stretch; each PE's figures sum its segments.")
                       .arg(name, scattered.join("; "))
                       .arg(segments.mapping.pes.size());
    mapping_->setNotice(notices.join("\n"));
    emit mappingOpened(source, mapping_->notice());
    return QString();
}

// The partition was prepared while a mapping waited for it.
void StudioDocument::continueMapping() {
    const QString source = pendingMapping_->source;
    const auto outcome = showPendingMapping();
    if (!outcome)
        return;
    if (!outcome->isEmpty()) {
        mapping_->setNotice(*outcome);
        emit mappingFailed(source, *outcome);
    }
    if (applying_ && applying_->mappingAsked) {
        if (!outcome->isEmpty())
            applying_->problems << *outcome;
        finishApply();
    }
}

// ---- projects --------------------------------------------------------------------------------

project::Project StudioDocument::snapshot() const {
    project::Project p;
    if (model_) {
        p.model = fsPath(QFileInfo(modelPath_).absoluteFilePath());
        for (const auto& [name, dims] : inputShapes_)
            p.input_shapes.push_back(shapeText(name, dims).toStdString());
        p.dims = dims_;
    }
    if (const auto shown = cluster()) {
        project::ClusterRef ref;
        if (!shown->file.empty() && QFileInfo::exists(QString::fromStdString(shown->file)))
            ref.path = std::filesystem::absolute(shown->file).lexically_normal();
        ref.inline_ = device::cluster_to_json(*shown);
        p.cluster = std::move(ref);
    }
    p.rules = ruleSet_.toStdString();
    p.device = device_.toStdString();
    if (mapping_->hasMapping()) {
        const auto& inputs = *mapping_->inputs();
        p.mapping = nlohmann::json::parse(autodice::mapping_file_json(
            *inputs.request.model, *inputs.request.kernels,
            partition::assignment_of(mapping_->mapping(), inputs.kernelCount()),
            *inputs.request.cluster));
    }
    p.dse = dse_->saveState();
    p.grouping = grouping_->saveState();
    if (mapping_->isDecoder())
        p.workload = mapping_->workload();
    return p;
}

void StudioDocument::apply(project::Project p, const QString& file) {
    pendingMapping_.reset();
    applying_ = std::make_unique<Applying>();
    auto& a = *applying_;
    a.file = file;
    if (const QString error =
            setRuleSet(QString::fromStdString(p.rules.empty() ? "ort-cpu" : p.rules));
        !error.isEmpty())
        a.problems << tr("the fusion rules %1 could not be used: %2")
                          .arg(QString::fromStdString(p.rules), error);
    if (!p.device.empty())
        setDevice(QString::fromStdString(p.device));
    if (p.workload && !mapping_->setWorkload(*p.workload))
        a.problems << tr("the workload (a context of %1 tokens, %2 sequences in flight) does "
                         "not fit the model")
                          .arg(p.workload->cached_context())
                          .arg(p.workload->sequences);
    if (p.cluster) {
        try {
            setCluster(std::make_shared<const device::Cluster>(
                project::load_cluster(p, fsPath(file))));
        } catch (const std::exception& e) {
            a.problems << QString::fromStdString(e.what());
        }
    }
    InputShapes shapes;
    try {
        shapes = project::input_shape_map(p, fsPath(file));
    } catch (const std::exception& e) {
        a.problems << QString::fromStdString(e.what());
    }
    a.project = std::move(p);
    if (a.project.model.empty())
        return finishApply();
    // The model arrives in takeModel (or failLoad); its kernels then their latencies follow.
    openModel(qPath(a.project.model), std::move(shapes), a.project.dims);
}

// Once the model is on show: its mapping, over the kernels predicted on the cluster.
void StudioDocument::applyMapping() {
    auto& a = *applying_;
    if (!a.modelTaken || a.mappingAsked)
        return;
    const auto shown = cluster();
    if (!shown)
        return finishApply();
    if (a.project.mapping.empty()) {
        // Nothing to show on the cluster, but the project opens with its latencies predicted.
        const auto& inputs = mapping_->inputs();
        if (inputs && inputs->request.kernels == kernels_ && inputs->request.cluster == shown)
            return finishApply();
        if (!mapping_->isPreparing()) {
            if (!mapping_->failure().isEmpty())
                a.problems << mapping_->failure();
            finishApply();
        }
        return;
    }
    a.mappingAsked = true;
    QString error;
    try {
        error = openMapping(project::mapping_pe_of_node(a.project, fsPath(a.file), *model_, *shown),
                            a.file);
    } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
    }
    if (!error.isEmpty())
        a.problems << error;
    if (!isOpeningMapping())
        finishApply();
}

// The DSE tab's search and the grouping come back now that the mapping is on show.
void StudioDocument::finishApply() {
    auto a = std::move(applying_);
    if (!a->project.dse.empty())
        if (const QString error = dse_->restoreState(a->project.dse); !error.isEmpty())
            a->problems << tr("DSE: %1").arg(error);
    if (!a->project.grouping.empty())
        if (const QString error = grouping_->restoreState(a->project.grouping); !error.isEmpty())
            a->problems << tr("Grouping: %1").arg(error);
    mapping_->undoStack()->clear();
    emit applied(a->problems);
}

} // namespace cleave::ui
