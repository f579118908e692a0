#include "kernel_dock.hpp"

#include "core/fusion/rule_engine.hpp"
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
}

KernelDock::KernelDock(QWidget* parent)
    : QDockWidget(tr("Kernels"), parent), rules_(new QComboBox(this)),
      filterEdit_(new QLineEdit(this)), summary_(new QLabel(this)), view_(new QTableView(this)),
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
    rules_->setToolTip(tr("Fusion rule set: how the runtime groups nodes into kernels"));
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
            chooseRuleFile();
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

bool KernelDock::setRuleSet(const QString& name_or_path) {
    try {
        fusion::find_rule_set(
            name_or_path.toStdString()); // checked before it replaces the current set
    } catch (const InputError& e) {
        rules_->setCurrentText(ruleSet_);
        emit ruleSetFailed(QString::fromStdString(e.what()));
        return false;
    }
    ruleSet_ = name_or_path;
    if (rules_->findText(name_or_path) < 0)
        rules_->insertItem(rules_->count() - 1, name_or_path);
    rules_->setCurrentText(name_or_path);
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

void KernelDock::chooseRuleFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Fusion Rules"), {},
                                                      tr("Fusion rules (*.json);;All files (*)"));
    if (path.isEmpty())
        rules_->setCurrentText(ruleSet_);
    else
        setRuleSet(QFileInfo(path).absoluteFilePath());
}

void KernelDock::refresh() {
    if (!model_) {
        kernels_->setKernels(nullptr, {});
        summary_->setText(tr("No model"));
        emit kernelsChanged();
        return;
    }
    auto graph = fusion::fuse_with_rules(*model_, fusion::find_rule_set(ruleSet_.toStdString()));
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
    kernels_->setKernels(model_, std::move(graph));
    view_->resizeColumnsToContents();
    view_->horizontalHeader()->setSectionResizeMode(KernelTableModel::Ops, QHeaderView::Stretch);
    emit kernelsChanged();
}

} // namespace cleave::ui
