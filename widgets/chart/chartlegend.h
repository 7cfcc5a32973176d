#pragma once

#include <QListWidget>
#include <QPointer>

#include "widgets/chart/frontierchart.h"

namespace paretoscope::ui {

/// The window's legend beside the chart: one checkable entry per group and per speed-of-light line, in a list that
/// scrolls and wraps its long names, so that every group can be seen and switched however many there are and
/// however small the screen. Exports keep the chart's own legend.
class ChartLegend : public QListWidget {
    Q_OBJECT
public:
    explicit ChartLegend(QWidget* parent = nullptr);
    /// Lists the chart's groups and bounds (none for a null chart).
    void setChart(FrontierChart* chart);
    /// Reads each entry's state back from the chart: switched on or off, faint where the target is out of reach.
    void sync();
    QSize sizeHint() const override;
    /// The width that shows its longest entry on one line.
    int contentWidth() const;

private:
    void entryChanged(QListWidgetItem* item);
    /// Whether the entries listed are the chart's, in its order (each group's and bound's name).
    bool sameEntries(const FrontierChart& chart) const;
    QPointer<FrontierChart> m_chart;
    bool m_syncing = false;
};

} // namespace paretoscope::ui
