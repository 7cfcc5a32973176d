// Themes (issue 42), offscreen on the InferenceX fixture: View > Theme turns the window and its charts dark, light or
// high contrast, and the colour-blind-safe palette recolours every hardware; both are kept for the next start, and a
// chart exported under a dark theme is still a light picture for a document.
#include <QtTest>

#include <QAction>
#include <QApplication>
#include <QLogValueAxis>
#include <QSettings>
#include <QValueAxis>
#include <array>
#include <cmath>

#include "tests/support/explorerfixture.h"
#include "tests/support/suite.h"
#include "widgets/chart/chartlegend.h"
#include "widgets/chart/chartpanel.h"
#include "widgets/common/groupstyle.h"
#include "widgets/common/hardwarecolors.h"
#include "widgets/common/theme.h"
#include "widgets/history/historychart.h"
#include "widgets/history/historypanel.h"
#include "widgets/plan/planchart.h"
#include "widgets/plan/planpanel.h"
#include "widgets/window/mainwindow.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;

namespace {

double linear(double c)
{
    const double v = c / 255.0;
    return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
}

// WCAG's relative luminance and contrast ratio
double luminance(const QColor& c)
{
    return 0.2126 * linear(c.red()) + 0.7152 * linear(c.green()) + 0.0722 * linear(c.blue());
}

double contrast(const QColor& a, const QColor& b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// CIELAB (D65) of a linear RGB triple
std::array<double, 3> lab(const std::array<double, 3>& rgb)
{
    const auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116; };
    const double x = f((0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]) / 0.95047);
    const double y = f(0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]);
    const double z = f((0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]) / 1.08883);
    return { 116 * y - 16, 500 * (x - y), 200 * (y - z) };
}

} // namespace

class TestThemes : public ExplorerFixture {
    Q_OBJECT

    QAction* action(const QString& name) { return m_window->findChild<QAction*>(name); }

    // the chart's background, its axis labels' colour and the colour the first group is drawn in
    QColor background() { return m_window->chartPanel()->chart()->backgroundBrush().color(); }
    QColor labels() { return m_window->chartPanel()->chart()->axes(Qt::Vertical).front()->labelsBrush().color(); }

private slots:
    void initTestCase() { openExplorer("tst_themes"); }

    // Dark: a dark window and chart, text that reads on it (4.5:1, WCAG AA), grid lines apart from the plot, every
    // hardware's line at least 3:1 against the plot (black MI300X and the blue B200 lifted); kept for the next start.
    void darkThemeIsReadableAndKept()
    {
        QVERIFY(show(QStringLiteral("dsr1"), 1024, 1024));
        QAction* dark = action(QStringLiteral("theme-dark"));
        QVERIFY(dark && dark->isCheckable());
        dark->trigger();
        QCOMPARE(currentTheme(), ThemeKind::Dark);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 100);
        QVERIFY(QApplication::palette().color(QPalette::WindowText).lightness() > 200);
        FrontierChart* chart = m_window->chartPanel()->chart();
        QVERIFY(background().lightness() < 100);
        const QColor plot = chart->plotAreaBackgroundBrush().color();
        QVERIFY2(contrast(labels(), plot) >= 4.5, qPrintable(QString::number(contrast(labels(), plot))));
        QVERIFY(chart->axes(Qt::Vertical).front()->gridLineColor() != plot);
        for (std::size_t i = 0; i < chart->groupCount(); ++i)
            QVERIFY2(contrast(chart->groupColour(i), plot) >= 3.0,
                qPrintable(
                    QStringLiteral("%1: %2").arg(chart->groupName(i)).arg(contrast(chart->groupColour(i), plot))));
        // the Plan and History pages' charts too, restyled in place
        QVERIFY(m_window->plan()->chart()->chart()->backgroundBrush().color().lightness() < 100);
        QVERIFY(m_window->history()->chart()->chart()->backgroundBrush().color().lightness() < 100);
        QCOMPARE(m_window->plan()->chart()->chart()->axes().isEmpty()
                ? chartColours().text
                : m_window->plan()->chart()->chart()->axes().front()->labelsBrush().color(),
            chartColours().text);
        QCOMPARE(QSettings().value(QStringLiteral("view/theme")).toString(), QStringLiteral("dark"));
        // an export stays a light picture for a document or a slide
        const QString png = m_dir.filePath(QStringLiteral("dark.png"));
        QVERIFY(m_window->exportChartPng(png, QSize(800, 500), 1).ok());
        const QImage image(png);
        QCOMPARE(image.pixelColor(3, 3), QColor(Qt::white));
        // the next start opens dark
        bool desktopBetween = false;
        QVERIFY(restartWindow(QSize(1366, 768), [&] {
            setTheme(ThemeKind::Desktop); // as a new process starts
            desktopBetween = QApplication::palette().color(QPalette::Window).lightness() > 150;
        }));
        QVERIFY(desktopBetween);
        QCOMPARE(currentTheme(), ThemeKind::Dark);
        QVERIFY(action(QStringLiteral("theme-dark"))->isChecked());
        QVERIFY(background().lightness() < 100);
    }

    // High contrast: black text on white, as on the InferenceX site's mode; thicker lines.
    void highContrastIsBlackOnWhite()
    {
        const qreal before = [&] {
            action(QStringLiteral("theme-light"))->trigger();
            return m_window->chartPanel()->chart()->groupPen(0).widthF();
        }();
        QCOMPARE(background(), QColor(Qt::white));
        action(QStringLiteral("theme-high-contrast"))->trigger();
        QCOMPARE(currentTheme(), ThemeKind::HighContrast);
        QCOMPARE(QApplication::palette().color(QPalette::WindowText), QColor(Qt::black));
        QCOMPARE(QApplication::palette().color(QPalette::Base), QColor(Qt::white));
        QCOMPARE(labels(), QColor(Qt::black));
        QCOMPARE(background(), QColor(Qt::white));
        QVERIFY(m_window->chartPanel()->chart()->groupPen(0).widthF() > before * 1.3);
        action(QStringLiteral("theme-desktop"))->trigger();
        QCOMPARE(currentTheme(), ThemeKind::Desktop);
        QCOMPARE(QSettings().value(QStringLiteral("view/theme")).toString(), QStringLiteral("desktop"));
        QVERIFY(background().lightness() > 200); // the offscreen desktop is light
    }

    // The colour-blind-safe palette: the nine hardware of InferenceX at least 15 apart in CIELAB for normal vision
    // and under simulated protanopia, deuteranopia and tritanopia (Machado, Oliveira and Fernandes 2009, severity
    // 1.0, applied to linear RGB), each 3:1 against white; switched on from the View menu the chart's lines take it,
    // and it is kept.
    void colourBlindPaletteStaysApartForEveryVision()
    {
        const std::array<std::array<double, 9>, 4> visions { {
            { 1, 0, 0, 0, 1, 0, 0, 0, 1 },
            { 0.152286, 1.052583, -0.204868, 0.114503, 0.786281, 0.099216, -0.003882, -0.048116, 1.051998 },
            { 0.367322, 0.860646, -0.227968, 0.280085, 0.672501, 0.047413, -0.011820, 0.042940, 0.968881 },
            { 1.255528, -0.076749, -0.178779, -0.078411, 0.930809, 0.147602, 0.004733, 0.691367, 0.303900 },
        } };
        const char* nine[] { "b200", "b300", "gb200", "gb300", "h100", "h200", "mi300x", "mi325x", "mi355x" };
        QAction* safe = action(QStringLiteral("colourBlindPalette"));
        QVERIFY(safe && safe->isCheckable() && !safe->isChecked());
        safe->trigger();
        QVERIFY(colourBlindPalette());
        std::vector<Rgb> colours;
        for (const char* hw : nine)
            colours.push_back(hardwareRgb(hw));
        for (const Rgb& c : colours)
            QVERIFY(contrast(QColor(c.r, c.g, c.b), Qt::white) >= 3.0);
        for (const auto& m : visions)
            for (std::size_t a = 0; a < colours.size(); ++a)
                for (std::size_t b = a + 1; b < colours.size(); ++b) {
                    const auto seen = [&](const Rgb& c) {
                        const std::array<double, 3> in { linear(c.r), linear(c.g), linear(c.b) };
                        std::array<double, 3> out {};
                        for (std::size_t i = 0; i < 3; ++i)
                            out[i]
                                = std::clamp(m[i * 3] * in[0] + m[i * 3 + 1] * in[1] + m[i * 3 + 2] * in[2], 0.0, 1.0);
                        return lab(out);
                    };
                    const auto p = seen(colours[a]), q = seen(colours[b]);
                    const double d = std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
                    QVERIFY2(d >= 15,
                        qPrintable(QStringLiteral("%1 and %2: %3")
                                       .arg(QLatin1String(nine[a]), QLatin1String(nine[b]))
                                       .arg(d)));
                }
        // the chart's lines took it
        FrontierChart* chart = m_window->chartPanel()->chart();
        bool seenB300 = false;
        for (std::size_t i = 0; i < chart->groupCount(); ++i)
            if (chart->chartData().series[i].key.hardware == "b300") {
                QCOMPARE(chart->groupColour(i), QColor(0x92, 0x00, 0x00));
                seenB300 = true;
            }
        QVERIFY(seenB300);
        // and so did the legend's swatches (they kept the old colours until a restart)
        const auto swatchHas = [&](const QColor& colour) {
            ChartLegend* legend = m_window->chartPanel()->legend();
            for (int r = 0; r < legend->count(); ++r) {
                if (!legend->item(r)->text().startsWith(QStringLiteral("B300 ")))
                    continue;
                const QImage icon = legend->item(r)->icon().pixmap(legend->iconSize()).toImage();
                for (int y = 0; y < icon.height(); ++y)
                    for (int x = 0; x < icon.width(); ++x)
                        if (const QColor c = icon.pixelColor(x, y); c.alpha() > 80
                            && std::abs(c.red() - colour.red()) + std::abs(c.green() - colour.green())
                                    + std::abs(c.blue() - colour.blue())
                                < 24)
                            return true;
            }
            return false;
        };
        QVERIFY(swatchHas(QColor(0x92, 0x00, 0x00)));
        QCOMPARE(QSettings().value(QStringLiteral("view/colourBlind")).toBool(), true);
        safe->trigger();
        QVERIFY(!colourBlindPalette());
        QCOMPARE(hardwareColour("b300"), QColor(0xd5, 0x5e, 0x00));
        QVERIFY(swatchHas(QColor(0xd5, 0x5e, 0x00)));
    }

    void cleanupTestCase()
    {
        m_window.reset();
        setTheme(ThemeKind::Desktop);
        setColourBlindPalette(false);
    }
};

PARETOSCOPE_SUITE(TestThemes)
#include "tst_themes.moc"
