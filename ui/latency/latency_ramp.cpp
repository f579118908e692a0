#include "ui/latency/latency_ramp.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace cleave::ui {

namespace {

// ColorBrewer's YlOrRd, seven classes: ordered in lightness, readable for colour-blind viewers.
constexpr std::array<QRgb, 7> kStops{0xffffb2, 0xfed976, 0xfeb24c, 0xfd8d3c,
                                     0xfc4e2a, 0xe31a1c, 0xb10026};

} // namespace

LatencyRamp::LatencyRamp(const std::vector<double>& values) {
    for (const double v : values) {
        if (!(v > 0))
            continue;
        low_ = low_ > 0 ? std::min(low_, v) : v;
        high_ = std::max(high_, v);
    }
}

double LatencyRamp::position(double value) const {
    if (isEmpty() || !(value > low_))
        return 0;
    if (high_ <= low_)
        return 1;
    return std::clamp(std::log(value / low_) / std::log(high_ / low_), 0.0, 1.0);
}

QColor LatencyRamp::colourAt(double position) {
    const double x = std::clamp(position, 0.0, 1.0) * (kStops.size() - 1);
    const auto i = std::min(static_cast<std::size_t>(x), kStops.size() - 2);
    const double t = x - static_cast<double>(i);
    const QColor a(kStops[i]);
    const QColor b(kStops[i + 1]);
    return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
                            static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
                            static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
}

} // namespace cleave::ui
