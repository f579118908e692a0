#include "model_summary_dock.hpp"

#include <QFileInfo>
#include <QLocale>
#include <QTextBrowser>
#include <algorithm>
#include <map>

namespace cleave::ui {

namespace {

// 1.81 G, 512.0 M, 4.1 K: the unit that keeps two or three significant digits.
QString scaled(std::int64_t value) {
    const auto v = static_cast<double>(value);
    if (v >= 1e9)
        return QLocale().toString(v / 1e9, 'f', 2) + " G";
    if (v >= 1e6)
        return QLocale().toString(v / 1e6, 'f', 1) + " M";
    if (v >= 1e3)
        return QLocale().toString(v / 1e3, 'f', 1) + " K";
    return QLocale().toString(static_cast<qlonglong>(value));
}

QString values(const graph::Model& model, const std::vector<int>& tensors) {
    QStringList rows;
    for (const int t : tensors) {
        const auto& tensor = model.tensors[t];
        rows << QString("<b>%1</b> %2 %3")
                    .arg(QString::fromStdString(tensor.name).toHtmlEscaped(),
                         QString::fromStdString(std::string(graph::to_string(tensor.dtype))),
                         QString::fromStdString(graph::shape_to_string(tensor.shape)));
    }
    return rows.join("<br>");
}

} // namespace

ModelSummaryDock::ModelSummaryDock(QWidget* parent)
    : QDockWidget(tr("Summary"), parent), browser_(new QTextBrowser(this)) {
    setObjectName("summaryDock");
    browser_->setOpenLinks(false);
    browser_->setFrameShape(QFrame::NoFrame);
    setWidget(browser_);
    setModel(nullptr);
}

QString ModelSummaryDock::text() const {
    return browser_->toPlainText();
}

void ModelSummaryDock::setModel(const ModelPtr& model) {
    if (!model) {
        browser_->setHtml(tr("<p style='color:gray'>No model loaded.</p>"));
        return;
    }
    const QLocale locale;
    QString html = "<table cellspacing='0' cellpadding='3'>";
    auto row = [&html](const QString& key, const QString& value) {
        html += QString("<tr><td style='color:gray' valign='top'>%1</td><td>%2</td></tr>")
                    .arg(key, value);
    };
    row(tr("File"), QFileInfo(QString::fromStdString(model->file)).fileName().toHtmlEscaped());
    row(tr("Producer"), QString::fromStdString(model->producer).toHtmlEscaped());
    row(tr("Opset"), QString("%1 (IR %2)").arg(model->opset).arg(model->ir_version));
    row(tr("Inputs"), values(*model, model->inputs));
    row(tr("Outputs"), values(*model, model->outputs));
    row(tr("Nodes"), locale.toString(static_cast<qlonglong>(model->nodes.size())));
    row(tr("Parameters"), locale.toString(static_cast<qlonglong>(model->weight_parameters)));
    row(tr("MACs"), scaled(model->macs));
    row(tr("FLOPs"), scaled(model->flops));
    html += "</table>";

    struct OpRow {
        int count = 0;
        std::int64_t macs = 0;
    };
    std::map<std::string, OpRow> ops;
    for (const auto& node : model->nodes) {
        auto& r = ops[node.domain.empty() ? node.op : node.domain + "." + node.op];
        ++r.count;
        r.macs += node.cost.macs;
    }
    std::vector<std::pair<std::string, OpRow>> sorted(ops.begin(), ops.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.second.count > b.second.count; });
    html += tr("<h4>Ops</h4>") + "<table cellspacing='0' cellpadding='2'>";
    for (const auto& [op, r] : sorted)
        html += QString("<tr><td>%1</td><td align='right'>%2</td><td align='right' "
                        "style='color:gray'>%3</td></tr>")
                    .arg(QString::fromStdString(op).toHtmlEscaped())
                    .arg(r.count)
                    .arg(r.macs > 0 ? scaled(r.macs) : QString());
    html += "</table>";
    if (!model->warnings.empty()) {
        html += tr("<h4>Warnings</h4><ul style='margin-left:-20px'>");
        for (const auto& w : model->warnings)
            html += "<li>" + QString::fromStdString(w).toHtmlEscaped() + "</li>";
        html += "</ul>";
    }
    browser_->setHtml(html);
}

} // namespace cleave::ui
