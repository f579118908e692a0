#include "ui/latency/latency_legend.hpp"

#include "ui/tables/latency_format.hpp"

#include <QLinearGradient>
#include <QPainter>
#include <cmath>

namespace cleave::ui {

namespace {
constexpr int kPadding = 8;
constexpr int kBarWidth = 180;
constexpr int kBarHeight = 10;
} // namespace

LatencyLegend::LatencyLegend(QWidget* parent) : QWidget(parent) {
    setObjectName("latencyLegend");
    setAttribute(Qt::WA_TransparentForMouseEvents);
}

void LatencyLegend::setRamp(const LatencyRamp& ramp, const QString& device) {
    ramp_ = ramp;
    title_ = tr("Kernel latency on %1").arg(device);
    resize(sizeHint());
    update();
}

QStringList LatencyLegend::labels() const {
    if (ramp_.isEmpty())
        return {};
    const double middle = std::sqrt(ramp_.low() * ramp_.high());
    return {QString::fromStdString(format_ms(ramp_.low())),
            QString::fromStdString(format_ms(middle)),
            QString::fromStdString(format_ms(ramp_.high())) + tr(" ms")};
}

QSize LatencyLegend::sizeHint() const {
    const QFontMetrics metrics(font());
    const int width = std::max(kBarWidth, metrics.horizontalAdvance(title_)) + 2 * kPadding;
    return {width, 2 * metrics.height() + kBarHeight + 2 * kPadding + 6};
}

void LatencyLegend::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    QColor panel = palette().base().color();
    panel.setAlpha(225);
    painter.setPen(palette().mid().color());
    painter.setBrush(panel);
    painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);

    const QFontMetrics metrics(font());
    painter.setPen(palette().text().color());
    int y = kPadding;
    painter.drawText(QRect(kPadding, y, width() - 2 * kPadding, metrics.height()),
                     Qt::AlignLeft | Qt::AlignVCenter, title_);
    y += metrics.height() + 3;
    const QRect bar(kPadding, y, width() - 2 * kPadding, kBarHeight);
    QLinearGradient gradient(bar.topLeft(), bar.topRight());
    for (int i = 0; i <= 12; ++i)
        gradient.setColorAt(i / 12.0, LatencyRamp::colourAt(i / 12.0));
    painter.setPen(palette().mid().color());
    painter.setBrush(gradient);
    painter.drawRect(bar);
    y += kBarHeight + 3;
    const QStringList text = labels();
    if (text.size() != 3)
        return;
    painter.setPen(palette().text().color());
    const QRect row(kPadding, y, bar.width(), metrics.height());
    painter.drawText(row, Qt::AlignLeft | Qt::AlignVCenter, text[0]);
    painter.drawText(row, Qt::AlignHCenter | Qt::AlignVCenter, text[1]);
    painter.drawText(row, Qt::AlignRight | Qt::AlignVCenter, text[2]);
}

} // namespace cleave::ui
