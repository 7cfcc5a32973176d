#pragma once

#include <QChartView>
#include <QString>
#include <functional>

namespace paretoscope::ui {

/// The chart view: rubber-band zoom, hover descriptions of runs.
class FrontierView : public QChartView {
    Q_OBJECT
public:
    explicit FrontierView(QWidget* parent = nullptr);
    /// Asked once per run hovered for its description (its configuration), which comes back later through
    /// setRunText; set by whoever can look runs up.
    std::function<void(long long runId)> requestRunText;
    /// The description of a run asked for: shown at once if the pointer is still on that run's tooltip.
    void setRunText(long long runId, const QString& text);
    /// The description of the run hovered last, empty until it arrived.
    QString hoveredRunText() const { return m_hoveredText; }
    /// What the scene changes from now on is repainted a moment later, in a turn of the event loop of its own.
    void repaintLater();

signals:
    /// A run's description arrived (setRunText).
    void runTextArrived(long long runId);

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    /// The hovered run's description as tooltip text, or empty where there is no run.
    QString runTextAt(QPoint viewPos);
    static QString toolTipHtml(const QString& text);
    long long m_hoveredRun = 0;
    ViewportUpdateMode m_updateMode = MinimalViewportUpdate; // the mode repaintLater() comes back to
    QString m_hoveredText;
    QPoint m_toolTipAt; // global position of the run's tooltip shown while its description is read
};

} // namespace paretoscope::ui
