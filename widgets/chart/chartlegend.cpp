#include "widgets/chart/chartlegend.h"

#include <QPainter>
#include <QPixmap>
#include <QResizeEvent>
#include <QScopedValueRollback>
#include <QScrollBar>
#include <optional>

#include "widgets/common/groupstyle.h"

namespace paretoscope::ui {

namespace {

enum Role { KindRole = Qt::UserRole + 1, IndexRole, StateRole };
enum Kind { Group, SpeedOfLight };

// A swatch drawn as the line is: its colour, its dash, and for a group its engine's marker on the knots.
QIcon swatch(const QPen& linePen, std::optional<MarkerShape> knots, bool hollow = false)
{
    const qreal dpr = 2; // sharp on high-density screens, and its shape still readable on others
    QPixmap pm(QSize(26, 12) * dpr);
    pm.setDevicePixelRatio(dpr);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    QPen pen = linePen;
    pen.setWidthF(std::min(pen.widthF(), 2.4));
    p.setPen(pen);
    p.drawLine(QPointF(1, 6), QPointF(25, 6));
    if (knots)
        drawMarker(p, QPointF(13, 6), *knots, 8.5, pen.color(), hollow);
    return QIcon(pm);
}

} // namespace

ChartLegend::ChartLegend(QWidget* parent)
    : QListWidget(parent)
{
    // entries left to right in columns of one width, wrapped into rows at the list's width
    setFlow(QListView::LeftToRight);
    setWrapping(true);
    setResizeMode(QListView::Adjust);
    setWordWrap(false);
    setTextElideMode(Qt::ElideRight);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setSelectionMode(QAbstractItemView::NoSelection);
    setFocusPolicy(Qt::NoFocus);
    setIconSize(QSize(26, 12));
    setFrameShape(QFrame::NoFrame);
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    setFont(small);
    setToolTip(tr("Tick or untick a group to show or hide it"));
    connect(this, &QListWidget::itemChanged, this, &ChartLegend::entryChanged);
    // a click anywhere on an entry toggles it, its box included: the entries are not user-checkable, so the box
    // does not toggle it a second time
    connect(this, &QListWidget::itemClicked, this, [](QListWidgetItem* item) {
        item->setCheckState(item->checkState() == Qt::Checked ? Qt::Unchecked : Qt::Checked);
    });
}

QSize ChartLegend::sizeHint() const
{
    return QSize(400, height());
}

int ChartLegend::columnWidth() const
{
    int widest = 0;
    for (int r = 0; r < count(); ++r)
        widest = std::max(widest, fontMetrics().horizontalAdvance(item(r)->text()));
    // the check box, the swatch and the gaps; a name longer than a column is cut (its whole text in the tooltip)
    return std::clamp(widest + iconSize().width() + 64, 120, 340);
}

void ChartLegend::fitHeight(int maxRows)
{
    m_maxRows = std::max(maxRows, 1);
    const int rowHeight = std::max(fontMetrics().height(), iconSize().height()) + 8;
    const int column = columnWidth();
    setGridSize(QSize(column, rowHeight));
    for (int r = 0; r < count(); ++r) // each entry the cell's width: its text is cut only past the column's
        if (item(r)->sizeHint() != QSize(column - 2, rowHeight))
            item(r)->setSizeHint(QSize(column - 2, rowHeight));
    const int room = std::max(width() - 2 * frameWidth() - verticalScrollBar()->sizeHint().width(), column);
    const int columns = std::max(room / column, 1);
    const int rows = std::max((count() + columns - 1) / columns, 1);
    const int h = std::min(rows, m_maxRows) * rowHeight + 2 * frameWidth() + 2;
    if (h != height())
        setFixedHeight(h);
}

void ChartLegend::forgetStates()
{
    for (int r = 0; r < count(); ++r)
        item(r)->setData(StateRole, QVariant());
}

void ChartLegend::resizeEvent(QResizeEvent* event)
{
    QListWidget::resizeEvent(event);
    if (event->size().width() != event->oldSize().width())
        fitHeight(m_maxRows); // only the height changes: no second round
}

void ChartLegend::setChart(FrontierChart* chart)
{
    m_chart = chart;
    const QSignalBlocker block(this);
    // a scope shown again after an import, a deletion or a live level has the same groups and bounds: the entries
    // stay (their states are read back below), so the list is neither laid out nor painted again with the new chart
    if (chart && sameEntries(*chart)) {
        connect(chart, &FrontierChart::groupToggled, this, &ChartLegend::sync, Qt::UniqueConnection);
        sync();
        return;
    }
    clear();
    if (!chart)
        return;
    for (std::size_t i = 0; i < chart->groupCount(); ++i) {
        if (!chart->groupChosen(i))
            continue; // not drawn in this choice (one group per hardware): not listed
        auto* item = new QListWidgetItem(chart->groupName(i), this);
        item->setToolTip(chart->groupName(i));
        item->setData(KindRole, Group);
        item->setData(IndexRole, qulonglong(i));
        item->setFlags(Qt::ItemIsEnabled);
    }
    for (std::size_t i = 0; i < chart->speedOfLightCount(); ++i) {
        auto* item = new QListWidgetItem(chart->speedOfLightName(i), this);
        item->setData(KindRole, SpeedOfLight);
        item->setData(IndexRole, qulonglong(i));
        item->setFlags(Qt::ItemIsEnabled);
        item->setIcon(swatch(chart->speedOfLightPen(i), std::nullopt));
    }
    connect(chart, &FrontierChart::groupToggled, this, &ChartLegend::sync, Qt::UniqueConnection);
    sync();
    fitHeight(m_maxRows);
}

bool ChartLegend::sameEntries(const FrontierChart& chart) const
{
    QStringList names;
    for (std::size_t i = 0; i < chart.groupCount(); ++i)
        if (chart.groupChosen(i))
            names << chart.groupName(i);
    for (std::size_t i = 0; i < chart.speedOfLightCount(); ++i)
        names << chart.speedOfLightName(i);
    if (names.size() != count())
        return false;
    for (int r = 0; r < count(); ++r)
        if (item(r)->text() != names[r])
            return false;
    return true;
}

void ChartLegend::sync()
{
    if (!m_chart)
        return;
    const QScopedValueRollback<bool> guard(m_syncing, true);
    const QSignalBlocker block(this);
    for (int r = 0; r < count(); ++r) {
        QListWidgetItem* it = item(r);
        const auto i = std::size_t(it->data(IndexRole).toULongLong());
        if (it->data(KindRole).toInt() == SpeedOfLight) {
            const bool on = m_chart->speedOfLightVisible(i);
            it->setCheckState(on ? Qt::Checked : Qt::Unchecked);
            it->setForeground(on ? palette().color(QPalette::Text) : QColor(150, 150, 150));
            continue;
        }
        const bool on = m_chart->groupVisible(i), covers = m_chart->groupCovers(i);
        // a slider step changes few entries: an entry is redrawn only when its state changed
        const int state = 1 + int(on) + 2 * int(covers);
        if (it->data(StateRole).toInt() == state)
            continue;
        it->setData(StateRole, state);
        it->setCheckState(on ? Qt::Checked : Qt::Unchecked);
        it->setForeground(!on ? QColor(150, 150, 150)
                : covers      ? palette().color(QPalette::Text)
                              : QColor(120, 120, 120));
        QColor c = m_chart->groupColour(i);
        if (!covers)
            c.setAlpha(110);
        QPen pen = m_chart->groupPen(i);
        pen.setColor(on ? c : QColor(205, 205, 205));
        it->setIcon(swatch(pen, m_chart->groupShape(i), m_chart->groupHollow(i)));
        const QString accuracy = m_chart->groupAccuracy(i); // the accuracy that comes with the group, if evaluated
        it->setToolTip((covers ? it->text() : tr("%1: does not reach the target (drawn faint)").arg(it->text()))
            + (accuracy.isEmpty() ? QString() : u'\n' + accuracy));
    }
}

void ChartLegend::entryChanged(QListWidgetItem* item)
{
    if (m_syncing || !m_chart)
        return;
    const bool on = item->checkState() == Qt::Checked;
    const auto i = std::size_t(item->data(IndexRole).toULongLong());
    if (item->data(KindRole).toInt() == SpeedOfLight)
        m_chart->setSpeedOfLightVisible(i, on);
    else
        m_chart->toggleGroup(i, on); // the chart says so, and sync() reads it back
    sync();
}

} // namespace paretoscope::ui
