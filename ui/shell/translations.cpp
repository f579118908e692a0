#include "translations.hpp"

#include <QCoreApplication>
#include <QTranslator>

namespace cleave::ui {

bool installTranslations(QCoreApplication& app) {
    auto* translator = new QTranslator(&app);
    if (!translator->load(QStringLiteral(":/i18n/cleave_en.qm"))) {
        delete translator;
        return false;
    }
    return QCoreApplication::installTranslator(translator);
}

} // namespace cleave::ui
