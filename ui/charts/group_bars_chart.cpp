#include "ui/charts/group_bars_chart.hpp"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QCursor>
#include <QLegend>
#include <QToolTip>
#include <QValueAxis>
#include <algorithm>

namespace cleave::ui {

GroupBarsChart::GroupBarsChart(const QString& title, QWidget* parent)
    : QChartView(parent), series_(new QBarSeries(this)), categories_(new QBarCategoryAxis(this)),
      values_(new QValueAxis(this)) {
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(2, 2, 6, 2));
    chart->setTitle(title);
    chart->setTitleFont(font());
    setChart(chart);
    setRenderHint(QPainter::Antialiasing);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    categories_->setLabelsFont(small);
    categories_->setGridLineVisible(false);
    values_->setLabelsFont(small);
    values_->setTitleFont(small);
    values_->setLabelFormat("%.3g");
    chart->legend()->setFont(small);
    chart->addSeries(series_);
    chart->addAxis(categories_, Qt::AlignBottom);
    chart->addAxis(values_, Qt::AlignLeft);
    series_->attachAxis(categories_);
    series_->attachAxis(values_);
    series_->setBarWidth(0.85);
    connect(series_, &QBarSeries::hovered, this, [this](bool state, int index, QBarSet* set) {
        if (!state) {
            QToolTip::hideText();
            return;
        }
        const auto group = static_cast<std::size_t>(series_->barSets().indexOf(set));
        if (group < tips_.size() && static_cast<std::size_t>(index) < tips_[group].size())
            QToolTip::showText(QCursor::pos(), tips_[group][static_cast<std::size_t>(index)], this);
    });
    clear();
}

void GroupBarsChart::setBars(const QStringList& categories,
                             const std::vector<std::vector<double>>& values,
                             const std::vector<std::vector<QString>>& tips,
                             const QList<QColor>& colours, const QString& valueTitle) {
    series_->clear();
    tips_ = tips;
    double high = 0;
    for (std::size_t g = 0; g < values.size(); ++g) {
        auto* set = new QBarSet(tr("group %1").arg(g + 1));
        const QColor colour = colours.value(static_cast<int>(g), Qt::gray);
        set->setColor(colour);
        set->setBorderColor(colour.darker(130));
        for (const double v : values[g]) {
            set->append(v);
            high = std::max(high, v);
        }
        series_->append(set);
    }
    categories_->setCategories(categories);
    values_->setTitleText(valueTitle);
    values_->setRange(0, high > 0 ? high * 1.1 : 1.0);
    values_->applyNiceNumbers();
    // The tab's legend names the groups' colours once for both charts.
    chart()->legend()->setVisible(false);
}

void GroupBarsChart::clear() {
    series_->clear();
    tips_.clear();
    categories_->clear();
    values_->setRange(0, 1);
    values_->setTitleText({});
}

QStringList GroupBarsChart::categories() const {
    return categories_->categories();
}

} // namespace cleave::ui
