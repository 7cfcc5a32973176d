#include "widgets/common/theme.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QChart>
#include <QLegend>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>
#include <algorithm>

namespace paretoscope::ui {

namespace {

ThemeKind g_theme = ThemeKind::Desktop;
bool g_exporting = false;

// The desktop's palette and style as the application started with them, so that "Desktop" can go back to them.
struct Desktop {
    QPalette palette;
    QString style;
};
const Desktop& desktop()
{
    static const Desktop d { QApplication::palette(),
        QApplication::style() ? QApplication::style()->name() : QString() };
    return d;
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31), base(0x1e, 0x1f, 0x22), text(0xe8, 0xe8, 0xe8), button(0x3a, 0x3c, 0x41);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2c));
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3c, 0x41));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x4a, 0x4c, 0x52));
    p.setColor(QPalette::Midlight, QColor(0x3f, 0x41, 0x46));
    p.setColor(QPalette::Mid, QColor(0x33, 0x35, 0x39));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xe0));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x7a, 0xb8, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xc0, 0x9a, 0xff));
    for (const QPalette::ColorRole role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        p.setColor(QPalette::Disabled, role, QColor(0x80, 0x80, 0x80));
    return p;
}

QPalette highContrastPalette()
{
    QPalette p(Qt::black, Qt::white); // black text and buttons' text on white
    p.setColor(QPalette::Base, Qt::white);
    p.setColor(QPalette::AlternateBase, QColor(0xf0, 0xf0, 0xf0));
    p.setColor(QPalette::Text, Qt::black);
    p.setColor(QPalette::WindowText, Qt::black);
    p.setColor(QPalette::ButtonText, Qt::black);
    p.setColor(QPalette::Button, Qt::white);
    p.setColor(QPalette::Light, Qt::white);
    p.setColor(QPalette::Mid, Qt::black);
    p.setColor(QPalette::Dark, Qt::black);
    p.setColor(QPalette::Highlight, QColor(0x00, 0x3d, 0xa6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::ToolTipBase, Qt::white);
    p.setColor(QPalette::ToolTipText, Qt::black);
    p.setColor(QPalette::PlaceholderText, QColor(0x44, 0x44, 0x44));
    p.setColor(QPalette::Link, QColor(0x00, 0x3d, 0xa6));
    for (const QPalette::ColorRole role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        p.setColor(QPalette::Disabled, role, QColor(0x55, 0x55, 0x55));
    return p;
}

bool isDark(const QPalette& p)
{
    return p.color(QPalette::Window).lightness() < 110;
}

} // namespace

QString themeKey(ThemeKind kind)
{
    switch (kind) {
    case ThemeKind::Light:
        return QStringLiteral("light");
    case ThemeKind::Dark:
        return QStringLiteral("dark");
    case ThemeKind::HighContrast:
        return QStringLiteral("high-contrast");
    case ThemeKind::Desktop:
        break;
    }
    return QStringLiteral("desktop");
}

ThemeKind themeFromKey(const QString& key)
{
    for (const ThemeKind k : { ThemeKind::Light, ThemeKind::Dark, ThemeKind::HighContrast })
        if (key == themeKey(k))
            return k;
    return ThemeKind::Desktop;
}

void setTheme(ThemeKind kind)
{
    const Desktop& d = desktop(); // taken before the first change
    g_theme = kind;
    if (kind == ThemeKind::Desktop) {
        if (QApplication::style() && QApplication::style()->name() != d.style && !d.style.isEmpty())
            QApplication::setStyle(QStyleFactory::create(d.style));
        QApplication::setPalette(d.palette);
        return;
    }
    // Fusion draws with the palette it is given, whatever the platform's style would
    if (QApplication::style() && QApplication::style()->name().compare(QLatin1String("fusion"), Qt::CaseInsensitive))
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    if (kind == ThemeKind::Dark)
        QApplication::setPalette(darkPalette());
    else if (kind == ThemeKind::HighContrast)
        QApplication::setPalette(highContrastPalette());
    else
        QApplication::setPalette(QApplication::style()->standardPalette());
}

ThemeKind currentTheme()
{
    return g_theme;
}

ChartColours chartColours()
{
    ChartColours c;
    const bool highContrast = g_theme == ThemeKind::HighContrast;
    const bool dark = !g_exporting && !highContrast
        && (g_theme == ThemeKind::Dark || (g_theme == ThemeKind::Desktop && isDark(QApplication::palette())));
    c.dark = dark;
    c.highContrast = highContrast;
    if (dark) {
        c.background = QColor(0x2b, 0x2d, 0x31);
        c.plot = QColor(0x1e, 0x1f, 0x22);
        c.text = QColor(0xe4, 0xe4, 0xe4);
        c.faintText = QColor(0x9a, 0x9a, 0x9a);
        c.grid = QColor(0x3c, 0x3f, 0x45);
        c.labelBox = QColor(0x1e, 0x1f, 0x22, 220);
        return c;
    }
    c.background = Qt::white;
    c.plot = Qt::white;
    c.text = highContrast ? QColor(Qt::black) : QColor(0x3c, 0x3c, 0x3c);
    c.faintText = highContrast ? QColor(0x44, 0x44, 0x44) : QColor(0x78, 0x78, 0x78);
    c.grid = highContrast ? QColor(0xa0, 0xa0, 0xa0) : QColor(0xe1, 0xe1, 0xe1);
    c.labelBox = QColor(255, 255, 255, highContrast ? 240 : 215);
    c.lineScale = highContrast ? 1.4 : 1;
    return c;
}

QColor onChart(QColor colour)
{
    if (!chartColours().dark)
        return colour;
    // on a dark plot a dark hardware colour (blue, black, indigo) all but vanishes: its lightness lifted into the
    // upper half, in the same order and a good part of the same steps (a floor made two dark reds one pink), its hue
    // kept
    float h = 0, s = 0, l = 0, a = 0;
    colour.getHslF(&h, &s, &l, &a);
    colour.setHslF(h, s, std::max(l, 0.5f + 0.4f * l), a);
    return colour;
}

void styleChart(QChart* chart)
{
    const ChartColours c = chartColours();
    chart->setBackgroundBrush(c.background);
    chart->setBackgroundPen(Qt::NoPen);
    chart->setPlotAreaBackgroundBrush(c.plot);
    chart->setPlotAreaBackgroundVisible(true);
    chart->setTitleBrush(c.text);
    if (chart->legend())
        chart->legend()->setLabelColor(c.text);
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsBrush(c.text);
        axis->setTitleBrush(c.text);
        axis->setGridLineColor(c.grid);
        axis->setMinorGridLineColor(c.dark ? c.grid.darker(115) : c.grid.lighter(108));
        axis->setLinePenColor(c.highContrast ? QColor(Qt::black) : c.faintText);
    }
}

QColor noteColour(NoteKind kind)
{
    const bool dark = isDark(QApplication::palette());
    switch (kind) {
    case NoteKind::Ok:
        return dark ? QColor(0x81, 0xc7, 0x84) : QColor(0x1b, 0x5e, 0x20);
    case NoteKind::Warning:
        return dark ? QColor(0xff, 0xb7, 0x4d) : QColor(0x8a, 0x4b, 0x00);
    case NoteKind::Error:
        break;
    }
    return dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xb0, 0x00, 0x20);
}

QString noteStyle(NoteKind kind)
{
    return QStringLiteral("color: ") + noteColour(kind).name();
}

ExportSurface::ExportSurface()
    : m_was(g_exporting)
{
    g_exporting = true;
}

ExportSurface::~ExportSurface()
{
    g_exporting = m_was;
}

} // namespace paretoscope::ui
