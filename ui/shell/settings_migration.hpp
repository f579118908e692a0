// Settings keys that moved between versions of the studio: a value saved under a key an older
// studio wrote is carried to the key this one reads, once, at start-up, so that a move in the
// code never drops a user's choice.
#pragma once

namespace cleave::ui {

// Each old key still saved: its value is written under the new key (unless one is there
// already, which is newer) and the old key removed. Call before anything reads the settings.
void migrateSettings();

} // namespace cleave::ui
