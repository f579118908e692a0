#include "ui/latency/kernel_dock.hpp"

#include "core/device/device_library.hpp"
#include "core/device/this_machine.hpp"
#include "ui/document/studio_document.hpp"
#include "ui/tables/term_filter_proxy.hpp"
#include "ui/latency/kernel_table_model.hpp"
#include "ui/tables/latency_format.hpp"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

namespace cleave::ui {

namespace {
constexpr auto kOpenRuleFile = "Rule file…";
constexpr auto kOpenLearnedModel = "Learned model…";
constexpr auto kOpenDeviceFile = "Device file…";
} // namespace

KernelDock::KernelDock(StudioDocument* document, QWidget* parent)
    : QDockWidget(tr("Kernels"), parent), document_(document), rules_(new QComboBox(this)),
      devices_(new QComboBox(this)), filterEdit_(new QLineEdit(this)), summary_(new QLabel(this)),
      latencyLabel_(new QLabel(this)), view_(new QTableView(this)),
      kernels_(new KernelTableModel(this)), proxy_(new TermFilterProxy(this)) {
    setObjectName("kernelDock");
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(6, 6, 6, 6);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Runtime:"), body));
    for (const auto& name : fusion::builtin_rule_set_names())
        rules_->addItem(QString::fromStdString(name));
    rules_->addItem(tr(kOpenRuleFile));
    rules_->addItem(tr(kOpenLearnedModel));
    rules_->setToolTip(tr("How the runtime groups nodes into kernels: a fusion rule set, or a "
                          "classifier trained on measured fusion (cleave fuse-train)"));
    top->addWidget(rules_);
    top->addSpacing(8);
    top->addWidget(new QLabel(tr("Device:"), body));
    for (const auto& spec : device::library_devices()) {
        devices_->addItem(QString::fromStdString(spec.id));
        devices_->setItemData(devices_->count() - 1, QString::fromStdString(spec.name),
                              Qt::ToolTipRole);
    }
    devices_->addItem(QString::fromStdString(device::kThisMachine));
    devices_->setItemData(devices_->count() - 1, tr("The computer the studio runs on, detected"),
                          Qt::ToolTipRole);
    devices_->addItem(tr(kOpenDeviceFile));
    // Until the first prediction names the default device.
    devices_->setPlaceholderText(tr("Default"));
    devices_->setCurrentIndex(-1);
    devices_->setToolTip(tr("The device whose latency is predicted: by its calibrated or shipped "
                            "predictor, else a roofline from its datasheet figures "
                            "(uncalibrated)"));
    top->addWidget(devices_);
    top->addSpacing(8);
    filterEdit_->setPlaceholderText(tr("Filter kernels by type, name or op"));
    filterEdit_->setClearButtonEnabled(true);
    top->addWidget(filterEdit_, 1);
    layout->addLayout(top);
    auto* figures = new QHBoxLayout;
    summary_->setObjectName("kernelSummary");
    latencyLabel_->setObjectName("latencySummary");
    latencyLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    figures->addWidget(summary_);
    figures->addSpacing(16);
    figures->addWidget(latencyLabel_, 1);
    layout->addLayout(figures);
    layout->addWidget(view_, 1);
    setWidget(body);

    proxy_->setSourceModel(kernels_);
    view_->setModel(proxy_);
    view_->setSortingEnabled(true);
    view_->sortByColumn(KernelTableModel::Index, Qt::AscendingOrder);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setAlternatingRowColors(true);
    view_->verticalHeader()->hide();
    view_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    view_->setWordWrap(false);
    view_->horizontalHeader()->setSectionResizeMode(KernelTableModel::Ops, QHeaderView::Stretch);

    connect(filterEdit_, &QLineEdit::textChanged, proxy_, &TermFilterProxy::setFilterText);
    connect(rules_, &QComboBox::activated, this, [this](int index) {
        if (rules_->itemText(index) == tr(kOpenRuleFile))
            chooseFile(false);
        else if (rules_->itemText(index) == tr(kOpenLearnedModel))
            chooseFile(true);
        else
            setRuleSet(rules_->itemText(index));
    });
    connect(devices_, &QComboBox::activated, this, [this](int index) {
        if (devices_->itemText(index) == tr(kOpenDeviceFile))
            chooseDeviceFile();
        else
            document_->setDevice(devices_->itemText(index));
    });
    connect(document_, &StudioDocument::ruleSetChanged, this, &KernelDock::showRuleSet);
    connect(document_, &StudioDocument::deviceChanged, this, &KernelDock::showDevice);
    connect(document_, &StudioDocument::kernelsChanged, this, &KernelDock::showKernels);
    connect(document_, &StudioDocument::latencyChanged, this, &KernelDock::showLatency);
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!current.isValid())
                    return;
                document_->selectKernel(proxy_->mapToSource(current).row());
            });
    connect(document_, &StudioDocument::selectionChanged, this, [this](const Selection& picked) {
        if (picked.kernel >= 0)
            selectKernel(picked.kernel);
    });
    showRuleSet(document_->ruleSet());
    showDevice(document_->device());
    showKernels();
}

bool KernelDock::setRuleSet(const QString& spec) {
    const QString error = document_->setRuleSet(spec);
    if (error.isEmpty())
        return true;
    rules_->setCurrentText(document_->ruleSet());
    emit ruleSetFailed(error);
    return false;
}

void KernelDock::showRuleSet(const QString& spec) {
    if (rules_->findText(spec) < 0)
        rules_->insertItem(rules_->count() - 2, spec);
    rules_->setCurrentText(spec);
}

void KernelDock::showDevice(const QString& device) {
    if (device.isEmpty()) {
        devices_->setCurrentIndex(-1);
        return;
    }
    if (devices_->findText(device) < 0)
        devices_->insertItem(devices_->count() - 1, device);
    devices_->setCurrentText(device);
}

QString KernelDock::latencyText() const {
    return latencyLabel_->text();
}

void KernelDock::showLatency(const LatencyReportPtr& report) {
    if (!report) {
        latencyLabel_->clear();
        return;
    }
    kernels_->setLatency(report->latency.kernels);
    latencyLabel_->setText(QString::fromStdString(report->summary()));
    if (report->hasFigures())
        latencyLabel_->setToolTip(
            tr("%1 (%2): kernels %3 ms + the device's overhead %4 ms")
                .arg(QString::fromStdString(report->request.device),
                     QString::fromStdString(report->device_name),
                     QString::fromStdString(format_ms(report->latency.kernels_ms)),
                     QString::fromStdString(format_ms(report->latency.overhead_ms))));
    else
        latencyLabel_->setToolTip(latencyLabel_->text());
}

void KernelDock::chooseDeviceFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Device File"), {},
                                                      tr("Device files (*.json);;All files (*)"));
    if (path.isEmpty())
        showDevice(document_->device());
    else
        document_->setDevice(QFileInfo(path).absoluteFilePath());
}

void KernelDock::selectKernel(int kernel) {
    const QModelIndex source = kernels_->index(kernel, 0);
    if (!source.isValid())
        return;
    if (!proxy_->mapFromSource(source).isValid())
        filterEdit_->clear();
    const QModelIndex row = proxy_->mapFromSource(source);
    view_->selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect |
                                                      QItemSelectionModel::Rows);
    view_->scrollTo(row);
}

void KernelDock::chooseFile(bool learned) {
    const QString path =
        learned ? QFileDialog::getOpenFileName(this, tr("Open Learned Fusion Model"), {},
                                               tr("Learned fusion models (*.json);;All files (*)"))
                : QFileDialog::getOpenFileName(this, tr("Open Fusion Rules"), {},
                                               tr("Fusion rules (*.json);;All files (*)"));
    if (path.isEmpty())
        rules_->setCurrentText(document_->ruleSet());
    else
        setRuleSet((learned ? QString(fusion::kLearnedPrefix) : QString()) +
                   QFileInfo(path).absoluteFilePath());
}

void KernelDock::showKernels() {
    const auto& model = document_->model();
    const auto& graph = document_->kernels();
    if (!model || !graph) {
        kernels_->setKernels(nullptr, nullptr);
        summary_->setText(tr("No model"));
        return;
    }
    int fused = 0;
    for (const bool f : graph->fused)
        fused += f;
    int launches = 0;
    for (const auto& k : graph->kernels)
        launches += k.launches;
    summary_->setText(tr("%1 kernels from %2 nodes; %3 of %4 edges fused")
                          .arg(launches)
                          .arg(model->nodes.size())
                          .arg(fused)
                          .arg(graph->edges.size()));
    const auto& method = document_->fusionMethod();
    QStringList unmatched;
    for (const auto& op : fusion::unmatched_ops(*model, method))
        unmatched << QString::fromStdString(op);
    if (unmatched.isEmpty())
        summary_->setToolTip({});
    else if (std::holds_alternative<fusion::RuleSet>(method.how))
        summary_->setToolTip(tr("Not fused: no rule names %1; each such node is its own kernel")
                                 .arg(unmatched.join(", ")));
    else
        summary_->setToolTip(
            tr("Unseen in training: %1; scored by op category alone").arg(unmatched.join(", ")));
    kernels_->setKernels(model, graph);
    view_->resizeColumnsToContents();
    view_->horizontalHeader()->setSectionResizeMode(KernelTableModel::Ops, QHeaderView::Stretch);
}

} // namespace cleave::ui
