// How the window paints a new scope: its repaint held a turn after the delivery, the panels first, then the chart's
// data and then its paint, each a turn apart; and its buffer written once before the first expose.
#include <QBackingStore>
#include <QCoreApplication>
#include <QPainter>
#include <QShowEvent>
#include <QSplitter>
#include <QTimer>

#include "widgets/chart/chartpanel.h"
#include "widgets/window/mainwindow.h"

namespace paretoscope::ui {

void MainWindow::paintAfterATurn()
{
    // Qt runs the events posted during a delivery (the scene's update, which sends the window's pending repaint at
    // once) in the very next pass, before the timers and the window system's input of that turn: a new scope's
    // delivery and the full repaint it causes stood as one (20 ms of the GUI thread on a million-run store). So the
    // work is staged a turn apart: the panels painted (presentScope has set them), the new chart built, then put in
    // view (the pages told, scopeShown), then the chart panel painted. A delivery while an earlier one's stages are
    // under way holds them again (their timers stand down; its chart, still due, is the new scope's).
    if (m_layout.paint == Layout::Paint::Held)
        return;
    m_chart->setUpdatesEnabled(false);
    paintStageLater(Layout::Paint::Held);
}

void MainWindow::paintStageLater(Layout::Paint stage)
{
    m_layout.paint = stage;
    QTimer::singleShot(1, Qt::PreciseTimer, this, [this, stage] {
        if (m_layout.paint == stage)
            runPaintStage(stage);
    });
}

void MainWindow::runPaintStage(Layout::Paint stage)
{
    switch (stage) {
    case Layout::Paint::Held: // the panels, painted as the window's update request comes (event())
        m_layout.paint = Layout::Paint::Panels;
        QCoreApplication::postEvent(this, new QEvent(QEvent::UpdateRequest), Qt::LowEventPriority);
        return;
    case Layout::Paint::ChartBuild: // the delivered scope's chart built, out of view (5 ms on the bench's scope)
        if (m_shown.chartDue)
            m_chart->prepare(m_shown.data, m_readout->target(), m_readout->price(), m_shown.chartDue->drawn);
        return paintStageLater(Layout::Paint::ChartData);
    case Layout::Paint::ChartData: // ... and put in view (the view's layout of it, the legend: 5 ms more)
        showDueChart();
        return paintStageLater(Layout::Paint::Chart);
    case Layout::Paint::Chart:
        m_layout.paint = Layout::Paint::None;
        m_chart->setUpdatesEnabled(true); // repaints the chart panel whole: a new scope's chart is new anyway
        return;
    case Layout::Paint::None:
    case Layout::Paint::Panels:
        return;
    }
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    // the window's picture in memory, written once before the event loop runs: the first expose paints the whole
    // window into a buffer the size of the window (8 MB at 1920x1080), and the first write to each of its pages took
    // the kernel a fault; on a virtual machine of two cores that first expose stood 36 to 49 ms, a later full repaint
    // 3 to 7 ms. Written here, the faults are taken while the window is not on screen yet
    QBackingStore* store = backingStore();
    if (event->spontaneous() || !store || m_layout.storeTouched)
        return;
    m_layout.storeTouched = true;
    // the first paint in two: the frame, the filters and the pages' heads first; the Explore page's chart and side
    // panels a turn later (whole, the first paint stood 14 to 17 ms at 1920x1080; in two, 8 and under)
    m_layout.firstPaintHeld = true;
    m_layout.side->setUpdatesEnabled(false);
    m_chart->setUpdatesEnabled(false);
    store->resize(size()); // the size the first paint asks for: the buffer is not made again then
    store->beginPaint(QRegion(rect()));
    if (QPaintDevice* device = store->paintDevice()) {
        QPainter painter(device);
        painter.fillRect(rect(), palette().window());
    }
    store->endPaint();
}

bool MainWindow::event(QEvent* event)
{
    if (event->type() == QEvent::Paint && m_layout.firstPaintHeld) {
        // the window's own paint comes first in its first paint: the held panels a turn after that paint
        m_layout.firstPaintHeld = false;
        QTimer::singleShot(1, Qt::PreciseTimer, this, [this] {
            m_layout.side->setUpdatesEnabled(true);
            if (m_layout.paint == Layout::Paint::None) // else a delivery's stages enable it
                m_chart->setUpdatesEnabled(true);
        });
    }
    if (event->type() != QEvent::UpdateRequest
        || (m_layout.paint != Layout::Paint::Held && m_layout.paint != Layout::Paint::Panels))
        return QMainWindow::event(event);
    if (m_layout.paint == Layout::Paint::Held)
        return true; // the dirty regions stay with the window's repaint manager for the request posted a turn later
    const bool done = QMainWindow::event(event); // the panels
    paintStageLater(Layout::Paint::ChartBuild);
    return done;
}

} // namespace paretoscope::ui
