#include "kernel_dock.hpp"

#include "core/input_error.hpp"
#include "kernel_table_model.hpp"
#include "term_filter_proxy.hpp"

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
} // namespace

KernelDock::KernelDock(QWidget* parent)
    : QDockWidget(tr("Kernels"), parent), rules_(new QComboBox(this)),
      filterEdit_(new QLineEdit(this)), summary_(new QLabel(this)), view_(new QTableView(this)),
      kernels_(new KernelTableModel(this)), proxy_(new TermFilterProxy(this)),
      method_(fusion::find_fusion_method(ruleSet_.toStdString())) {
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
    filterEdit_->setPlaceholderText(tr("Filter kernels by type, name or op"));
    filterEdit_->setClearButtonEnabled(true);
    top->addWidget(filterEdit_, 1);
    top->addWidget(summary_);
    layout->addLayout(top);
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
    connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!current.isValid())
                    return;
                const auto row = proxy_->mapToSource(current).row();
                const auto& nodes =
                    kernels_->kernels().kernels[static_cast<std::size_t>(row)].nodes;
                emit kernelSelected(QList<int>(nodes.begin(), nodes.end()));
                emit currentKernelChanged(row);
            });
    refresh();
}

void KernelDock::setModel(const ModelPtr& model) {
    model_ = model;
    refresh();
}

bool KernelDock::setRuleSet(const QString& spec) {
    try {
        method_ = fusion::find_fusion_method(spec.toStdString());
    } catch (const InputError& e) {
        rules_->setCurrentText(ruleSet_);
        emit ruleSetFailed(QString::fromStdString(e.what()));
        return false;
    }
    ruleSet_ = spec;
    if (rules_->findText(spec) < 0)
        rules_->insertItem(rules_->count() - 2, spec);
    rules_->setCurrentText(spec);
    refresh();
    return true;
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
        learned ? QFileDialog::getOpenFileName(
                      this, tr("Open Learned Fusion Model"), {},
                      tr("Learned fusion models (*.json);;All files (*)"))
                : QFileDialog::getOpenFileName(this, tr("Open Fusion Rules"), {},
                                               tr("Fusion rules (*.json);;All files (*)"));
    if (path.isEmpty())
        rules_->setCurrentText(ruleSet_);
    else
        setRuleSet((learned ? QString(fusion::kLearnedPrefix) : QString()) +
                   QFileInfo(path).absoluteFilePath());
}

void KernelDock::refresh() {
    if (!model_) {
        kernels_->setKernels(nullptr, {});
        summary_->setText(tr("No model"));
        emit kernelsChanged();
        return;
    }
    auto graph = fusion::detect_kernels(*model_, method_);
    int fused = 0;
    for (const bool f : graph.fused)
        fused += f;
    int launches = 0;
    for (const auto& k : graph.kernels)
        launches += k.launches;
    summary_->setText(tr("%1 kernels from %2 nodes; %3 of %4 edges fused")
                          .arg(launches)
                          .arg(model_->nodes.size())
                          .arg(fused)
                          .arg(graph.edges.size()));
    QStringList unmatched;
    for (const auto& op : fusion::unmatched_ops(*model_, method_))
        unmatched << QString::fromStdString(op);
    if (unmatched.isEmpty())
        summary_->setToolTip({});
    else if (std::holds_alternative<fusion::RuleSet>(method_.how))
        summary_->setToolTip(tr("Not fused: no rule names %1; each such node is its own kernel")
                                 .arg(unmatched.join(", ")));
    else
        summary_->setToolTip(tr("Unseen in training: %1; scored by op category alone")
                                 .arg(unmatched.join(", ")));
    kernels_->setKernels(model_, std::move(graph));
    view_->resizeColumnsToContents();
    view_->horizontalHeader()->setSectionResizeMode(KernelTableModel::Ops, QHeaderView::Stretch);
    emit kernelsChanged();
}

} // namespace cleave::ui
