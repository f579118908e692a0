// How the studio writes a time in milliseconds: three significant digits at most ("41.6",
// "2.35", "0.0123"), so that kernel times from microseconds to tens of milliseconds all read.
#pragma once

#include <string>

namespace cleave::ui {

std::string format_ms(double ms);

} // namespace cleave::ui
