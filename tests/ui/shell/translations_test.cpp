// The translation catalogue is in the library's resources and gives the plural forms of the
// "%n" strings: one PE, two PEs.
#include "ui/dse/dse_page.hpp"
#include "ui/shell/translations.hpp"

#include <QApplication>
#include <QtTest>

class TranslationsTest : public QObject {
    Q_OBJECT

private slots:
    void pluralsFollowTheCount() {
        QVERIFY(cleave::ui::installTranslations(*QCoreApplication::instance()));
        const auto text = [](int n) {
            return cleave::ui::DsePage::tr("%n PE(s) without latencies left out (%1)", "", n)
                .arg("jetson-nano");
        };
        QCOMPARE(text(1), QString("1 PE without latencies left out (jetson-nano)"));
        QCOMPARE(text(2), QString("2 PEs without latencies left out (jetson-nano)"));
        QCOMPARE(cleave::ui::DsePage::tr("Wrote the front (%n solution(s)) to %1.", "", 1)
                     .arg("front.csv"),
                 QString("Wrote the front (1 solution) to front.csv."));
        // A string with no plural shows its source text.
        QCOMPARE(cleave::ui::DsePage::tr("Starting the search…"), QString("Starting the search…"));
    }
};

QTEST_MAIN(TranslationsTest)
#include "translations_test.moc"
