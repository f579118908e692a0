#include "ui/latency/latency_breakdown_dock.hpp"

#include "ui/document/studio_document.hpp"

#include "ui/charts/latency_breakdown_chart.hpp"
#include "ui/latency/latency_by_type_model.hpp"

#include <QLabel>
#include <QVBoxLayout>

namespace cleave::ui {

LatencyBreakdownDock::LatencyBreakdownDock(StudioDocument* document, QWidget* parent)
    : QDockWidget(tr("Latency by Kernel Type"), parent), byType_(new LatencyByTypeModel(this)),
      headline_(new QLabel(this)), chart_(nullptr) {
    setObjectName("latencyBreakdownDock");
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(6, 6, 6, 6);
    headline_->setWordWrap(true);
    headline_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    chart_ = new LatencyBreakdownChart(byType_, LatencyByTypeModel::Type,
                                      LatencyByTypeModel::LatencyMs, body);
    layout->addWidget(headline_);
    layout->addWidget(chart_, 1);
    setWidget(body);
    connect(document, &StudioDocument::latencyChanged, this, &LatencyBreakdownDock::setReport);
    setReport(document->latency());
}

void LatencyBreakdownDock::setReport(LatencyReportPtr report) {
    byType_->setReport(report);
    if (!report)
        headline_->setText(tr("No prediction"));
    else
        headline_->setText(QString::fromStdString(report->summary()));
    chart_->setVisible(report && report->hasFigures());
}

QString LatencyBreakdownDock::headline() const {
    return headline_->text();
}

} // namespace cleave::ui
