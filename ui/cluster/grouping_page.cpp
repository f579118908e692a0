#include "ui/cluster/grouping_page.hpp"

#include "core/grouping/device_vectors.hpp"
#include "core/input_error.hpp"
#include "core/json_file.hpp"
#include "ui/charts/group_bars_chart.hpp"
#include "ui/cluster/cluster_document.hpp"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent>
#include <algorithm>
#include <climits>
#include <cmath>
#include <map>

namespace cleave::ui {

namespace {

// Charts show each feature when there are few; beyond this, the spread over features.
constexpr std::size_t kMostFeatureBars = 8;

QString num(double value, int digits = 4) {
    return QLocale().toString(value, 'g', digits);
}

QStandardItem* item(const QString& text, Qt::Alignment alignment = Qt::AlignLeft) {
    auto* cell = new QStandardItem(text);
    cell->setEditable(false);
    cell->setTextAlignment(alignment | Qt::AlignVCenter);
    return cell;
}

QStandardItem* number(double value, int digits = 4) {
    return item(std::isfinite(value) ? num(value, digits) : QString("–"), Qt::AlignRight);
}

void setupTable(QTableView* table) {
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    table->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    table->setWordWrap(false);
    table->setAlternatingRowColors(true);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
}

} // namespace

QList<QColor> GroupingPage::groupColours(int groups) {
    // ColorBrewer Set2: distinct, and light enough for black text.
    static const QList<QColor> set2{QColor(0x66, 0xc2, 0xa5), QColor(0xfc, 0x8d, 0x62),
                                    QColor(0x8d, 0xa0, 0xcb), QColor(0xe7, 0x8a, 0xc3),
                                    QColor(0xa6, 0xd8, 0x54), QColor(0xff, 0xd9, 0x2f),
                                    QColor(0xe5, 0xc4, 0x94), QColor(0xb3, 0xb3, 0xb3)};
    QList<QColor> colours;
    for (int g = 0; g < groups; ++g)
        colours << (groups <= set2.size()
                        ? set2[g]
                        : QColor::fromHsvF(std::fmod(g * 0.618034, 1.0), 0.5, 0.9));
    return colours;
}

GroupingPage::GroupingPage(GroupingDocument* document, QWidget* parent)
    : QWidget(parent), grouping_(document), cluster_(document->cluster()) {
    setObjectName("groupingPage");
    groups_ = new QSpinBox;
    groups_->setRange(1, 1);
    groups_->setValue(2);
    groups_->setToolTip(tr("G: the number of groups (1 to the number of hosts)"));
    features_ = new QComboBox;
    features_->addItem(tr("flops: peak FP32"), "flops");
    features_->addItem(tr("config: cores, clocks, SMs, memory"), "config");
    features_->addItem(tr("hp: measured latencies (as rates)"), "hp");
    features_->addItem(tr("he: what latency follows"), "he");
    features_->addItem(tr("ha: hp and he"), "ha");
    features_->setToolTip(tr("What each group should get an equal total of (docs/grouping.md); "
                             "hp, he and ha need a device vectors file"));
    vectorsLabel_ = new QLabel(tr("none"));
    vectorsLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    vectorsButton_ = new QPushButton(tr("Open…"));
    vectorsButton_->setToolTip(tr("A device vectors file written by cleave device-vector --out"));
    workload_ = new QComboBox;
    workload_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    workload_->setMinimumContentsLength(16);
    workload_->setToolTip(tr("The benchmark each served task runs (Arch2End Case 2), from the "
                             "vectors file"));
    rate_ = new QDoubleSpinBox;
    rate_->setRange(0.01, 1e9);
    rate_->setDecimals(2);
    rate_->setValue(grouping::ServingOptions{}.rate_per_s);
    rate_->setSuffix(tr(" tasks/s"));
    batch_ = new QSpinBox;
    batch_->setRange(1, 100000);
    batch_->setValue(grouping::ServingOptions{}.batch);
    batch_->setSuffix(tr(" images"));
    duration_ = new QDoubleSpinBox;
    duration_->setRange(0.1, 3600);
    duration_->setValue(grouping::ServingOptions{}.duration_s);
    duration_->setSuffix(tr(" s"));
    seed_ = new QSpinBox;
    seed_->setRange(0, INT_MAX);
    seed_->setValue(static_cast<int>(grouping::SearchOptions{}.seed));
    capacity_ = new QLabel;
    capacity_->setWordWrap(true);
    capacity_->setStyleSheet("color: palette(mid)");
    runButton_ = new QPushButton(tr("Group"));
    runButton_->setDefault(true);
    status_ = new QLabel;
    status_->setWordWrap(true);
    error_ = new QLabel;
    error_->setWordWrap(true);
    error_->setStyleSheet("color: #b10026");
    error_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* vectorsRow = new QHBoxLayout;
    vectorsRow->addWidget(vectorsLabel_, 1);
    vectorsRow->addWidget(vectorsButton_);
    auto* settings = new QGroupBox(tr("Grouping"));
    auto* form = new QFormLayout(settings);
    form->addRow(tr("Groups (G)"), groups_);
    form->addRow(tr("Features"), features_);
    form->addRow(tr("Vectors"), vectorsRow);
    auto* serving = new QGroupBox(tr("Serving (Case 2)"));
    auto* servingForm = new QFormLayout(serving);
    servingForm->addRow(tr("Workload"), workload_);
    servingForm->addRow(tr("Arrivals"), rate_);
    servingForm->addRow(tr("Batch"), batch_);
    servingForm->addRow(tr("Duration"), duration_);
    servingForm->addRow(capacity_);
    auto* seedForm = new QFormLayout;
    seedForm->addRow(tr("Seed"), seed_);

    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(settings);
    leftLayout->addWidget(serving);
    leftLayout->addLayout(seedForm);
    leftLayout->addWidget(runButton_);
    leftLayout->addWidget(status_);
    leftLayout->addWidget(error_);
    leftLayout->addStretch(1);
    auto* leftScroll = new QScrollArea;
    leftScroll->setWidget(left);
    leftScroll->setWidgetResizable(true);
    leftScroll->setFrameShape(QFrame::NoFrame);
    leftScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    leftScroll->setMinimumWidth(280);
    leftScroll->setMaximumWidth(360);

    legend_ = new QLabel;
    legend_->setWordWrap(true);
    legend_->setTextFormat(Qt::RichText);
    featureChart_ = new GroupBarsChart(tr("Feature totals per group (1 = an equal share)"));
    featureChart_->setObjectName("groupFeatureChart");
    servingChart_ = new GroupBarsChart(tr("Serving latency per group"));
    servingChart_->setObjectName("groupServingChart");
    for (auto* chart : {featureChart_, servingChart_})
        chart->setMinimumSize(240, 150);
    auto* charts = new QSplitter(Qt::Horizontal);
    charts->addWidget(featureChart_);
    charts->addWidget(servingChart_);
    charts->setChildrenCollapsible(false);

    groupModel_ = new QStandardItemModel(this);
    groupTable_ = new QTableView;
    groupTable_->setObjectName("groupTable");
    groupTable_->setModel(groupModel_);
    setupTable(groupTable_);
    comparisonModel_ = new QStandardItemModel(this);
    comparisonTable_ = new QTableView;
    comparisonTable_->setObjectName("groupComparisonTable");
    comparisonTable_->setModel(comparisonModel_);
    setupTable(comparisonTable_);
    // The table's title, with what to read from it.
    comparisonNote_ = new QLabel(tr("<b>Spread across groups, by feature set</b>"));
    auto* comparison = new QWidget;
    auto* comparisonLayout = new QVBoxLayout(comparison);
    comparisonLayout->setContentsMargins(0, 0, 0, 0);
    comparisonLayout->addWidget(comparisonNote_);
    comparisonLayout->addWidget(comparisonTable_, 1);
    auto* tables = new QSplitter(Qt::Horizontal);
    tables->addWidget(groupTable_);
    tables->addWidget(comparison);
    tables->setStretchFactor(0, 1);
    tables->setStretchFactor(1, 1);
    tables->setChildrenCollapsible(false);

    auto* right = new QSplitter(Qt::Vertical);
    right->addWidget(charts);
    right->addWidget(tables);
    right->setStretchFactor(0, 1);
    right->setStretchFactor(1, 1);
    // Room for five rows: every feature set, or four groups and a scroll bar.
    const int rows = 5 * (fontMetrics().height() + 6) + fontMetrics().height() + 10;
    groupTable_->setMinimumHeight(rows);
    comparisonTable_->setMinimumHeight(rows);
    right->setChildrenCollapsible(false);
    auto* rightBox = new QWidget;
    auto* rightLayout = new QVBoxLayout(rightBox);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(legend_);
    rightLayout->addWidget(right, 1);

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(leftScroll);
    layout->addWidget(rightBox, 1);

    connect(runButton_, &QPushButton::clicked, this, &GroupingPage::run);
    connect(vectorsButton_, &QPushButton::clicked, this, [this] {
        QSettings stored;
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open Device Vectors"), stored.value("lastVectorsFolder").toString(),
            tr("Device vectors (*.json);;All files (*)"));
        if (path.isEmpty())
            return;
        stored.setValue("lastVectorsFolder", QFileInfo(path).absolutePath());
        if (const QString message = openVectors(path); !message.isEmpty())
            showError(message);
    });
    connect(workload_, &QComboBox::currentIndexChanged, this, &GroupingPage::workloadChanged);
    connect(batch_, &QSpinBox::valueChanged, this, &GroupingPage::workloadChanged);
    // Every setting changed on show is the document's.
    connect(groups_, &QSpinBox::valueChanged, this, &GroupingPage::pushSettings);
    connect(features_, &QComboBox::currentIndexChanged, this, &GroupingPage::pushSettings);
    connect(workload_, &QComboBox::currentIndexChanged, this, &GroupingPage::pushSettings);
    connect(rate_, &QDoubleSpinBox::valueChanged, this, &GroupingPage::pushSettings);
    connect(batch_, &QSpinBox::valueChanged, this, &GroupingPage::pushSettings);
    connect(duration_, &QDoubleSpinBox::valueChanged, this, &GroupingPage::pushSettings);
    connect(seed_, &QSpinBox::valueChanged, this, &GroupingPage::pushSettings);
    connect(cluster_, &ClusterDocument::changed, this, &GroupingPage::clusterChanged);
    connect(grouping_, &GroupingDocument::vectorsChanged, this, &GroupingPage::updateChoices);
    connect(grouping_, &GroupingDocument::outcomeChanged, this, &GroupingPage::showOutcome);
    connect(grouping_, &GroupingDocument::outcomeDropped, this,
            [this](const QString& why) { status_->setText(why); });
    connect(grouping_, &GroupingDocument::restored, this, &GroupingPage::showRestored);
    updateChoices();
    clusterChanged();
    // The document starts from the settings on show: no edit.
    grouping_->setSettings(requestOnShow(), false);
}

QString GroupingPage::openVectors(const QString& path) {
    const QString message = grouping_->openVectors(path);
    if (message.isEmpty())
        error_->clear();
    return message;
}

// The vectors file's feature sets and workloads become choices.
void GroupingPage::updateChoices() {
    const QString vectors = grouping_->vectorsFile();
    vectorsLabel_->setText(vectors.isEmpty() ? tr("none") : QFileInfo(vectors).fileName());
    vectorsLabel_->setToolTip(vectors.isEmpty() ? QString()
                                                : tr("%1: %2 devices, %3 benchmarks")
                                                      .arg(vectors)
                                                      .arg(grouping_->vectorDevices())
                                                      .arg(grouping_->benchmarks().size()));
    auto* items = qobject_cast<QStandardItemModel*>(features_->model());
    for (int i = 0; i < features_->count(); ++i) {
        const std::string set = features_->itemData(i).toString().toStdString();
        const bool vectorSet =
            std::find(grouping::kVectorFeatureSets.begin(), grouping::kVectorFeatureSets.end(),
                      set) != grouping::kVectorFeatureSets.end();
        items->item(i)->setEnabled(!vectorSet || !vectors.isEmpty());
    }
    const QString current = workload_->currentData().toString();
    QSignalBlocker block(workload_);
    workload_->clear();
    workload_->addItem(tr("none (no serving)"), QString());
    const auto& benchmarks = grouping_->benchmarks();
    for (const auto& benchmark : benchmarks)
        workload_->addItem(QString::fromStdString(benchmark), QString::fromStdString(benchmark));
    workload_->setCurrentIndex(std::max(0, workload_->findData(current)));
    workload_->setEnabled(!benchmarks.empty());
    workloadChanged();
}

void GroupingPage::workloadChanged() {
    const bool serving = !workload_->currentData().toString().isEmpty();
    for (QWidget* w : std::initializer_list<QWidget*>{rate_, batch_, duration_})
        w->setEnabled(serving);
    capacity_->clear();
    if (!serving || cluster_->hostCount() == 0)
        return;
    // The cluster's capacity for this workload, and a rate at 80 % of it to start from.
    try {
        const auto ms = grouping::host_benchmark_ms(
            cluster_->cluster(),
            grouping::load_device_vectors(grouping_->vectorsFile().toStdString()),
            workload_->currentData().toString().toStdString(),
            grouping_->vectorsFile().toStdString(), "workload");
        double images = 0;
        for (const double m : ms)
            images += 1000.0 / m;
        const double tasks = images / batch_->value();
        capacity_->setText(tr("The cluster serves at most %1 images/s: %2 tasks/s of %3 images.")
                               .arg(num(images, 5), num(tasks, 5))
                               .arg(batch_->value()));
        if (sender() == workload_)
            rate_->setValue(std::round(0.8 * tasks * 100) / 100);
    } catch (const std::exception& e) {
        capacity_->setText(QString::fromStdString(e.what()));
    }
}

grouping::GroupingRequest GroupingPage::requestOnShow() const {
    grouping::GroupingRequest request;
    request.groups = groups_->value();
    request.features = features_->currentData().toString().toStdString();
    request.workload = workload_->currentData().toString().toStdString();
    request.serving.rate_per_s = rate_->value();
    request.serving.batch = batch_->value();
    request.serving.duration_s = duration_->value();
    request.seed = static_cast<std::uint64_t>(seed_->value());
    return request;
}

// A setting the user changed; the ones shown from the document are its already.
void GroupingPage::pushSettings() {
    if (!applying_)
        grouping_->setSettings(requestOnShow(), true);
}

bool GroupingPage::run() {
    if (running_)
        return false;
    grouping::GroupingRequest job = grouping_->request();
    if (!job.cluster) {
        showError(
            tr("The cluster has no hosts: open a cluster or add devices in the Cluster tab."));
        return false;
    }
    error_->clear();
    running_ = true;
    runButton_->setEnabled(false);
    status_->setText(tr("Grouping %1 hosts into %2 groups by every feature set…")
                         .arg(job.cluster->hosts.size())
                         .arg(job.groups));
    const int generation = grouping_->generation();
    struct Result {
        GroupingOutcomePtr outcome;
        QString error;
        double seconds = 0;
    };
    auto* watcher = new QFutureWatcher<Result>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        const Result result = watcher->result();
        running_ = false;
        runButton_->setEnabled(true);
        if (generation == grouping_->generation()) {
            if (!result.outcome) {
                showError(result.error);
            } else if (grouping::grouping_hosts(*result.outcome->request.cluster) !=
                       grouping::grouping_hosts(cluster_->cluster())) {
                status_->setText(tr("The hosts changed while grouping: group again."));
            } else {
                seconds_ = result.seconds;
                grouping_->setOutcome(result.outcome);
            }
        }
        emit finished();
    });
    watcher->setFuture(QtConcurrent::run([job = std::move(job)]() -> Result {
        QElapsedTimer clock;
        clock.start();
        try {
            auto outcome =
                std::make_shared<const grouping::GroupingOutcome>(grouping::run_grouping(job));
            return {outcome, {}, clock.elapsed() / 1000.0};
        } catch (const std::exception& e) {
            return {nullptr, QString::fromStdString(e.what()), 0};
        }
    }));
    return true;
}

void GroupingPage::showError(const QString& message) {
    status_->clear();
    error_->setText(message);
}

// (The document drops a result for other hosts; outcomeDropped says so.)
void GroupingPage::clusterChanged() {
    const int hosts = cluster_->hostCount();
    groups_->setMaximum(std::max(1, hosts));
    runButton_->setEnabled(!running_ && hosts > 0);
    workloadChanged();
}

void GroupingPage::clearShown() {
    legend_->clear();
    featureChart_->clear();
    servingChart_->clear();
    groupModel_->clear();
    comparisonModel_->clear();
    comparisonNote_->setText(tr("<b>Spread across groups, by feature set</b>"));
    emit groupsChanged({}, {});
}

void GroupingPage::showOutcome() {
    const double seconds = std::exchange(seconds_, 0.0);
    if (!grouping_->outcome()) {
        clearShown();
        return;
    }
    const auto& outcome = *grouping_->outcome();
    const auto& request = outcome.request;
    const auto& chosen = outcome.chosen;
    const int groups = request.groups;
    const auto colours = groupColours(groups);
    QString text = tr("%1 hosts in %2 groups by %3 (%4 feature%5, each divided by its largest "
                      "value): objective %6, best of %7 starts")
                       .arg(request.cluster->hosts.size())
                       .arg(groups)
                       .arg(QString::fromStdString(request.features))
                       .arg(chosen.table.features.size())
                       .arg(chosen.table.features.size() == 1 ? "" : "s")
                       .arg(num(chosen.search.best.objective))
                       .arg(chosen.search.starts);
    if (seconds > 0)
        text += tr("; every feature set grouped in %1 s").arg(num(seconds, 2));
    if (!chosen.table.notes.empty())
        text += tr(". Figures the datasheets do not give count as 0 (%1 notes in the tooltip).")
                    .arg(chosen.table.notes.size());
    status_->setText(text);
    QString notes;
    for (const auto& note : chosen.table.notes)
        notes += QString::fromStdString(note) + "\n";
    status_->setToolTip(notes.trimmed());
    error_->clear();

    std::vector<int> sizes(static_cast<std::size_t>(groups), 0);
    for (const int g : chosen.search.best.group_of)
        ++sizes[static_cast<std::size_t>(g)];
    QString legend;
    for (int g = 0; g < groups; ++g) {
        const int size = sizes[static_cast<std::size_t>(g)];
        const QString label = size == 1 ? tr("group %1: 1 host").arg(g + 1)
                                        : tr("group %1: %2 hosts").arg(g + 1).arg(size);
        legend += QString("<span style='background-color:%1'>&nbsp;&nbsp;&nbsp;&nbsp;</span>"
                          "&nbsp;%2&nbsp;&nbsp;&nbsp; ")
                      .arg(colours[g].name(), label);
    }
    legend_->setText(legend);
    fillGroupTable();
    fillCharts();
    fillComparison();
    emit groupsChanged(groupOfHost(), colours);
}

QHash<QString, int> GroupingPage::groupOfHost() const {
    QHash<QString, int> groups;
    const auto& outcome = grouping_->outcome();
    if (!outcome)
        return groups;
    const auto& hosts = outcome->request.cluster->hosts;
    for (std::size_t d = 0; d < hosts.size(); ++d)
        groups.insert(QString::fromStdString(hosts[d].host),
                      outcome->chosen.search.best.group_of[d]);
    return groups;
}

void GroupingPage::fillGroupTable() {
    const auto& outcome = *grouping_->outcome();
    const auto& chosen = outcome.chosen;
    const auto& table = chosen.table;
    const auto colours = groupColours(outcome.request.groups);
    groupModel_->clear();
    QStringList headers{tr("Group"), tr("Hosts"), tr("Devices")};
    const bool fewFeatures = table.features.size() <= 3;
    if (fewFeatures)
        for (const auto& f : table.features)
            headers << QString::fromStdString(f);
    if (chosen.serving)
        headers << tr("images/s") << tr("mean ms") << tr("p95 ms");
    groupModel_->setHorizontalHeaderLabels(headers);
    for (int g = 0; g < outcome.request.groups; ++g) {
        std::map<std::string, int> devices;
        QStringList hosts;
        for (std::size_t d = 0; d < table.hosts.size(); ++d)
            if (chosen.search.best.group_of[d] == g) {
                ++devices[table.devices[d]];
                hosts << QString::fromStdString(table.hosts[d]);
            }
        QStringList kinds;
        for (const auto& [device, count] : devices)
            kinds << QString("%1 × %2").arg(count).arg(QString::fromStdString(device));
        QList<QStandardItem*> row;
        auto* name = item(tr("group %1").arg(g + 1));
        name->setBackground(colours[g]);
        name->setForeground(colours[g].lightnessF() > 0.55 ? Qt::black : Qt::white);
        row << name << number(hosts.size()) << item(kinds.join(", "));
        row.back()->setToolTip(hosts.join(' '));
        QString sums;
        for (std::size_t f = 0; f < table.features.size(); ++f)
            sums += tr("%1: %2\n")
                        .arg(QString::fromStdString(table.features[f]))
                        .arg(num(chosen.sums[static_cast<std::size_t>(g)][f], 6));
        if (fewFeatures)
            for (std::size_t f = 0; f < table.features.size(); ++f)
                row << number(chosen.sums[static_cast<std::size_t>(g)][f], 6);
        if (chosen.serving) {
            const auto& s = chosen.serving->groups[static_cast<std::size_t>(g)];
            row << number(s.images_per_s, 5) << number(s.mean_latency_ms)
                << number(s.p95_latency_ms);
        }
        for (auto* cell : row)
            if (cell->toolTip().isEmpty())
                cell->setToolTip(tr("Feature sums of group %1 (%2)\n")
                                     .arg(g + 1)
                                     .arg(QString::fromStdString(outcome.request.features)) +
                                 sums.trimmed());
        groupModel_->appendRow(row);
    }
    groupTable_->resizeColumnsToContents();
}

void GroupingPage::fillCharts() {
    const auto& outcome = *grouping_->outcome();
    const auto& chosen = outcome.chosen;
    const auto& table = chosen.table;
    const int groups = outcome.request.groups;
    const auto colours = groupColours(groups);
    // Each feature's group sum against an equal share of its total; all-zero features say nothing.
    std::vector<std::size_t> shown;
    std::vector<double> totals(table.features.size(), 0);
    for (std::size_t f = 0; f < table.features.size(); ++f) {
        for (int g = 0; g < groups; ++g)
            totals[f] += chosen.sums[static_cast<std::size_t>(g)][f];
        if (totals[f] != 0)
            shown.push_back(f);
    }
    std::vector<std::vector<double>> share(static_cast<std::size_t>(groups));
    std::vector<std::vector<QString>> tips(static_cast<std::size_t>(groups));
    QStringList categories;
    if (shown.size() <= kMostFeatureBars) {
        for (const auto f : shown)
            categories << QString::fromStdString(table.features[f]);
        for (int g = 0; g < groups; ++g) {
            const auto gi = static_cast<std::size_t>(g);
            for (const auto f : shown) {
                share[gi].push_back(chosen.sums[gi][f] / (totals[f] / groups));
                tips[gi].push_back(tr("group %1, %2: %3 (an equal share: %4)")
                                       .arg(g + 1)
                                       .arg(QString::fromStdString(table.features[f]))
                                       .arg(num(chosen.sums[gi][f], 6))
                                       .arg(num(totals[f] / groups, 6)));
            }
        }
    } else {
        categories << tr("lowest") << tr("mean") << tr("highest");
        for (int g = 0; g < groups; ++g) {
            const auto gi = static_cast<std::size_t>(g);
            double low = INFINITY, high = -INFINITY, sum = 0;
            for (const auto f : shown) {
                const double s = chosen.sums[gi][f] / (totals[f] / groups);
                low = std::min(low, s);
                high = std::max(high, s);
                sum += s;
            }
            share[gi] = {low, sum / static_cast<double>(shown.size()), high};
            for (int c = 0; c < 3; ++c)
                tips[gi].push_back(tr("group %1: %2 of an equal share (%3, over %4 features)")
                                       .arg(g + 1)
                                       .arg(num(share[gi][static_cast<std::size_t>(c)]))
                                       .arg(categories[c])
                                       .arg(shown.size()));
        }
    }
    featureChart_->setBars(categories, share, tips, colours,
                           shown.size() <= kMostFeatureBars
                               ? tr("group total / equal share")
                               : tr("share over %1 features").arg(shown.size()));

    if (!chosen.serving) {
        servingChart_->clear();
        servingChart_->chart()->setTitle(tr("Serving latency: choose a workload"));
        return;
    }
    // The benchmark's model without its input shape: the title has a chart's width.
    const QString workload = QString::fromStdString(outcome.request.workload).section('@', 0, 0);
    servingChart_->chart()->setTitle(tr("Serving latency per group: %1 at %2 tasks/s")
                                         .arg(workload, num(outcome.request.serving.rate_per_s)));
    servingChart_->setToolTip(QString::fromStdString(outcome.request.workload));
    std::vector<std::vector<double>> ms(static_cast<std::size_t>(groups));
    std::vector<std::vector<QString>> msTips(static_cast<std::size_t>(groups));
    for (int g = 0; g < groups; ++g) {
        const auto& s = chosen.serving->groups[static_cast<std::size_t>(g)];
        ms[static_cast<std::size_t>(g)] = {s.mean_latency_ms, s.p95_latency_ms};
        const QString tip = tr("group %1: %2 devices, %3 tasks, %4 images/s; mean %5 ms, p95 %6 "
                               "ms; last task done at %7 s")
                                .arg(g + 1)
                                .arg(s.devices)
                                .arg(s.tasks)
                                .arg(num(s.images_per_s, 5))
                                .arg(num(s.mean_latency_ms))
                                .arg(num(s.p95_latency_ms))
                                .arg(num(s.completion_s));
        msTips[static_cast<std::size_t>(g)] = {tip, tip};
    }
    servingChart_->setBars({tr("mean"), tr("95th percentile")}, ms, msTips, colours, tr("ms"));
}

void GroupingPage::fillComparison() {
    const auto& outcome = *grouping_->outcome();
    comparisonModel_->clear();
    const bool serving = !outcome.image_ms.empty();
    QStringList headers{tr("Features"), tr("Objective")};
    if (serving)
        headers << tr("Latency σ (ms)") << tr("Mean (ms)") << tr("Completion σ (s)")
                << tr("Capacity min/max");
    comparisonModel_->setHorizontalHeaderLabels(headers);
    for (const auto& set : outcome.comparison) {
        QList<QStandardItem*> row;
        auto* name = item(QString::fromStdString(set.table.set));
        if (set.table.set == outcome.request.features) {
            QFont bold = name->font();
            bold.setBold(true);
            name->setFont(bold);
        }
        row << name << number(set.search.best.objective);
        row.back()->setToolTip(tr("The sum over %1's features of the variance of the group "
                                  "totals, each feature divided by its largest value: in its own "
                                  "units, not comparable across feature sets")
                                   .arg(QString::fromStdString(set.table.set)));
        if (set.serving) {
            double low = INFINITY, high = 0;
            for (const auto& g : set.serving->groups) {
                low = std::min(low, g.images_per_s);
                high = std::max(high, g.images_per_s);
            }
            row << number(set.serving->latency_std_ms) << number(set.serving->mean_latency_ms)
                << number(set.serving->completion_std_s) << number(high > 0 ? low / high : NAN, 3);
        }
        comparisonModel_->appendRow(row);
    }
    comparisonTable_->resizeColumnsToContents();
    comparisonNote_->setText(serving ? tr("<b>Spread across groups, by feature set</b> (Table "
                                          "VI): lower σ, better balance")
                                     : tr("<b>Spread across groups, by feature set</b>: choose "
                                          "a workload for latencies"));
    comparisonTable_->setToolTip(
        tr("Every available feature set grouped with the same G and seed; with a workload, each "
           "grouping serves the same arrivals. σ: the population standard deviation across the "
           "groups of their mean latency, and of the times their last tasks completed."));
}

QString GroupingPage::statusText() const {
    return status_->text();
}

QString GroupingPage::errorText() const {
    return error_->text();
}

QString GroupingPage::legendText() const {
    return legend_->text();
}

void GroupingPage::showRestored(const QString& error, const QString& note) {
    if (!error.isEmpty()) {
        showError(error);
        return;
    }
    const auto r = grouping_->request();
    applying_ = true;
    groups_->setValue(r.groups);
    features_->setCurrentIndex(
        std::max(0, features_->findData(QString::fromStdString(r.features))));
    workload_->setCurrentIndex(
        std::max(0, workload_->findData(QString::fromStdString(r.workload))));
    batch_->setValue(r.serving.batch);
    duration_->setValue(r.serving.duration_s);
    rate_->setValue(r.serving.rate_per_s);
    seed_->setValue(static_cast<int>(r.seed));
    applying_ = false;
    error_->clear();
    status_->setText(note);
}

QString GroupingPage::runSettingsFile(const QString& path) {
    nlohmann::json settings;
    try {
        settings = read_json_file(path.toStdString(),
                                  "grouping settings such as {\"groups\": 4, \"features\": "
                                  "\"hp\", \"vectors\": \"vectors.json\"}");
    } catch (const InputError& e) {
        return QString::fromStdString(e.what());
    }
    if (settings.is_object() && settings.contains("result"))
        return grouping_->restoreState(settings);
    if (QString message = grouping_->restoreState(settings); !message.isEmpty())
        return message;
    run();
    return {};
}

} // namespace cleave::ui
