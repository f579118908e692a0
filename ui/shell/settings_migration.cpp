#include "ui/shell/settings_migration.hpp"

#include <QSettings>

namespace cleave::ui {

namespace {

struct MovedKey {
    const char* from;
    const char* to;
};

// Oldest move first; a key that moves again gets a second line, so each old version's key is
// carried on.
constexpr MovedKey kMovedKeys[] = {
    {"ui/theme", "ui/shell/theme"}, // ui/ split by concept: the theme went into ui/shell
};

} // namespace

void migrateSettings() {
    QSettings settings;
    for (const auto& [from, to] : kMovedKeys) {
        if (!settings.contains(from))
            continue;
        if (!settings.contains(to))
            settings.setValue(to, settings.value(from));
        settings.remove(from);
    }
}

} // namespace cleave::ui
