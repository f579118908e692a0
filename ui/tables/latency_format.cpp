#include "ui/tables/latency_format.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cleave::ui {

std::string format_ms(double ms) {
    if (!std::isfinite(ms))
        return "–";
    const double magnitude = std::abs(ms);
    int decimals = 1;
    if (magnitude > 0 && magnitude < 10)
        decimals = std::min(6, 2 - static_cast<int>(std::floor(std::log10(magnitude))));
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", decimals, ms);
    return text;
}

} // namespace cleave::ui
