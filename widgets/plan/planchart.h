#pragma once

#include <QChartView>
#include <string>
#include <vector>

#include "core/analysis/plan.h"

class QLineSeries;

namespace paretoscope::ui {

/// The cost of speed: for each hardware, what serving the demand takes ($/month, GPUs or MW) against the target
/// interactivity, from core's costOfSpeed; the current target is a vertical line. A hardware has no point at a target
/// it cannot be sized at (outside its frontier, or no run meets the SLO): its line breaks there.
class PlanChart : public QChartView {
    Q_OBJECT
public:
    enum class Measure { CostPerMonth, Gpus, Megawatts };

    explicit PlanChart(QWidget* parent = nullptr);
    /// Draws the curve (plans in target order) with the target marked.
    void setCurve(const std::vector<Plan>& curve, double target, Measure measure);
    /// Moves the target line only.
    void setTarget(double target);
    /// Draws again in the current theme and palette (View > Theme).
    void restyle();
    /// A message in place of the lines.
    void showMessage(const QString& message);
    /// The points drawn per hardware (x target, y measure), in target order: what tests compare.
    const std::vector<std::pair<std::string, QList<QPointF>>>& lines() const { return m_lines; }
    static std::optional<double> measureOf(const HardwarePlan& h, Measure m);
    /// The y axis' label format: the unit with the number ("$%.0f", "%.2f MW"), decimals for the smallest label.
    static QString labelFormat(Measure m, double smallest);
    static QString measureName(Measure m);

private:
    void rebuild(double xMin, double xMax, double yMin, double yMax, Measure measure);
    std::vector<std::pair<std::string, QList<QPointF>>> m_lines;
    QLineSeries* m_targetLine = nullptr;
    double m_yMin = 0, m_yMax = 1;
    double m_target = 0;
};

} // namespace paretoscope::ui
