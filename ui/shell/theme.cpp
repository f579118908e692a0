#include "ui/shell/theme.hpp"

#include "ui/charts/chart_colours.hpp"
#include "ui/graph/graph_view.hpp"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QChartView>
#include <QMenu>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>
#include <memory>

namespace cleave::ui {

namespace {

const char* const kSettingsKey = "ui/shell/theme";

// Charts and the graph view paint backgrounds and axes in colours of their own: they are given
// the palette's when they are first shown and whenever the palette changes.
class PaletteFollower : public QObject {
public:
    explicit PaletteFollower(QObject* parent) : QObject(parent) {}

protected:
    bool eventFilter(QObject* object, QEvent* event) override {
        const auto type = event->type();
        if (type != QEvent::Polish && type != QEvent::PaletteChange)
            return false;
        // Palette changes also come while a view is being built (QChartView's constructor sets
        // its background role before it has a chart): those wait for the polish before showing.
        auto* widget = qobject_cast<QWidget*>(object);
        if (!widget ||
            (type == QEvent::PaletteChange && !widget->testAttribute(Qt::WA_WState_Polished)))
            return false;
        if (auto* chart = qobject_cast<QChartView*>(object))
            applyPaletteToChart(chart);
        else if (auto* graph = qobject_cast<GraphView*>(object))
            graph->setBackgroundBrush(graph->palette().base());
        return false;
    }
};

struct ThemeState {
    QPalette system;
    Theme current = Theme::system;
    bool following = false;
};

ThemeState& state() {
    // Made on first use, before any theme is applied: the platform's palette.
    static ThemeState themes{QApplication::palette(), Theme::system, false};
    return themes;
}

void followPalette() {
    if (state().following)
        return;
    state().following = true;
    qApp->installEventFilter(new PaletteFollower(qApp));
}

QPalette darkPalette() {
    const QColor window(0x35, 0x35, 0x35);
    const QColor base(0x26, 0x26, 0x26);
    const QColor text(0xe6, 0xe6, 0xe6);
    const QColor muted(0x8c, 0x8c, 0x8c);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x30, 0x30, 0x30));
    p.setColor(QPalette::ToolTipBase, QColor(0x40, 0x40, 0x40));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, muted);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x4a, 0x4a, 0x4a));
    p.setColor(QPalette::Midlight, QColor(0x40, 0x40, 0x40));
    p.setColor(QPalette::Mid, QColor(0x5a, 0x5a, 0x5a));
    p.setColor(QPalette::Dark, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::Shadow, QColor(0x12, 0x12, 0x12));
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x6f, 0xb5));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xb0, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb4, 0x8c, 0xff));
    for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, muted);
    p.setColor(QPalette::Disabled, QPalette::Base, window);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x50, 0x50, 0x50));
    return p;
}

} // namespace

QString themeKey(Theme theme) {
    switch (theme) {
    case Theme::light:
        return "light";
    case Theme::dark:
        return "dark";
    case Theme::system:
        break;
    }
    return "system";
}

Theme themeFromKey(const QString& key) {
    if (key == "light")
        return Theme::light;
    if (key == "dark")
        return Theme::dark;
    return Theme::system;
}

QPalette themePalette(Theme theme) {
    switch (theme) {
    case Theme::light: {
        const std::unique_ptr<QStyle> fusion(QStyleFactory::create("Fusion"));
        return fusion ? fusion->standardPalette() : state().system;
    }
    case Theme::dark:
        return darkPalette();
    case Theme::system:
        break;
    }
    return state().system;
}

void initThemes() {
    state(); // the platform's palette, before it is replaced
    followPalette();
    applyTheme(themeFromKey(QSettings().value(kSettingsKey).toString()));
}

void applyTheme(Theme theme) {
    state();
    followPalette();
    state().current = theme;
    QSettings().setValue(kSettingsKey, themeKey(theme));
    QApplication::setPalette(themePalette(theme));
}

Theme currentTheme() {
    return state().current;
}

QMenu* addThemeMenu(QMenu* view) {
    auto* menu = view->addMenu(QApplication::translate("cleave::ui", "&Theme"));
    menu->setObjectName("themeMenu");
    auto* group = new QActionGroup(menu);
    const std::pair<Theme, QString> choices[] = {
        {Theme::light, QApplication::translate("cleave::ui", "&Light")},
        {Theme::dark, QApplication::translate("cleave::ui", "&Dark")},
        {Theme::system, QApplication::translate("cleave::ui", "&System")}};
    for (const auto& [theme, label] : choices) {
        auto* action = menu->addAction(label);
        action->setObjectName("theme-" + themeKey(theme));
        action->setCheckable(true);
        action->setActionGroup(group);
        QObject::connect(action, &QAction::triggered, menu, [theme] { applyTheme(theme); });
    }
    // Another window may have changed the theme since: the checks are set as the menu opens.
    const auto check = [menu] {
        for (auto* action : menu->actions())
            action->setChecked(action->objectName() == "theme-" + themeKey(currentTheme()));
    };
    QObject::connect(menu, &QMenu::aboutToShow, menu, check);
    check();
    return menu;
}

} // namespace cleave::ui
