// The key to the graph's latency colours: the ramp as a bar, labelled in milliseconds at both
// ends and at its geometric middle, under the device it was predicted for.
#pragma once

#include "ui/latency/latency_ramp.hpp"

#include <QWidget>

namespace cleave::ui {

class LatencyLegend : public QWidget {
    Q_OBJECT

public:
    explicit LatencyLegend(QWidget* parent = nullptr);

    void setRamp(const LatencyRamp& ramp, const QString& device);
    const LatencyRamp& ramp() const { return ramp_; }
    QString title() const { return title_; }
    QStringList labels() const; // low, middle, high in ms

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    LatencyRamp ramp_;
    QString title_;
};

} // namespace cleave::ui
