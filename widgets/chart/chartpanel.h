#pragma once

#include <QChartView>
#include <QWidget>
#include <functional>

#include "widgets/chart/chartlegend.h"
#include "widgets/chart/frontierchart.h"
#include "widgets/chart/frontierview.h"

class QCheckBox;
class QComboBox;
class QLabel;

namespace paretoscope::ui {

/// A chart's points, and the view they were worked out for.
struct DrawnChart {
    std::shared_ptr<const ChartData> data;
    ChartRequest request;
};

/// The chart with its view controls: x (interactivity, end-to-end latency, median or p99 TTFT), y (tok/s/GPU, $ per
/// million tokens, or an energy metric with its basis), log axes, zoom reset, and a line saying how many runs are in
/// scope and drawn. The note under the chart says the scope's service-level limits when it has any.
class ChartPanel : public QWidget {
    Q_OBJECT
public:
    explicit ChartPanel(const PricingCatalog& pricing, QWidget* parent = nullptr);

    /// Shows a new scope at the readout's target and price (one rebuild). drawn: its chart points for a view, worked
    /// out off the GUI thread; used while the view asked for is that one.
    void setData(std::shared_ptr<const ScopeData> data, double target, const PriceChoice& price,
        std::optional<DrawnChart> drawn = std::nullopt);
    /// Builds now, out of view, the chart that setData with the same arguments would build, for it to take: a new
    /// scope's chart in two turns of the event loop, built, then put in view (each about 5 ms on a million-run
    /// store). Nothing where the chart in view may take the scope in place.
    void prepare(std::shared_ptr<const ScopeData> scopeData, double target, const PriceChoice& price,
        const std::optional<DrawnChart>& drawn);
    /// The view this panel would draw at a price: axes, scales, and the plot's size in pixels.
    ChartRequest requestFor(const PriceChoice& price) const;
    /// Whether points worked out for `drawn` draw `view`: the same axes, scales and price, a plot within 15% of the
    /// size.
    static bool sameView(const ChartRequest& drawn, const ChartRequest& view);
    void setTarget(double target);
    /// Shows why there is nothing to draw (a damaged store) in place of the chart, until the next setData().
    void showProblem(const QString& message);
    /// Says what the filters hide when they leave nothing to draw, with a button that switches them off; an empty
    /// text hides the line.
    void showFilterHint(const QString& text);
    void setPrice(const PriceChoice& price);
    /// Follows the readout's "Hide readings across wide gaps": the labels name each hardware's best other reading.
    void setHideSparse(bool hide);
    /// Follows the readout's Reading box: one configuration's reading is marked and labelled as the readout's.
    void setReading(Reading reading);
    ChartState state() const { return m_state; }
    void setState(const ChartState& state);
    /// Builds the chart again in the current theme and palette (View > Theme), zoom and all else kept.
    void restyle();
    FrontierChart* chart() const { return m_chart; }
    /// The chart prepare() built, until setData takes it or a change leaves it unused; null if none.
    const FrontierChart* preparedChart() const { return m_prepared ? m_prepared->chart.get() : nullptr; }
    FrontierView* view() const { return m_view; }
    ChartLegend* legend() const { return m_legend; }
    void resetZoom();

signals:
    void stateChanged();
    /// The filter hint's button: show the scope's every run.
    void resetFiltersRequested();

protected:
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    /// The note under the chart as tall as its text at the panel's width (growOnly: never shorter than it was).
    void fitOutside(bool growOnly);
    /// Whether the chart in view is the one a rebuild would build from the drawn points.
    bool showsDrawn() const;
    /// Whether the chart in view has the groups switched off and lines a rebuild would give it, unzoomed, and the
    /// view (sameView; its points aside).
    bool keepsState(bool sameView = true) const;
    /// The lines under and beside the chart: runs in scope and drawn, marked runs, limits, groups out of range.
    void describe();
    void fitLegend();
    void readControls();
    /// The x and y boxes' entries and tooltips, and log x on (from the constructor).
    void fillAxisChoices();
    /// The bar of view controls over the chart, the panel's layout, the controls' connections and the first
    /// rebuild (from the constructor).
    void layOutControls();
    const PricingCatalog& m_pricing;
    std::shared_ptr<const ScopeData> m_data;
    std::optional<DrawnChart> m_drawn;
    ChartState m_state;
    struct Prepared { // prepare()'s chart, and what it was built from
        std::unique_ptr<FrontierChart> chart;
        std::shared_ptr<const ScopeData> data;
        std::shared_ptr<const ChartData> drawn;
        ChartState state;
    };
    std::optional<Prepared> m_prepared;
    FrontierChart* m_chart = nullptr;
    FrontierView* m_view;
    ChartLegend* m_legend;
    QComboBox* m_x;
    QComboBox* m_y;
    QComboBox* m_groups; // every group, or one per hardware (ChartGroups)
    QCheckBox* m_logX;
    QCheckBox* m_logY;
    QLabel* m_info;
    QLabel* m_outside; // which groups do not reach the target, and the runs marked as not trusted
    QString m_markedNote;
    QString m_limitsNote; // the scope's service-level limits, and the hardware an energy y has no figure for
    static QString limitsNote(const ScopeData& data, const ChartData& chart, const ChartRequest& request);
    QLabel* m_problem; // why nothing is drawn, over an empty chart
    QWidget* m_filterHint; // what the filters hide when they hide everything, and a reset
    QLabel* m_filterHintText;
    void showOutside();
};

} // namespace paretoscope::ui
