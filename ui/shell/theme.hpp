// The studio's palettes: light, dark, and the one the platform gave at start ("system"), all on
// the Fusion style (Qt 6.4 has no hook for the desktop's dark mode). The choice is kept in
// QSettings ("ui/shell/theme") and applied at start and live; charts and the graph, which draw with
// colours of their own, follow the palette as it changes.
#pragma once

#include <QPalette>
#include <QString>

class QMenu;

namespace cleave::ui {

enum class Theme { light, dark, system };

QString themeKey(Theme theme);          // "light", "dark", "system"
Theme themeFromKey(const QString& key); // unknown keys: system
QPalette themePalette(Theme theme);

// Remembers the platform's palette (call once the style is set, before applying a theme), makes
// charts and graph views follow palette changes, and applies the theme saved in QSettings.
void initThemes();
// Sets the application's palette and saves the choice.
void applyTheme(Theme theme);
Theme currentTheme();

// View > Theme: Light, Dark, System, one checked; appended to `view`.
QMenu* addThemeMenu(QMenu* view);

} // namespace cleave::ui
