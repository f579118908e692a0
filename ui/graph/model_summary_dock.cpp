#include "ui/graph/model_summary_dock.hpp"

#include "ui/document/studio_document.hpp"

#include <QFileInfo>
#include <QLocale>
#include <QTextBrowser>
#include <algorithm>
#include <map>

namespace cleave::ui {

namespace {

QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// Always in G, so figures compare across models; tiny models keep three significant digits.
QString giga(std::int64_t value) {
    const double g = static_cast<double>(value) / 1e9;
    return g >= 0.01 || value == 0 ? QLocale().toString(g, 'f', 2) : QLocale().toString(g, 'g', 3);
}

QString opName(const graph::Node& node) {
    return qs(node.domain.empty() ? node.op : node.domain + "." + node.op);
}

QString values(const graph::Model& model, const std::vector<int>& tensors) {
    QStringList rows;
    for (const int t : tensors) {
        const auto& tensor = model.tensors[static_cast<std::size_t>(t)];
        rows << QString("<b>%1</b> <span style='white-space:nowrap'>%2 %3</span>")
                    .arg(qs(tensor.name).toHtmlEscaped(), qs(graph::to_string(tensor.dtype)),
                         qs(graph::shape_to_string(tensor.shape)));
    }
    return rows.join("<br>");
}

QString opsets(const graph::Model& model) {
    QString text = QString("%1 (IR %2)").arg(model.opset).arg(model.ir_version);
    for (const auto& import : model.opset_imports)
        if (!import.domain.empty() && import.domain != "ai.onnx")
            text += QString("<br>%1 %2").arg(qs(import.domain).toHtmlEscaped()).arg(import.version);
    return text;
}

} // namespace

ModelSummaryDock::ModelSummaryDock(StudioDocument* document, QWidget* parent)
    : QDockWidget(tr("Summary"), parent), browser_(new QTextBrowser(this)) {
    setObjectName("summaryDock"); // saveState() finds the dock by this name
    browser_->setOpenLinks(false);
    browser_->setFrameShape(QFrame::NoFrame);
    // Dropped files go on to the window, which opens models; a read-only browser would swallow
    // them.
    browser_->setAcceptDrops(false);
    browser_->viewport()->setAcceptDrops(false);
    setWidget(browser_);
    connect(document, &StudioDocument::modelChanged, this,
            [this, document] { setModel(document->model()); });
    setModel(document->model());
}

QString ModelSummaryDock::text() const {
    return browser_->toPlainText();
}

void ModelSummaryDock::setModel(const ModelPtr& model) {
    const QString muted = palette().color(QPalette::PlaceholderText).name(QColor::HexArgb);
    if (!model) {
        browser_->setHtml(tr("<p style='color:%1'>No model loaded.</p>").arg(muted));
        return;
    }
    const QLocale locale;
    QString html = "<table cellspacing='0' cellpadding='3'>";
    auto row = [&](const QString& key, const QString& value) {
        html += QString("<tr><td style='color:%1; white-space:nowrap' valign='top'>%2</td>"
                        "<td>%3</td></tr>")
                    .arg(muted, key, value);
    };
    row(tr("File"), QFileInfo(QString::fromStdString(model->file)).fileName().toHtmlEscaped());
    row(tr("Producer"), qs(model->producer).toHtmlEscaped());
    row(tr("Opset"), opsets(*model));
    row(tr("Inputs"), values(*model, model->inputs));
    row(tr("Outputs"), values(*model, model->outputs));
    row(tr("Nodes"), locale.toString(static_cast<qlonglong>(model->nodes.size())));
    row(tr("Parameters"), locale.toString(static_cast<qlonglong>(model->weight_parameters)));
    row(tr("GMACs"), giga(model->macs));
    row(tr("GFLOPs"), giga(model->flops));
    html += "</table>";

    struct OpRow {
        int count = 0;
        std::int64_t macs = 0;
    };
    std::map<QString, OpRow> ops;
    for (const auto& node : model->nodes) {
        auto& r = ops[opName(node)];
        ++r.count;
        r.macs += node.cost.macs;
    }
    std::vector<std::pair<QString, OpRow>> sorted(ops.begin(), ops.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.second.count > b.second.count; });
    html += "<table cellspacing='0' cellpadding='2' style='margin-top:12px'>";
    html += QString("<tr style='color:%1'><td>%2</td><td align='right'>%3</td>"
                    "<td align='right' style='padding-left:8px'>%4</td></tr>")
                .arg(muted, tr("Op type"), tr("Nodes"), tr("MACs"));
    for (const auto& [op, r] : sorted) {
        QString share;
        if (r.macs > 0 && model->macs > 0) {
            const double percent =
                100.0 * static_cast<double>(r.macs) / static_cast<double>(model->macs);
            // Rounding must not claim all or nothing where the op has some but not all.
            if (percent < 0.1)
                share = "&lt; " + locale.toString(0.1, 'f', 1) + " %";
            else if (percent > 99.9 && r.macs < model->macs)
                share = "&gt; " + locale.toString(99.9, 'f', 1) + " %";
            else
                share = locale.toString(percent, 'f', 1) + " %";
        }
        html += QString("<tr><td>%1</td><td align='right'>%2</td>"
                        "<td align='right' style='padding-left:8px'>%3</td></tr>")
                    .arg(op.toHtmlEscaped(), locale.toString(r.count), share);
    }
    html += "</table>";
    if (!model->warnings.empty()) {
        html += QString("<p style='margin-top:12px; color:%1'>%2</p><ul style='margin-left:-24px'>")
                    .arg(muted, tr("Warnings"));
        for (const auto& w : model->warnings)
            html += "<li>" + qs(w).toHtmlEscaped() + "</li>";
        html += "</ul>";
    }
    browser_->setHtml(html);
}

} // namespace cleave::ui
