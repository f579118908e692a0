#include "ui/graph/properties_dock.hpp"

#include "ui/document/studio_document.hpp"

#include <QLocale>
#include <QTextBrowser>
#include <QUrl>
#include <set>

namespace cleave::ui {

namespace {

QString qs(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString opName(const graph::Node& node) {
    return qs(node.domain.empty() ? node.op : node.domain + "." + node.op);
}

QString count(std::int64_t value) {
    return QLocale().toString(static_cast<qlonglong>(value));
}

// Exact, as the tables show it, and in a unit a person reads at a glance.
QString bytes(std::int64_t value) {
    if (value < 0)
        return QObject::tr("unknown");
    if (value < 1024)
        return count(value);
    return QString("%1 (%2)").arg(count(value), QLocale().formattedDataSize(value));
}

// Weights a node reads: its initializer inputs, each counted once.
std::int64_t weightBytes(const graph::Model& model, const graph::Node& node) {
    std::set<int> seen;
    std::int64_t total = 0;
    for (const int t : node.inputs) {
        if (t < 0 || !seen.insert(t).second)
            continue;
        const auto& tensor = model.tensors[static_cast<std::size_t>(t)];
        if (tensor.kind == graph::Tensor::Kind::Initializer && tensor.bytes() > 0)
            total += tensor.bytes();
    }
    return total;
}

class Html {
public:
    explicit Html(QString muted) : muted_(std::move(muted)) {}

    void title(const QString& heading, const QString& subtitle) {
        text_ += QString("<p style='margin-bottom:2px'><b style='font-size:large'>%1</b></p>"
                         "<p style='margin-top:0'>%2</p>")
                     .arg(heading, subtitle);
    }
    void section(const QString& name) {
        close();
        text_ += QString("<p style='color:%1; margin-top:10px; margin-bottom:2px'>%2</p>"
                         "<table cellspacing='0' cellpadding='2'>")
                     .arg(muted_, name);
        open_ = true;
    }
    // A row across both columns, for values too long to share a narrow dock with a key.
    void line(const QString& value) {
        text_ += QString("<tr><td colspan='2'>%1</td></tr>").arg(value);
    }
    void row(const QString& key, const QString& value) {
        text_ += QString("<tr><td style='color:%1; white-space:nowrap; padding-right:8px' "
                         "valign='top'>%2</td><td>%3</td></tr>")
                     .arg(muted_, key, value);
    }
    QString finish() {
        close();
        return text_;
    }

private:
    void close() {
        if (open_)
            text_ += "</table>";
        open_ = false;
    }

    QString muted_;
    QString text_;
    bool open_ = false;
};

QString tensorText(const graph::Model& model, int t) {
    if (t < 0)
        return QObject::tr("(omitted)");
    const auto& tensor = model.tensors[static_cast<std::size_t>(t)];
    QString text = QString("<b>%1</b> <span style='white-space:nowrap'>%2 %3</span>")
                       .arg(qs(tensor.name).toHtmlEscaped(), qs(graph::to_string(tensor.dtype)),
                            qs(graph::shape_to_string(tensor.shape)));
    if (tensor.kind == graph::Tensor::Kind::Initializer)
        text += QObject::tr(" (weight)");
    else if (tensor.kind == graph::Tensor::Kind::GraphInput)
        text += QObject::tr(" (model input)");
    if (tensor.is_graph_output)
        text += QObject::tr(" (model output)");
    return text;
}

QString link(const QString& target, const QString& text) {
    return QString("<a href='%1'>%2</a>").arg(target, text);
}

} // namespace

PropertiesDock::PropertiesDock(StudioDocument* document, QWidget* parent)
    : QDockWidget(tr("Properties"), parent), document_(document),
      browser_(new QTextBrowser(this)) {
    setObjectName("propertiesDock"); // saveState() finds the dock by this name
    browser_->setOpenLinks(false);
    browser_->setFrameShape(QFrame::NoFrame);
    // Dropped files go on to the window, which opens models.
    browser_->setAcceptDrops(false);
    browser_->viewport()->setAcceptDrops(false);
    setWidget(browser_);
    connect(browser_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        bool ok = false;
        const int index = url.path().toInt(&ok);
        if (!ok)
            return;
        if (url.scheme() == "node")
            document_->selectNode(index);
        else if (url.scheme() == "kernel")
            document_->selectKernel(index);
    });
    connect(document_, &StudioDocument::kernelsChanged, this,
            [this] { setGraph(document_->model(), document_->kernels()); });
    connect(document_, &StudioDocument::selectionChanged, this, [this](const Selection& picked) {
        if (picked.node >= 0)
            showNode(picked.node);
        else if (picked.kernel >= 0)
            showKernel(picked.kernel);
        else
            showNothing();
    });
    setGraph(document_->model(), document_->kernels());
}

QString PropertiesDock::text() const {
    return browser_->toPlainText();
}

void PropertiesDock::setGraph(ModelPtr model, KernelGraphPtr kernels) {
    model_ = std::move(model);
    kernels_ = std::move(kernels);
    showNothing();
}

void PropertiesDock::showNothing() {
    node_ = -1;
    kernel_ = -1;
    const QString muted = palette().color(QPalette::PlaceholderText).name(QColor::HexArgb);
    browser_->setHtml(
        tr("<p style='color:%1'>Click a node or a kernel in the graph, or pick one in a table.</p>")
            .arg(muted));
}

void PropertiesDock::showNode(int node) {
    if (!model_ || node < 0 || node >= static_cast<int>(model_->nodes.size()))
        return showNothing();
    node_ = node;
    kernel_ = -1;
    const auto& model = *model_;
    const auto& n = model.nodes[static_cast<std::size_t>(node)];
    Html html(palette().color(QPalette::PlaceholderText).name(QColor::HexArgb));
    html.title(opName(n).toHtmlEscaped(), qs(n.name).toHtmlEscaped());

    html.section(tr("Node"));
    html.row(tr("Position"), tr("%1 of %2 (topological)").arg(node).arg(model.nodes.size()));
    if (kernels_ && node < static_cast<int>(kernels_->kernel_of_node.size())) {
        const int k = kernels_->kernel_of_node[static_cast<std::size_t>(node)];
        const auto& kernel = kernels_->kernels[static_cast<std::size_t>(k)];
        html.row(tr("Kernel"),
                 link(QString("kernel:%1").arg(k),
                      QString("%1 %2").arg(k).arg(qs(kernel.type).toHtmlEscaped())) +
                     (kernel.nodes.size() > 1 ? tr(" (%1 nodes)").arg(kernel.nodes.size())
                                              : tr(" (alone)")));
    }

    if (!n.attributes.empty()) {
        html.section(tr("Attributes"));
        for (const auto& a : n.attributes) // sorted by name on import
            html.row(qs(a.name).toHtmlEscaped(), qs(a.to_string()).toHtmlEscaped());
    }
    html.section(tr("Inputs"));
    for (std::size_t i = 0; i < n.inputs.size(); ++i)
        html.row(QString::number(i), tensorText(model, n.inputs[i]));
    html.section(tr("Outputs"));
    for (std::size_t i = 0; i < n.outputs.size(); ++i)
        html.row(QString::number(i), tensorText(model, n.outputs[i]));

    html.section(tr("Cost"));
    html.row(tr("MACs"), count(n.cost.macs));
    html.row(tr("FLOPs"), count(n.cost.flops));
    html.row(tr("Parameters"), count(n.cost.weight_parameters));
    html.row(tr("Weight bytes"), bytes(weightBytes(model, n)));
    html.row(tr("Bytes in"), bytes(n.cost.bytes_in));
    html.row(tr("Bytes out"), bytes(n.cost.bytes_out));
    if (!n.cost.complete)
        html.row({}, tr("A shape this node needs is unknown: these figures are a lower bound."));
    browser_->setHtml(html.finish());
}

void PropertiesDock::showKernel(int kernel) {
    if (!model_ || !kernels_ || kernel < 0 || kernel >= static_cast<int>(kernels_->kernels.size()))
        return showNothing();
    node_ = -1;
    kernel_ = kernel;
    const auto& k = kernels_->kernels[static_cast<std::size_t>(kernel)];
    Html html(palette().color(QPalette::PlaceholderText).name(QColor::HexArgb));
    html.title(qs(k.type).toHtmlEscaped() +
                   (k.launches > 1 ? QString(" ×%1").arg(k.launches) : QString()),
               tr("Kernel %1 of %2: %3")
                   .arg(kernel)
                   .arg(kernels_->kernels.size())
                   .arg(qs(k.name).toHtmlEscaped()));

    html.section(tr("Nodes"));
    for (const int n : k.nodes) {
        const auto& node = model_->nodes[static_cast<std::size_t>(n)];
        html.line(opName(node).toHtmlEscaped() + "<br>" +
                  link(QString("node:%1").arg(n), qs(node.name).toHtmlEscaped()));
    }
    html.section(tr("Cost"));
    html.row(tr("MACs"), count(k.macs));
    html.row(tr("FLOPs"), count(k.flops));
    html.row(tr("Bytes in"), bytes(k.bytes_in));
    html.row(tr("Bytes out"), bytes(k.bytes_out));
    html.row(tr("Weight bytes"), bytes(k.weight_bytes));
    if (k.launches > 1)
        html.row(tr("Launches"), QString::number(k.launches));
    browser_->setHtml(html.finish());
}

} // namespace cleave::ui
