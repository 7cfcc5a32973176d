#pragma once

#include <QListWidget>
#include <QPointer>

#include "widgets/chart/frontierchart.h"

namespace paretoscope::ui {

/// The window's legend under the chart: one checkable entry per group drawn (groupChosen) and per speed-of-light line,
/// in columns of one width that fill the chart's width row by row; at most a few rows tall (fitHeight), scrolling
/// beyond, so that every group can be seen and switched however many there are and the plot keeps its height. Exports
/// keep the chart's own legend.
class ChartLegend : public QListWidget {
    Q_OBJECT
public:
    explicit ChartLegend(QWidget* parent = nullptr);
    /// Lists the chart's groups and bounds (none for a null chart).
    void setChart(FrontierChart* chart);
    /// Reads each entry's state back from the chart: switched on or off, faint where the target is out of reach.
    void sync();
    QSize sizeHint() const override;
    /// The width of a column: its longest entry on one line, within bounds.
    int columnWidth() const;
    /// As tall as its rows at its width, up to maxRows (a scroll bar beyond).
    void fitHeight(int maxRows);
    /// Forgets what each entry was drawn as, so that the next sync draws every one again (a theme or palette changed
    /// the colours, not the states).
    void forgetStates();

protected:
    /// A new width (the page shown, the window resized) may hold another number of columns: refitted.
    void resizeEvent(QResizeEvent* event) override;

private:
    void entryChanged(QListWidgetItem* item);
    /// Whether the entries listed are the chart's, in its order (each group's and bound's name).
    bool sameEntries(const FrontierChart& chart) const;
    QPointer<FrontierChart> m_chart;
    bool m_syncing = false;
    int m_maxRows = 3;
};

} // namespace paretoscope::ui
