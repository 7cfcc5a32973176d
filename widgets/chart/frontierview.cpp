// The chart's view: rubber-band zoom, and hover descriptions of runs asked for once and shown when they arrive.
#include "widgets/chart/frontierview.h"

#include <QGraphicsScene>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QTimer>
#include <QToolTip>

#include "widgets/chart/frontierchart.h"

namespace paretoscope::ui {

FrontierView::FrontierView(QWidget* parent)
    : QChartView(parent)
{
    setRenderHint(QPainter::Antialiasing);
    // a chart's few dozen items need no spatial index, and without one no item whose bounds moved unannounced can
    // leave a stale entry behind for the next paint
    scene()->setItemIndexMethod(QGraphicsScene::NoIndex);
    setRubberBand(QChartView::RectangleRubberBand);
    setMouseTracking(true);
}

void FrontierView::repaintLater()
{
    // a new chart's first paint (10 to 15 ms on the bench's 16-group scope) would otherwise run in the same stand of
    // the event loop as its build and the window's repaint of the other panels the new scope changed; a grab or an
    // exposed region still paints the scene as it is
    if (viewportUpdateMode() != NoViewportUpdate)
        m_updateMode = viewportUpdateMode();
    setViewportUpdateMode(NoViewportUpdate);
    QTimer::singleShot(1, this, [this] {
        setViewportUpdateMode(m_updateMode);
        viewport()->update();
    });
}

QString FrontierView::toolTipHtml(const QString& text)
{
    // plain text: imported names are never read as markup
    return QStringLiteral("<p style='white-space:pre'>") + text.toHtmlEscaped().replace(u'\n', QStringLiteral("<br>"));
}

QString FrontierView::runTextAt(QPoint viewPos)
{
    auto* fc = qobject_cast<FrontierChart*>(chart());
    if (!fc || !requestRunText)
        return {};
    const QPointF at = fc->mapFromScene(mapToScene(viewPos));
    const long long id = fc->runAt(at);
    if (!id) {
        // off the runs, an envelope's stretch says which group it is
        const QString stretch = fc->stretchAt(at);
        return stretch.isEmpty() ? QString() : toolTipHtml(stretch);
    }
    if (id != m_hoveredRun) { // the store is asked once per run hovered, not per mouse move
        m_hoveredRun = id;
        m_hoveredText.clear();
        requestRunText(id);
    }
    return toolTipHtml(m_hoveredText.isEmpty() ? tr("Run %1 (reading…)").arg(id) : m_hoveredText);
}

void FrontierView::setRunText(long long runId, const QString& text)
{
    if (runId != m_hoveredRun)
        return;
    m_hoveredText = text;
    // the tooltip already shows this run while its description was read: the description replaces it
    if (QToolTip::isVisible() && !m_toolTipAt.isNull())
        QToolTip::showText(m_toolTipAt, toolTipHtml(text), viewport());
    emit runTextArrived(runId);
}

bool FrontierView::viewportEvent(QEvent* event)
{
    // Qt's own tooltip event comes a moment after the mouse stops: it shows the run under the pointer, and the hint
    // on how to zoom only where there is none (a widget tooltip would replace the run's after a second)
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString run = runTextAt(help->pos());
        m_toolTipAt = run.isEmpty() ? QPoint() : help->globalPos();
        QToolTip::showText(
            help->globalPos(), run.isEmpty() ? tr("Drag to zoom; right-click or Ctrl+0 to reset") : run, viewport());
        return true;
    }
    return QChartView::viewportEvent(event);
}

void FrontierView::mouseReleaseEvent(QMouseEvent* event)
{
    QChartView::mouseReleaseEvent(event);
    // a rubber band leaves a linear axis at uneven numbers (5,587, 8,521, …): round its ends to tick at round ones
    if (event->button() == Qt::LeftButton && chart())
        for (QAbstractAxis* axis : chart()->axes()) {
            if (auto* v = qobject_cast<QValueAxis*>(axis))
                v->applyNiceNumbers();
            fitLabelFormat(axis);
        }
}

void FrontierView::mouseMoveEvent(QMouseEvent* event)
{
    QChartView::mouseMoveEvent(event);
    const QString run = runTextAt(event->position().toPoint());
    if (!run.isEmpty())
        QToolTip::showText(event->globalPosition().toPoint(), run, viewport());
    else
        QToolTip::hideText();
}

} // namespace paretoscope::ui
