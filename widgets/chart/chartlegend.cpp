#include "widgets/chart/chartlegend.h"

#include <QPainter>
#include <QPixmap>
#include <QScopedValueRollback>
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
    setWordWrap(true);
    setTextElideMode(Qt::ElideNone);
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
    return QSize(205, 200);
}

int ChartLegend::contentWidth() const
{
    int widest = 0;
    for (int r = 0; r < count(); ++r)
        widest = std::max(widest, fontMetrics().horizontalAdvance(item(r)->text()));
    // the check box, the swatch, the gaps and a scroll bar
    return widest + iconSize().width() + 60;
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
        auto* item = new QListWidgetItem(chart->groupName(i), this);
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
}

bool ChartLegend::sameEntries(const FrontierChart& chart) const
{
    const std::size_t groups = chart.groupCount(), bounds = chart.speedOfLightCount();
    if (std::size_t(count()) != groups + bounds)
        return false;
    for (int r = 0; r < count(); ++r) {
        const bool group = std::size_t(r) < groups;
        const std::size_t i = group ? std::size_t(r) : std::size_t(r) - groups;
        if (item(r)->text() != (group ? chart.groupName(i) : chart.speedOfLightName(i)))
            return false;
    }
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
        it->setToolTip(covers ? QString() : tr("Does not reach the target (drawn faint)"));
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
