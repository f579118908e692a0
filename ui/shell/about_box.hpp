// Help > About: Cleave's version and the versions of the libraries it was built with (read from
// their headers at build time, core/library_versions.cmake), Qt's also as it runs.
#pragma once

#include <QString>

class QWidget;

namespace cleave::ui {

QString aboutText(); // rich text: a heading, a line on what Cleave is, a table of libraries
void showAboutBox(QWidget* parent);

} // namespace cleave::ui
