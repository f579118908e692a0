#include "ui/cluster/grouping_result_view.hpp"

#include "ui/charts/group_bars_chart.hpp"

#include <QChart>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
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

QList<QColor> GroupingResultView::groupColours(int groups) {
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

GroupingResultView::GroupingResultView(QWidget* parent) : QWidget(parent) {
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

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(charts);
    split->addWidget(tables);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    // Room for five rows: every feature set, or four groups and a scroll bar.
    const int rows = 5 * (fontMetrics().height() + 6) + fontMetrics().height() + 10;
    groupTable_->setMinimumHeight(rows);
    comparisonTable_->setMinimumHeight(rows);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(legend_);
    layout->addWidget(split, 1);
}

void GroupingResultView::setOutcome(const grouping::GroupingOutcome& outcome) {
    fillLegend(outcome);
    fillGroupTable(outcome);
    fillFeatureChart(outcome);
    fillServingChart(outcome);
    fillComparison(outcome);
}

void GroupingResultView::clear() {
    legend_->clear();
    featureChart_->clear();
    servingChart_->clear();
    groupModel_->clear();
    comparisonModel_->clear();
    comparisonNote_->setText(tr("<b>Spread across groups, by feature set</b>"));
}

QString GroupingResultView::legendText() const {
    return legend_->text();
}

void GroupingResultView::fillLegend(const grouping::GroupingOutcome& outcome) {
    const int groups = outcome.request.groups;
    const auto colours = groupColours(groups);
    std::vector<int> sizes(static_cast<std::size_t>(groups), 0);
    for (const int g : outcome.chosen.search.best.group_of)
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
}

void GroupingResultView::fillGroupTable(const grouping::GroupingOutcome& outcome) {
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

void GroupingResultView::fillFeatureChart(const grouping::GroupingOutcome& outcome) {
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
}

void GroupingResultView::fillServingChart(const grouping::GroupingOutcome& outcome) {
    const auto& chosen = outcome.chosen;
    const int groups = outcome.request.groups;
    const auto colours = groupColours(groups);
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

void GroupingResultView::fillComparison(const grouping::GroupingOutcome& outcome) {
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

} // namespace cleave::ui
