// How the window paints a new scope: its repaint held a turn after the delivery, the panels first, then the chart
// panel; and its buffer written once before the first expose.
#include <QBackingStore>
#include <QCoreApplication>
#include <QPainter>
#include <QShowEvent>
#include <QTimer>

#include "widgets/chart/chartpanel.h"
#include "widgets/window/mainwindow.h"

namespace paretoscope::ui {

void MainWindow::paintAfterATurn()
{
    // Qt runs the events posted during a delivery (the scene's update, which sends the window's pending repaint at
    // once) in the very next pass, before the timers and the window system's input of that turn: a new scope's
    // delivery and the full repaint it causes stood as one (about 9 ms of CPU each on a million-run store). So the
    // repaint is held: the panels are painted a turn after the delivery, the chart panel a turn after them. A
    // delivery while an earlier one's paints are under way holds them again (its own timers then stand down).
    if (m_layout.paint == Layout::Paint::Held)
        return;
    m_layout.paint = Layout::Paint::Held;
    m_chart->setUpdatesEnabled(false);
    QTimer::singleShot(1, Qt::PreciseTimer, this, [this] {
        if (m_layout.paint != Layout::Paint::Held)
            return;
        m_layout.paint = Layout::Paint::Panels;
        QCoreApplication::postEvent(this, new QEvent(QEvent::UpdateRequest), Qt::LowEventPriority);
    });
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
    if (event->type() != QEvent::UpdateRequest || m_layout.paint == Layout::Paint::None
        || m_layout.paint == Layout::Paint::Chart)
        return QMainWindow::event(event);
    if (m_layout.paint == Layout::Paint::Held)
        return true; // the dirty regions stay with the window's repaint manager for the request posted a turn later
    const bool done = QMainWindow::event(event); // the panels
    m_layout.paint = Layout::Paint::Chart;
    QTimer::singleShot(1, Qt::PreciseTimer, this, [this] {
        if (m_layout.paint != Layout::Paint::Chart)
            return;
        m_layout.paint = Layout::Paint::None;
        m_chart->setUpdatesEnabled(true); // repaints the chart panel whole: a new scope's chart is new anyway
    });
    return done;
}

} // namespace paretoscope::ui
