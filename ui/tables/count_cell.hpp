// How a count appears in the studio's tables: right-aligned, with thousands separators, "–" for
// zero, and its value under TermFilterProxy::SortRole so it sorts as a number.
#pragma once

#include <QVariant>
#include <cstdint>

namespace cleave::ui {

QVariant countCell(std::int64_t value, int role);
QVariant rowNumberCell(int row, int role); // the "#" column: topological position

} // namespace cleave::ui
