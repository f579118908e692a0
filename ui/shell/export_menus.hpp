// The studio's charts and views that export as PNG or SVG from their context menus
// (ui/shell/view_export), installed from outside the views, so the views themselves need not know about
// it.
#pragma once

namespace cleave::ui {

class MainWindow;

void installExportMenus(MainWindow& window);

} // namespace cleave::ui
