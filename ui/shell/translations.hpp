// The studio's translation catalogue (translations/cleave_en.ts, compiled into the library's
// resources): English, the source language, for the plural forms of its "%n" strings ("1 PE",
// "2 PEs"); every other string shows its source text. docs/architecture.md says how to refresh
// it and how a language would be added.
#pragma once

class QCoreApplication;

namespace cleave::ui {

// Installs the catalogue on `app`; false when it is missing from the resources.
bool installTranslations(QCoreApplication& app);

} // namespace cleave::ui
