// Settings an older studio saved under keys that have since moved: carried to the new key once,
// at start-up, the old key removed, and a value already under the new key kept.
#include "ui/shell/settings_migration.hpp"
#include "ui/shell/theme.hpp"

#include <QApplication>
#include <QSettings>
#include <QtTest>

using namespace cleave::ui;

class SettingsMigrationTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("CleaveTest");
        QCoreApplication::setApplicationName("settings_migration_test");
    }

    void init() { QSettings().clear(); }

    void aThemeSavedUnderTheOldKeySurvivesAnUpgrade() {
        QSettings().setValue("ui/theme", "dark");
        migrateSettings(); // as cleave-studio starts, before the theme is read
        initThemes();
        QCOMPARE(currentTheme(), Theme::dark);
        QCOMPARE(QApplication::palette().color(QPalette::Window),
                 themePalette(Theme::dark).color(QPalette::Window));
        QCOMPARE(QSettings().value("ui/shell/theme").toString(), QString("dark"));
    }

    void theOldKeyIsReadOnceAndRemoved() {
        QSettings().setValue("ui/theme", "dark");
        migrateSettings();
        QVERIFY(!QSettings().contains("ui/theme"));
        QSettings().setValue("ui/shell/theme", "light"); // chosen after the upgrade
        migrateSettings();
        QCOMPARE(QSettings().value("ui/shell/theme").toString(), QString("light"));
    }

    void aValueUnderTheNewKeyIsKept() {
        QSettings settings;
        settings.setValue("ui/theme", "dark");        // left by an older studio run since
        settings.setValue("ui/shell/theme", "light"); // what this studio saved last
        settings.sync();
        migrateSettings();
        QSettings after;
        QCOMPARE(after.value("ui/shell/theme").toString(), QString("light"));
        QVERIFY(!after.contains("ui/theme"));
    }

    void nothingIsWrittenWhenNothingWasSaved() {
        migrateSettings();
        QVERIFY(QSettings().allKeys().isEmpty());
    }
};

QTEST_MAIN(SettingsMigrationTest)
#include "settings_migration_test.moc"
