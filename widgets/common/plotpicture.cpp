#include "widgets/common/plotpicture.h"

#include <QLogValueAxis>
#include <QPainter>
#include <QThreadPool>
#include <QValueAxis>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>

#include "widgets/common/threadpriority.h"

namespace paretoscope::ui {

double AxisMap::place(double v) const
{
    double t;
    if (log) {
        if (!(v > 0) || !(lo > 0) || !(hi > lo))
            return std::nan("");
        t = (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo));
    } else {
        if (!(hi > lo))
            return std::nan("");
        t = (v - lo) / (hi - lo);
    }
    return (flip ? 1 - t : t) * pixels;
}

namespace {

AxisMap axisMap(const QAbstractAxis* axis, double pixels)
{
    AxisMap m;
    m.pixels = pixels;
    m.flip = axis->orientation() == Qt::Vertical;
    if (auto* v = qobject_cast<const QValueAxis*>(axis)) {
        m.lo = v->min();
        m.hi = v->max();
    } else if (auto* l = qobject_cast<const QLogValueAxis*>(axis)) {
        m.lo = l->min();
        m.hi = l->max();
        m.log = true;
    }
    return m;
}

// The pictures' own pool: its threads run behind the GUI thread for good, so they are not Qt's global pool, which
// Qt's own image conversions and scaling use with the GUI thread waiting on them
QThreadPool& drawingPool()
{
    static QThreadPool pool;
    return pool;
}

// What an export draws its pictures at: at least 2x, for 2x exports through a scaled painter.
qreal exportRatio(qreal dpr)
{
    return std::max<qreal>(2.0, dpr);
}

} // namespace

PlotPicture::PlotPicture(QChart* chart, QAbstractSeries* anchor, qreal margin, bool keepShown)
    : QGraphicsObject(chart)
    , m_chart(chart)
    , m_anchor(anchor)
    , m_margin(margin)
    , m_keepShown(keepShown)
{
    m_bounds = boundsFor(chart->plotArea());
    connect(chart, &QChart::plotAreaChanged, this, &PlotPicture::invalidate);
    connect(&m_watcher, &QFutureWatcher<std::pair<Drawn, quint64>>::finished, this, [this] {
        m_drawing = 0;
        auto [drawn, generation] = m_watcher.future().takeResult();
        adopt(std::move(drawn), generation);
    });
}

void PlotPicture::invalidate()
{
    m_dirty = true;
    ++m_generation;
    m_placedGeneration = m_generation; // a picture drawn before stands in the wrong place from now on
    prepareGeometryChange();
    m_bounds = boundsFor(m_chart->plotArea());
    update();
}

void PlotPicture::redraw()
{
    m_dirty = true;
    ++m_generation;
    update();
}

PlotPicture::Frame PlotPicture::frame(qreal dpr) const
{
    Frame f;
    const QRectF area = m_chart->plotArea();
    f.topLeft = area.topLeft();
    f.size = area.size();
    for (const QAbstractAxis* axis : m_anchor->attachedAxes()) {
        if (axis->orientation() == Qt::Horizontal)
            f.x = axisMap(axis, area.width());
        else
            f.y = axisMap(axis, area.height());
    }
    f.dpr = dpr;
    f.offset = f.topLeft - QPointF(m_margin, m_margin) - origin(f.topLeft, dpr);
    return f;
}

QPointF PlotPicture::origin(QPointF topLeft, qreal dpr) const
{
    const QPointF at = topLeft - QPointF(m_margin, m_margin);
    return QPointF(std::floor(at.x() * dpr) / dpr, std::floor(at.y() * dpr) / dpr);
}

QRectF PlotPicture::boundsFor(const QRectF& plot) const
{
    // the margin, and the device pixel the picture's copy may start before it and end after it (origin)
    const qreal reach = m_margin + 1;
    return plot.adjusted(-reach, -reach, reach, reach);
}

QSize PlotPicture::imageSize(QSizeF plot, qreal margin, qreal dpr)
{
    // a device pixel more each way: the plot's top left lies up to one past the image's
    return QSize(
        int(std::ceil((plot.width() + 2 * margin) * dpr)) + 1, int(std::ceil((plot.height() + 2 * margin) * dpr)) + 1);
}

QImage PlotPicture::image(const Frame& frame, qreal margin, const std::function<void(QPainter&)>& fill)
{
    QImage out(imageSize(frame.size, margin, frame.dpr), QImage::Format_ARGB32_Premultiplied);
    out.setDevicePixelRatio(frame.dpr);
    out.fill(Qt::transparent);
    QPainter painter(&out);
    painter.translate(QPointF(margin, margin) + frame.offset);
    fill(painter);
    return out;
}

void PlotPicture::adopt(Drawn drawn, quint64 generation)
{
    if (generation != m_generation)
        return; // the content, plot or axes moved on while it was drawn: the next paint asks again
    m_drawn = std::move(drawn);
    m_drawnPlaced = m_placedGeneration;
    m_dirty = false;
    update();
    emit pictureArrived();
}

void PlotPicture::paintNow(QPainter& painter, const Frame& frame)
{
    adopt(drawer()(frame), m_generation);
    painter.drawImage(origin(frame.topLeft, frame.dpr), m_drawn.image);
}

void PlotPicture::paintMoved(QPainter&, const Frame&) { }

std::function<PlotPicture::Drawn()> PlotPicture::exportDrawing(qreal dpr)
{
    m_aheadGeneration = m_generation; // what it draws: a picture handed back after a change of plot is not used
    return [draw = drawer(), f = frame(exportRatio(dpr))] { return draw(f); };
}

QFuture<PlotPicture::Drawn> PlotPicture::drawAhead(std::function<Drawn()> drawing)
{
    return QtConcurrent::run(&drawingPool(), [drawing = std::move(drawing)] {
        runBehindTheGui();
        return drawing();
    });
}

void PlotPicture::takeExportPicture(Drawn drawn, qreal dpr)
{
    m_ahead = std::move(drawn);
    m_aheadDpr = exportRatio(dpr);
}

void PlotPicture::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    QPaintDevice* device = painter->device();
    if (!device || device->devType() != QInternal::Widget) {
        // an export, a grab or a print: the picture now, as the rest of the chart is drawn
        const Frame f = frame(exportRatio(device ? device->devicePixelRatioF() : 1.0));
        if (m_ahead && m_aheadDpr == f.dpr && m_aheadGeneration == m_generation) {
            // drawn ahead off the GUI thread for this export (exportDrawing): copied, as paintNow would draw it
            adopt(std::move(*m_ahead), m_generation);
            m_ahead.reset();
            painter->drawImage(origin(f.topLeft, f.dpr), m_drawn.image);
            return;
        }
        paintNow(*painter, f);
        return;
    }
    const qreal dpr = device->devicePixelRatioF();
    const QRectF area = m_chart->plotArea();
    const QSize wanted = imageSize(area.size(), m_margin, dpr);
    if (m_drawn.image.size() != wanted)
        m_dirty = true;
    if (m_dirty && m_drawing != m_generation) {
        m_drawing = m_generation;
        m_watcher.setFuture(
            QtConcurrent::run(&drawingPool(), [draw = drawer(), f = frame(dpr), generation = m_generation] {
                runBehindTheGui(); // the plot's other items paint meanwhile
                return std::make_pair(draw(f), generation);
            }));
    }
    // new content: the picture in hand stays until the new one arrives where the owner asks so; one of other axes or
    // another plot would stand in the wrong place
    const bool placed = m_drawn.image.size() == wanted && m_drawnPlaced == m_placedGeneration;
    if (!m_drawn.image.isNull() && placed && (!m_dirty || m_keepShown))
        painter->drawImage(origin(area.topLeft(), dpr), m_drawn.image);
    else if (!m_drawn.image.isNull() && !placed)
        paintMoved(*painter, frame(dpr));
}

} // namespace paretoscope::ui
