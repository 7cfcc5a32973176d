#pragma once

#include <QDialog>
#include <vector>

#include "widgets/chart/chartexport.h"

class QComboBox;
class QSpinBox;
class QDoubleSpinBox;
class QLabel;

namespace paretoscope::ui {

/// Asks how to export the chart: the format (PNG, SVG, PDF), one of the offered sizes (a 16:9 or 4:3 slide, the
/// screen, the chart as on screen) or a size of one's own, and for a picture how large type and lines are drawn.
/// Says the pixels the file will have before it is written.
class ExportChartDialog : public QDialog {
    Q_OBJECT
public:
    ExportChartDialog(std::vector<ExportSize> sizes, QWidget* parent = nullptr);

    ChartFormat format() const;
    void setFormat(ChartFormat format);
    /// The size chosen: an offered one, or the custom width, height and scale.
    ExportSize size() const;
    /// Picks the offered size of that name ("Slide 4:3"), or Custom with these pixels and scale.
    void choose(const QString& name);
    void setCustom(QSize pixels, qreal scale);
    /// The line under the choices: "1920 x 1080 pixels, laid out as 1280 x 720 (type 1.5x)".
    QString summary() const;

    /// The choice as a line for the settings, and back (an unreadable or unknown line leaves the defaults).
    QString saved() const;
    void restore(const QString& line);

private:
    void update();

    std::vector<ExportSize> m_sizes;
    QComboBox* m_format;
    QComboBox* m_size;
    QSpinBox* m_width;
    QSpinBox* m_height;
    QDoubleSpinBox* m_scale;
    QLabel* m_summary;
};

} // namespace paretoscope::ui
