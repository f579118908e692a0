// Kernel latency as colour: a light-to-dark ramp (pale yellow for the fastest kernels, deep red
// for the slowest) on a log scale, since one model's kernels span three or four decades.
#pragma once

#include <QColor>
#include <vector>

namespace cleave::ui {

class LatencyRamp {
public:
    LatencyRamp() = default;
    // The range of these latencies (any unit); non-positive values are left out.
    explicit LatencyRamp(const std::vector<double>& values);

    bool isEmpty() const { return high_ <= 0; }
    double low() const { return low_; }
    double high() const { return high_; }
    // Where a value sits on the ramp: 0 at low(), 1 at high(), log-linear between.
    double position(double value) const;
    QColor colour(double value) const { return colourAt(position(value)); }

    static QColor colourAt(double position); // position in [0, 1]

private:
    double low_ = 0;
    double high_ = 0;
};

} // namespace cleave::ui
