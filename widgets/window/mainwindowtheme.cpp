// View > Theme and the colour-blind-safe palette (part of MainWindow): applied to the window and every chart at once,
// kept in the settings.
#include <QActionGroup>
#include <QMenu>
#include <QSettings>
#include <QStatusBar>

#include "widgets/common/hardwarecolors.h"
#include "widgets/history/historychart.h"
#include "widgets/history/historypanel.h"
#include "widgets/plan/planpanel.h"
#include "widgets/window/mainwindow.h"

namespace paretoscope::ui {

void MainWindow::restoreTheme()
{
    const QSettings s;
    const ThemeKind kind = themeFromKey(s.value(QStringLiteral("view/theme")).toString());
    const bool colourBlind = s.value(QStringLiteral("view/colourBlind"), false).toBool();
    // the desktop's own look needs nothing set (the charts read its palette as they are built)
    if (kind != currentTheme())
        setTheme(kind);
    setColourBlindPalette(colourBlind);
}

void MainWindow::addThemeActions(QMenu* view)
{
    view->addSeparator();
    QMenu* themes = view->addMenu(tr("&Theme"));
    auto* group = new QActionGroup(themes);
    const std::pair<ThemeKind, QString> choices[] { { ThemeKind::Desktop, tr("&Desktop (follows its dark mode)") },
        { ThemeKind::Light, tr("&Light") }, { ThemeKind::Dark, tr("D&ark") },
        { ThemeKind::HighContrast, tr("&High contrast") } };
    for (const auto& [kind, text] : choices) {
        QAction* a = themes->addAction(text);
        a->setCheckable(true);
        a->setChecked(kind == currentTheme());
        a->setData(themeKey(kind));
        a->setObjectName(QStringLiteral("theme-") + themeKey(kind));
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, kind = kind] { applyTheme(kind, colourBlindPalette()); });
    }
    QAction* safe = view->addAction(tr("&Colour-blind-safe palette"));
    safe->setObjectName(QStringLiteral("colourBlindPalette"));
    safe->setCheckable(true);
    safe->setChecked(colourBlindPalette());
    safe->setToolTip(tr("Nine hardware colours that stay apart with protanopia, deuteranopia and tritanopia"));
    connect(safe, &QAction::toggled, this, [this](bool on) { applyTheme(currentTheme(), on); });
}

void MainWindow::applyTheme(ThemeKind kind, bool colourBlind)
{
    setTheme(kind);
    setColourBlindPalette(colourBlind);
    QSettings s;
    s.setValue(QStringLiteral("view/theme"), themeKey(kind));
    s.setValue(QStringLiteral("view/colourBlind"), colourBlind);
    // the menu's marks follow a change made from elsewhere (a test, a restored setting)
    for (QAction* a : findChildren<QAction*>()) {
        if (a->objectName() == QStringLiteral("theme-") + themeKey(kind))
            a->setChecked(true);
        if (a->objectName() == QLatin1String("colourBlindPalette") && a->isChecked() != colourBlind) {
            const QSignalBlocker quiet(a);
            a->setChecked(colourBlind);
        }
    }
    // every chart drawn again in the new colours; the tables and lists repaint with the palette
    m_chart->restyle();
    plan()->chart()->restyle();
    history()->chart()->restyle();
    for (QWidget* w : findChildren<QWidget*>())
        w->update();
    statusBar()->showMessage(
        tr("Theme: %1%2").arg(themeKey(kind), colourBlind ? tr(", colour-blind-safe palette") : QString()), 5000);
}

} // namespace paretoscope::ui
