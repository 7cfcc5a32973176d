#pragma once

#include <QColor>
#include <QString>

class QChart;

namespace paretoscope::ui {

/// How the explorer looks (View > Theme, kept in the settings as view/theme): the desktop's own palette, dark where
/// the desktop is; a light or a dark one whatever the desktop; or high contrast (black on white, the lines thicker,
/// as the InferenceX site's high-contrast mode).
enum class ThemeKind { Desktop, Light, Dark, HighContrast };
/// "desktop", "light", "dark", "high-contrast"; and back (nullopt-like Desktop for an unknown name).
QString themeKey(ThemeKind kind);
ThemeKind themeFromKey(const QString& key);

/// Sets the application's palette (Fusion's style for the themes of its own) and the charts' colours. Charts built
/// after it take them; the window rebuilds its charts when it changes.
void setTheme(ThemeKind kind);
ThemeKind currentTheme();

/// The colours a chart is drawn in under the current theme (light whatever it is inside an ExportSurface).
struct ChartColours {
    bool dark = false;
    bool highContrast = false;
    QColor background; ///< around the plot
    QColor plot; ///< the plot area
    QColor text; ///< axis labels and titles, the chart's title, the marker's line and caption
    QColor faintText; ///< what is said in grey (a group outside its range)
    QColor grid;
    QColor labelBox; ///< behind the marker's value labels (translucent)
    qreal lineScale = 1; ///< the groups' pens are this much wider (high contrast)
};
ChartColours chartColours();
/// A hardware's colour as drawn on the current chart background: on a dark one, lightened until it stands out.
QColor onChart(QColor colour);

/// Gives a chart (and its axes) the current theme's background, plot area, text and grid.
void styleChart(QChart* chart);

/// A style sheet that colours a line of text as an error, a success or a warning, readable on the current theme's
/// background (the light theme's dark red reads poorly on a dark window).
enum class NoteKind { Error, Ok, Warning };
QString noteStyle(NoteKind kind);
/// The same colour, for a table cell's text.
QColor noteColour(NoteKind kind);

/// While one lives, charts are drawn light (an export for a document or a slide, whatever the window's theme); the
/// colour-blind-safe palette still applies.
class ExportSurface {
public:
    ExportSurface();
    ~ExportSurface();
    ExportSurface(const ExportSurface&) = delete;
    ExportSurface& operator=(const ExportSurface&) = delete;

private:
    bool m_was;
};

} // namespace paretoscope::ui
