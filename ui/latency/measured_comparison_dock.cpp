#include "ui/latency/measured_comparison_dock.hpp"

#include "core/graph/model_file.hpp"
#include "ui/charts/measured_scatter_chart.hpp"
#include "ui/document/studio_document.hpp"
#include "ui/tables/latency_format.hpp"
#include "ui/latency/measured_comparison_model.hpp"

#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

namespace cleave::ui {

namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

QString shapeText(const std::vector<std::int64_t>& shape) {
    QStringList dims;
    for (const auto d : shape)
        dims << QString::number(d);
    return dims.join("×");
}

QString runLabel(const profile::MeasuredRun& run) {
    QStringList parts;
    if (run.threads > 0)
        parts << (run.threads == 1 ? QObject::tr("1 thread")
                                   : QObject::tr("%1 threads").arg(run.threads));
    if (!run.input_shape.empty())
        parts << shapeText(run.input_shape);
    if (!run.dtype.empty())
        parts << qs(run.dtype);
    return parts.isEmpty() ? qs(run.model) : parts.join(", ");
}

// Datasets name their processor as the profiler found it, lscpu's label included at times.
QString processorName(const std::string& device) {
    QString name = qs(device).simplified();
    if (name.startsWith("Model name:"))
        name = name.mid(11).trimmed();
    return name;
}

std::vector<std::int64_t> inputShape(const graph::Model& model) {
    if (model.inputs.empty())
        return {};
    const auto& shape = model.tensors[static_cast<std::size_t>(model.inputs.front())].shape;
    return shape ? *shape : std::vector<std::int64_t>{};
}

} // namespace

MeasuredComparisonDock::MeasuredComparisonDock(StudioDocument* document, QWidget* parent)
    : QDockWidget(tr("Predicted vs Measured"), parent), document_(document),
      comparison_(new MeasuredComparisonModel(this)), runs_(new QComboBox(this)),
      summary_(new QLabel(this)), chart_(nullptr) {
    setObjectName("measuredComparisonDock");
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(6, 6, 6, 6);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Run:"), body));
    runs_->setToolTip(tr("The measured run of this model to compare with"));
    runs_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    top->addWidget(runs_);
    top->addSpacing(8);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    top->addWidget(summary_, 1);
    layout->addLayout(top);
    chart_ = new MeasuredScatterChart(comparison_, MeasuredComparisonModel::MeasuredMs,
                                      MeasuredComparisonModel::PredictedMs, body);
    layout->addWidget(chart_, 1);
    setWidget(body);
    connect(runs_, &QComboBox::activated, this, &MeasuredComparisonDock::chooseRun);
    connect(document_, &StudioDocument::datasetChanged, this, &MeasuredComparisonDock::listRuns);
    connect(document_, &StudioDocument::modelChanged, this, &MeasuredComparisonDock::listRuns);
    connect(document_, &StudioDocument::latencyChanged, this, &MeasuredComparisonDock::setReport);
    listRuns();
}

const MeasuredRunPtr& MeasuredComparisonDock::run() const {
    return document_->measuredRun();
}

QString MeasuredComparisonDock::modelName() const {
    // Runs name the model without .onnx, .onnx.xz or .onnx.gz.
    return document_->model() ? QString::fromStdString(graph::model_name(
                                    QFile::encodeName(document_->modelPath()).toStdString()))
                              : QString();
}

// The runs of the model on show; the first at the model's own input shape is chosen.
void MeasuredComparisonDock::listRuns() {
    runs_->clear();
    comparison_->setReport(nullptr);
    int chosen = -1;
    const auto& dataset = document_->dataset();
    const QString name = modelName();
    if (dataset && document_->model()) {
        const auto shape = inputShape(*document_->model());
        for (std::size_t i = 0; i < dataset->runs.size(); ++i) {
            const auto& run = dataset->runs[i];
            if (qs(run.model) != name)
                continue;
            runs_->addItem(runLabel(run), static_cast<int>(i));
            if (chosen < 0 && run.input_shape == shape)
                chosen = runs_->count() - 1;
        }
    }
    runs_->setEnabled(runs_->count() > 1);
    if (!dataset) {
        summary_->setText(tr("Open a measured dataset (File > Open Measurements…) to compare "
                             "predictions with it."));
    } else if (runs_->count() == 0) {
        QStringList models;
        for (const auto& run : dataset->runs)
            if (!models.contains(qs(run.model)))
                models << qs(run.model);
        summary_->setText(tr("%1 has no run of %2; it has runs of %3.")
                              .arg(QFileInfo(qs(dataset->file)).fileName(),
                                   name.isEmpty() ? tr("this model") : name, models.join(", ")));
    }
    chart_->setVisible(runs_->count() > 0);
    chooseRun(runs_->count() == 0 ? -1 : std::max(chosen, 0));
}

void MeasuredComparisonDock::chooseRun(int index) {
    MeasuredRunPtr run;
    if (index >= 0 && index < runs_->count()) {
        runs_->setCurrentIndex(index);
        const auto at = static_cast<std::size_t>(runs_->itemData(index).toInt());
        const auto& dataset = document_->dataset();
        run = MeasuredRunPtr(dataset, &dataset->runs[at]); // shares the dataset's lifetime
        summary_->setText(tr("Predicting…"));
    }
    comparison_->setReport(nullptr);
    const bool same = run == document_->measuredRun();
    document_->setMeasuredRun(std::move(run));
    if (same && document_->latency()) // nothing changed: no new prediction comes
        setReport(document_->latency());
}

void MeasuredComparisonDock::setReport(const LatencyReportPtr& report) {
    const auto& run = document_->measuredRun();
    if (!run || !report || report->request.measured != run)
        return; // nothing to compare, or a report for a run no longer chosen
    comparison_->setReport(report);
    summary_->setToolTip({});
    if (!report->hasFigures()) {
        summary_->setText(qs(report->error));
        return;
    }
    if (!report->measured_error.empty()) {
        summary_->setText(tr("Could not lay the run's kernels over the model: %1")
                              .arg(qs(report->measured_error)));
        return;
    }
    const QLocale locale;
    const QString error = locale.toString(comparison_->meanAbsolutePercentageError(), 'f', 0);
    summary_->setText(tr("%1 timed kernels, mean error %2%; end to end %3 ms measured, %4 ms "
                         "predicted")
                          .arg(QString::number(comparison_->rowCount()), error,
                               qs(format_ms(report->measured_total_ms)),
                               qs(format_ms(report->predicted_total_ms))));
    summary_->setToolTip(
        tr("%1 timed kernels of %2, measured with %3 on %4; mean absolute error of their "
           "predictions %5%. End to end: measured %6 ms (the median of the runs), predicted %7 ms "
           "on %8 by %9. Points on the dashed line are predicted exactly.")
            .arg(QString::number(comparison_->rowCount()), modelName(),
                 qs(document_->dataset()->runtime), processorName(document_->dataset()->device),
                 error, qs(format_ms(report->measured_total_ms)),
                 qs(format_ms(report->predicted_total_ms)), qs(report->request.device),
                 qs(report->source)));
}

QString MeasuredComparisonDock::summary() const {
    return summary_->text();
}

} // namespace cleave::ui
