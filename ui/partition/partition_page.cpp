#include "ui/partition/partition_page.hpp"

#include "core/autodice/export.hpp"
#include "core/autodice/mapping_file.hpp"
#include "core/partition/balanced_mapping.hpp"
#include "ui/document/partition_document.hpp"
#include "ui/partition/link_traffic_model.hpp"
#include "ui/partition/llm_memory_view.hpp"
#include "ui/partition/measured_runs_panel.hpp"
#include "ui/partition/partition_view.hpp"
#include "ui/partition/pe_figures_view.hpp"
#include "ui/tables/latency_format.hpp"

#include <QCheckBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QUndoStack>
#include <QVBoxLayout>
#include <algorithm>
#include <exception>
#include <map>

namespace cleave::ui {

PartitionPage::PartitionPage(PartitionDocument* document, QWidget* parent)
    : QWidget(parent), document_(document), stack_(new QStackedWidget(this)),
      emptyLabel_(new QLabel(this)), reopenButton_(new QPushButton(this)),
      clusterLabel_(new QLabel(this)), summaryLabel_(new QLabel(this)),
      noticeLabel_(new QLabel(this)), progress_(new QProgressBar(this)),
      balanceButton_(new QPushButton(tr("Balance"), this)),
      exportButton_(new QPushButton(tr("Export…"), this)),
      allLanes_(new QCheckBox(tr("All PEs"), this)), view_(new PartitionView(document_, this)),
      figures_(new PeFiguresView(
          document_, [this](int pe) { return view_->peColor(pe); }, this)),
      links_(new LinkTrafficModel(document_, this)), linkView_(new QTableView(this)) {
    setObjectName("partitionPage");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(stack_);
    stack_->addWidget(emptyState());
    stack_->addWidget(content());
    observe();
}

// Without a cluster (or a model): what to do.
QWidget* PartitionPage::emptyState() {
    auto* empty = new QWidget(stack_);
    auto* emptyLayout = new QVBoxLayout(empty);
    emptyLayout->addStretch(1);
    emptyLabel_->setAlignment(Qt::AlignCenter);
    emptyLabel_->setWordWrap(true);
    emptyLabel_->setObjectName("partitionEmpty");
    emptyLayout->addWidget(emptyLabel_);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    auto* open = new QPushButton(tr("Open Cluster…"), empty);
    connect(open, &QPushButton::clicked, this, &PartitionPage::openClusterRequested);
    buttons->addWidget(open);
    buttons->addWidget(reopenButton_);
    connect(reopenButton_, &QPushButton::clicked, this,
            [this] { emit reopenClusterRequested(reopenButton_->property("path").toString()); });
    buttons->addStretch(1);
    emptyLayout->addLayout(buttons);
    emptyLayout->addStretch(2);
    return empty;
}

// The strip above, the per-PE figures, link traffic and measured runs below.
QWidget* PartitionPage::content() {
    auto* content = new QWidget(stack_);
    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(6, 6, 6, 0);
    auto* header = new QHBoxLayout;
    clusterLabel_->setObjectName("partitionCluster");
    summaryLabel_->setObjectName("partitionSummary");
    summaryLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = summaryLabel_->font();
    bold.setBold(true);
    summaryLabel_->setFont(bold);
    header->addWidget(clusterLabel_);
    header->addSpacing(16);
    header->addWidget(summaryLabel_, 1);
    progress_->setRange(0, 0); // prediction gives no progress: busy until done
    progress_->setMaximumWidth(160);
    progress_->setTextVisible(false);
    progress_->hide();
    header->addWidget(progress_);
    balanceButton_->setToolTip(tr("Move the splits so that the PEs of the mapping, in its order, "
                                  "get equal compute time (undoable)"));
    connect(balanceButton_, &QPushButton::clicked, this, &PartitionPage::balance);
    header->addWidget(balanceButton_);
    exportButton_->setToolTip(tr("Write this mapping as an AutoDiCE package: mapping.json, "
                                 "platform.txt, rankfile, hostfile, sender/receiver tables and "
                                 "one sub-model per PE"));
    connect(exportButton_, &QPushButton::clicked, this, &PartitionPage::exportRequested);
    header->addWidget(exportButton_);
    allLanes_->setToolTip(tr("Also show the lanes of PEs without predicted latencies, which "
                             "cannot take kernels"));
    connect(allLanes_, &QCheckBox::toggled, view_, &PartitionView::setShowAllLanes);
    header->addWidget(allLanes_);
    contentLayout->addLayout(header);
    noticeLabel_->setObjectName("partitionNotice");
    noticeLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    contentLayout->addWidget(noticeLabel_);

    split_ = new QSplitter(Qt::Vertical, content);
    auto* split = split_;
    auto* scroll = new QScrollArea(split);
    scroll->setWidget(view_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    split->addWidget(scroll);
    auto* bottom = new QWidget(split);
    auto* bottomLayout = new QHBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    auto* figuresScroll = new QScrollArea(bottom);
    figuresScroll->setWidget(figures_);
    figuresScroll->setWidgetResizable(true);
    figuresScroll->setFrameShape(QFrame::NoFrame);
    bottomLayout->addWidget(figuresScroll, 3);
    linkView_->setModel(links_);
    linkView_->setObjectName("linkTraffic");
    linkView_->verticalHeader()->hide();
    linkView_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    linkView_->setAlternatingRowColors(true);
    linkView_->setSelectionMode(QAbstractItemView::NoSelection);
    linkView_->horizontalHeader()->setSectionResizeMode(LinkTrafficModel::Link,
                                                        QHeaderView::Stretch);
    for (const int column :
         {LinkTrafficModel::Tensors, LinkTrafficModel::Bytes, LinkTrafficModel::Milliseconds})
        linkView_->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    // Link traffic and the measured runs share the space beside the per-PE figures.
    auto* sideTabs = new QTabWidget(bottom);
    sideTabs->setDocumentMode(true);
    sideTabs->addTab(linkView_, tr("Links"));
    measured_ = new MeasuredRunsPanel(document_, sideTabs);
    sideTabs->addTab(measured_, tr("Measured"));
    llmMemory_ = new LlmMemoryView(document_, sideTabs);
    const int llmTab = sideTabs->addTab(llmMemory_, tr("LLM memory"));
    // A decoder opens on its memory; another model has none to show.
    connect(document_, &PartitionDocument::inputsChanged, sideTabs, [this, sideTabs, llmTab] {
        sideTabs->setTabEnabled(llmTab, document_->isDecoder());
        if (document_->isDecoder())
            sideTabs->setCurrentIndex(llmTab);
    });
    sideTabs->setTabEnabled(llmTab, document_->isDecoder());
    connect(measured_, &MeasuredRunsPanel::finished, sideTabs,
            [sideTabs, this] { sideTabs->setCurrentWidget(measured_); });
    bottomLayout->addWidget(sideTabs, 2);
    split->addWidget(bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    contentLayout->addWidget(split, 1);
    connect(split_, &QSplitter::splitterMoved, this, [this] { splitMoved_ = true; });
    return content;
}

void PartitionPage::observe() {
    connect(document_, &PartitionDocument::preparing, this, &PartitionPage::showPreparing);
    connect(document_, &PartitionDocument::prepared, this, &PartitionPage::showPrepared);
    connect(document_, &PartitionDocument::mappingChanged, this, &PartitionPage::updateSummary);
    connect(document_, &PartitionDocument::prefillChanged, this, &PartitionPage::updateSummary);
    connect(document_, &PartitionDocument::workloadChanged, this, &PartitionPage::updateSummary);
    connect(document_, &PartitionDocument::noticeChanged, this, &PartitionPage::updateNotice);
    connect(document_, &PartitionDocument::inputsChanged, this, [this] {
        if (!document_->isPreparing())
            progress_->hide();
        updateEmptyState();
        updateNotice();
        if (const auto& inputs = document_->inputs()) {
            const auto& file = inputs->request.cluster->file;
            clusterLabel_->setText(QFileInfo(QString::fromStdString(file)).fileName());
            clusterLabel_->setToolTip(
                QString::fromStdString(file + "\n" + inputs->request.cluster->note));
            fitSplit();
        }
    });
    connect(view_, &PartitionView::kernelActivated, this, &PartitionPage::kernelActivated);
    updateEmptyState();
    updateSummary();
    updateNotice();
}

// The mapping on show stays until the new latencies arrive.
void PartitionPage::showPreparing() {
    updateEmptyState();
    const auto& cluster = *document_->request().cluster;
    progress_->show();
    summaryLabel_->setText(tr("Predicting every kernel on the %1 PEs of %2…")
                               .arg(cluster.pes.size())
                               .arg(QFileInfo(QString::fromStdString(cluster.file)).fileName()));
}

void PartitionPage::showPrepared() {
    progress_->hide();
    updateNotice();
    updateSummary();
}

void PartitionPage::updateEmptyState() {
    const auto& request = document_->request();
    const auto& cluster = request.cluster;
    const bool ready = (request.model && request.kernels && cluster) || document_->inputs();
    stack_->setCurrentIndex(ready ? 1 : 0);
    if (ready)
        return;
    emptyLabel_->setText(
        !cluster ? tr("Open a cluster (File > Open Cluster…: a .cluster.json or an AutoDiCE "
                      "platform.txt) to split the model across its devices.")
                 : tr("Open a model to split it across %1.")
                       .arg(QFileInfo(QString::fromStdString(cluster->file)).fileName()));
    const QString last = QSettings().value("partition/lastCluster").toString();
    reopenButton_->setVisible(!cluster && !last.isEmpty() && QFileInfo::exists(last));
    reopenButton_->setText(tr("Open %1").arg(QFileInfo(last).fileName()));
    reopenButton_->setProperty("path", last);
}

void PartitionPage::updateSummary() {
    const bool has = document_->hasMapping();
    balanceButton_->setEnabled(has);
    exportButton_->setEnabled(has);
    if (document_->isPreparing())
        return;
    summaryLabel_->setText(summaryText());
}

QString PartitionPage::summaryText() const {
    if (!document_->hasMapping())
        return document_->inputs() ? tr("No PE of this cluster has predicted latencies")
                                   : QString();
    const auto& evaluation = document_->evaluation();
    const auto& cluster = *document_->inputs()->request.cluster;
    int bottleneck = document_->mapping().pes.front();
    for (const int pe : document_->mapping().pes)
        if (evaluation.pes[static_cast<std::size_t>(pe)].time_ms() >
            evaluation.pes[static_cast<std::size_t>(bottleneck)].time_ms())
            bottleneck = pe;
    std::int64_t bytes = 0;
    for (const auto& transfer : evaluation.transfers)
        bytes += transfer.bytes;
    const int segments = document_->segmentCount();
    const auto transfers = evaluation.transfers.size();
    // A decoder's step is a token per sequence: tokens/s with the workload's batches in flight.
    const auto& w = document_->workload();
    QString rate =
        document_->isDecoder()
            ? tr("%1 tokens/s (%2 in flight) · %3 ms per token")
                  .arg(QLocale().toString(partition::pipelined_tokens_per_s(
                                              w, evaluation.latency_ms, evaluation.bottleneck_ms),
                                          'f', 2))
                  .arg(w.sequences)
                  .arg(QString::fromStdString(format_ms(evaluation.latency_ms)))
            : tr("%1 inferences/s · pipeline latency %2 ms")
                  .arg(QLocale().toString(evaluation.throughput_per_s, 'f', 1),
                       QString::fromStdString(format_ms(evaluation.latency_ms)));
    if (const auto ttft = document_->timeToFirstTokenMs())
        rate += " · " + tr("first token %1 ms").arg(QString::fromStdString(format_ms(*ttft)));
    return tr("%1 · bottleneck %2 · %3 · %4")
        .arg(rate, QString::fromStdString(cluster.pes[static_cast<std::size_t>(bottleneck)].key),
             segments == 1 ? tr("1 segment") : tr("%1 segments").arg(segments),
             transfers == 0 ? tr("no transfers")
                            : tr("%1 %2, %3 per input")
                                  .arg(transfers)
                                  .arg(transfers == 1 ? tr("transfer") : tr("transfers"),
                                       QLocale().formattedDataSize(bytes, 1)));
}

QString PartitionPage::noticeText() const {
    return notice_;
}

void PartitionPage::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    updateNotice();
    fitSplit();
}

// The strip and its lanes whole if they fit in half the page, the figures below them; once the
// user has moved the splitter, it stays where they put it.
void PartitionPage::fitSplit() {
    if (splitMoved_)
        return;
    const int total = split_->height();
    const int top = std::min(view_->sizeHint().height() + 2, std::max(total / 2, total - 120));
    split_->setSizes({top, total - top});
}

void PartitionPage::updateNotice() {
    QStringList lines;
    if (const auto& inputs = document_->inputs()) {
        // One line per distinct reason, naming its PEs.
        std::map<std::string, QStringList> reasons;
        for (int pe = 0; pe < inputs->peCount(); ++pe)
            if (!inputs->hasLatencies(pe))
                reasons[inputs->pe_errors[static_cast<std::size_t>(pe)]] << QString::fromStdString(
                    inputs->request.cluster->pes[static_cast<std::size_t>(pe)].key);
        for (const auto& [reason, pes] : reasons)
            lines << (pes.size() == 1 ? tr("%1 cannot take kernels: %2").arg(pes.front())
                                      : tr("%1 PEs cannot take kernels (%2 … %3): %4")
                                            .arg(pes.size())
                                            .arg(pes.front(), pes.back()))
                         .arg(QString::fromStdString(reason));
    }
    if (!document_->failure().isEmpty())
        lines << document_->failure();
    if (!document_->notice().isEmpty())
        lines << document_->notice().split('\n');
    // One line per notice, cut to the page's width; the whole text in the tooltip.
    notice_ = lines.join("\n");
    QStringList shown;
    const int width = std::max(200, this->width() - 16);
    for (const QString& line : lines)
        shown << noticeLabel_->fontMetrics().elidedText(line, Qt::ElideRight, width);
    noticeLabel_->setText(shown.join("\n"));
    noticeLabel_->setToolTip(notice_);
    noticeLabel_->setVisible(!lines.isEmpty());
}

QString PartitionPage::saveMapping(const QString& path) const {
    if (!document_->hasMapping())
        return tr("There is no mapping to save: open a model and a cluster first.");
    const auto& inputs = *document_->inputs();
    try {
        autodice::save_mapping_file(
            *inputs.request.model, *inputs.request.kernels,
            partition::assignment_of(document_->mapping(), inputs.kernelCount()),
            *inputs.request.cluster, path.toStdString());
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

std::function<QString()> PartitionPage::exportTask(const QString& folder, bool subModels) const {
    if (!document_->hasMapping())
        return {};
    const auto& inputs = *document_->inputs();
    const auto assignment = partition::assignment_of(document_->mapping(), inputs.kernelCount());
    return [request = inputs.request, assignment, folder = folder.toStdString(), subModels] {
        try {
            const auto& model = *request.model;
            auto parts =
                autodice::package_parts(model, *request.kernels, assignment, *request.cluster);
            const auto package =
                autodice::make_package(model, std::move(parts), request.cluster.get(), "mapping");
            autodice::write_package(model, package, folder, {.sub_models = subModels});
        } catch (const std::exception& e) {
            return QString::fromStdString(e.what());
        }
        return QString();
    };
}

void PartitionPage::balance() {
    if (!document_->hasMapping())
        return;
    std::vector<int> pes; // the mapping's PEs, in pipeline order
    for (const int pe : document_->mapping().pes)
        if (std::find(pes.begin(), pes.end(), pe) == pes.end())
            pes.push_back(pe);
    const auto& inputs = *document_->inputs();
    document_->replaceMapping(partition::balanced_mapping(inputs.kernel_ms, pes,
                                                          inputs.costs
                                                              ? inputs.costs->crossing_tensors()
                                                              : std::vector<int>{}),
                              tr("Balance"));
}

} // namespace cleave::ui
