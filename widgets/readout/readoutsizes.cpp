// The readout's room: the height and width its rows and columns need, from one measurement of their content (the
// window's layout asks these), and the columns fitted to it (ReadoutPanel::fitColumns measures).
#include "widgets/readout/readoutpanel.h"

#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QScreen>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <algorithm>

#include "widgets/readout/measuringheader.h"

namespace paretoscope::ui {

int ReadoutPanel::neededHeight(int rows) const
{
    // as laid out where it is (the header's and the note's heights follow their text), else as hinted
    const QMargins margins = layout()->contentsMargins();
    const int spacing = layout()->spacing();
    const QHeaderView* header = m_table->horizontalHeader();
    const int headerHeight = std::max(header->height(), header->sizeHint().height());
    const int table = headerHeight + rows * m_table->verticalHeader()->defaultSectionSize() + 2 * m_table->frameWidth();
    const int form = std::max(m_form->geometry().height(), m_form->sizeHint().height());
    const int note = std::max(m_comparison->height(), m_comparison->minimumHeight());
    return margins.top() + form + spacing + table + spacing + note + margins.bottom();
}

int ReadoutPanel::neededWidth(bool withRatio) const
{
    const auto [without, with] = neededWidths(measureColumns());
    return withRatio ? with : without;
}

std::pair<int, int> ReadoutPanel::neededWidths(const ColumnWidths& need) const
{
    int lastShown = 0;
    for (int c = 0; c < ReadoutModel::ColumnCount; ++c)
        if (!m_table->isColumnHidden(c))
            lastShown = c;
    int columns = 0, ratio = 0;
    for (int c = 0; c < ReadoutModel::ColumnCount; ++c) {
        // the energy columns are shown only where there is room left (fitColumns): they never widen the panel
        if (c == ReadoutModel::TokensPerDollar || c == ReadoutModel::TokensPerMegawatt
            || c == ReadoutModel::AllInJoulesPerToken || c == ReadoutModel::MeasuredJoulesPerToken)
            continue;
        // accuracy counts where the model has evaluations (then it is shown), else it is not there at all
        if (c == ReadoutModel::Accuracy && m_table->isColumnHidden(c))
            continue;
        // the last shown column stretches over what is left, and a hidden one is not laid out: both get a margin
        const int w = need[std::size_t(c)] + (m_table->isColumnHidden(c) || c == lastShown ? 6 : 0);
        (c == ReadoutModel::VsBaseline ? ratio : columns) += w;
    }
    const QMargins margins = layout()->contentsMargins();
    const int around = 2 * m_table->frameWidth() + m_table->verticalScrollBar()->sizeHint().width() + margins.left()
        + margins.right() + 20;
    const int least = layout()->minimumSize().width() + margins.left() + margins.right() + 20;
    return { std::max(columns + around, least), std::max(columns + ratio + around, least) };
}

int ReadoutPanel::widestMinimum() const
{
    // at most 560, and never so wide that the window's minimum outgrows its screen, 1366 px at the least (the
    // smallest the explorer is laid out for): beside the filters and the chart, a scope of long readings (spreads
    // over eight hardware) asked for 560 and made the window 1,411 px wide. At least 420: the table scrolls sideways
    constexpr int kWidest = 560, kNarrowest = 420, kSmallestScreen = 1366;
    const auto* splitter = qobject_cast<const QSplitter*>(parentWidget());
    if (!splitter)
        return kWidest;
    // what the panels beside it need at least, as the splitter counts it (the window's own minimum lags behind a
    // change of this panel's until its layout runs again)
    int others = 0;
    for (int i = 0; i < splitter->count(); ++i) {
        const QWidget* w = splitter->widget(i);
        if (w != this && w->isVisibleTo(splitter))
            others
                += (w->minimumWidth() > 0 ? w->minimumWidth() : w->minimumSizeHint().width()) + splitter->handleWidth();
    }
    const QScreen* shown = screen();
    const int wide = std::max(shown ? shown->availableGeometry().width() : 0, kSmallestScreen);
    return std::clamp(wide - others - 8, kNarrowest, kWidest); // 8: the window's frame and margins
}

void ReadoutPanel::growInSplitter(int width)
{
    // a splitter whose panel's minimum grows takes the room from every other panel alike, and gives it back to each
    // when the minimum shrinks: the filters and the chart's edges moved with each scope and target. Sizes set here
    // are the splitter's own from now on: the panel keeps its width when a later scope needs less. The splitter is
    // the first one across (the readout may sit in a column over other panels): its child that holds the panel grows.
    QWidget* holder = this;
    auto* splitter = qobject_cast<QSplitter*>(parentWidget());
    while (splitter && splitter->orientation() != Qt::Horizontal) {
        holder = splitter;
        splitter = qobject_cast<QSplitter*>(splitter->parentWidget());
    }
    if (!splitter || !isVisible())
        return; // before the window is shown, the window fits its panels (MainWindow::fitPanels)
    QList<int> sizes = splitter->sizes();
    const int self = splitter->indexOf(holder);
    int widest = -1;
    for (int i = 0; i < int(sizes.size()); ++i)
        if (i != self && (widest < 0 || sizes[i] > sizes[widest]))
            widest = i;
    const int more = width - sizes[self];
    if (widest < 0 || more <= 0)
        return;
    sizes[self] += more;
    sizes[widest] -= more;
    splitter->setSizes(sizes);
    // where the chart stopped at its own minimum the splitter took the rest from the others: what it laid out is
    // what it keeps
    splitter->setSizes(splitter->sizes());
}

void ReadoutPanel::fitColumns(bool growOnly)
{
    // every width comes from one measurement of the columns' content: this runs on every slider step, and measuring
    // a column lays out the text of each of its cells
    const ColumnWidths need = measureColumns();
    // where the columns do not fit, the ratio to the baseline goes first: the sentence under the table says it
    // and the panel keeps the room its other columns need, however the splitter is dragged (a new scope may need
    // more than the first)
    const auto [without, with] = neededWidths(need);
    const int widest = widestMinimum();
    const int essential = std::min(without, widest);
    // on a slider step the panel keeps its width (the table scrolls sideways until the slider is let go): a panel
    // that grew pushed the splitter, and the chart beside it was laid out and painted whole again, 40 to 60 ms of a
    // first drag toward the fast end
    if (!growOnly && minimumWidth() != essential) {
        const bool grows = essential > width();
        setMinimumWidth(essential);
        if (grows)
            growInSplitter(essential);
    }
    const auto shownWidth = [&](bool energy) { // what the shown columns take, with or without the energy ones
        int sum = 0;
        for (int c = 0; c < ReadoutModel::ColumnCount; ++c)
            if (!m_table->isColumnHidden(c)
                && (energy || (c != ReadoutModel::AllInJoulesPerToken && c != ReadoutModel::MeasuredJoulesPerToken)))
                sum += need[std::size_t(c)];
        return sum;
    };
    // the columns shown change with the scope, the panel's width or a target typed, never on a slider step: a
    // J/token column that came and went as the slider moved made the table jump (the fit is made again when the
    // slider is let go)
    if (growOnly) {
        resizeSections(need);
        return;
    }
    bool narrow = width() < with;
    if (m_table->isColumnHidden(ReadoutModel::VsBaseline) != narrow)
        m_table->setColumnHidden(ReadoutModel::VsBaseline, narrow);
    // shown, it is measured as it is: where the columns then overflow, it goes after all (the energy columns give
    // way first, fitEnergyColumns: they do not count here)
    if (!narrow && shownWidth(false) > m_table->viewport()->width())
        m_table->setColumnHidden(ReadoutModel::VsBaseline, true);
    fitEnergyColumns(need);
    // measured as laid out: what still overflows goes, the measured column first
    for (int c : { int(ReadoutModel::MeasuredJoulesPerToken), int(ReadoutModel::AllInJoulesPerToken) })
        if (!m_table->isColumnHidden(c) && shownWidth(true) > m_table->viewport()->width())
            m_table->setColumnHidden(c, true);
    resizeSections(need);
}

void ReadoutPanel::resizeSections(const ColumnWidths& need)
{
    // the sizes resizeColumnsToContents would give, set only where they changed (the last column stretches)
    QHeaderView* header = m_table->horizontalHeader();
    for (int c = 0; c < ReadoutModel::ColumnCount; ++c)
        if (!m_table->isColumnHidden(c) && header->sectionSize(c) != need[std::size_t(c)])
            header->resizeSection(c, need[std::size_t(c)]);
}

int ReadoutPanel::energyWidth() const
{
    return columnWidth(ReadoutModel::AllInJoulesPerToken) + 6;
}

void ReadoutPanel::fitEnergyColumns(const ColumnWidths& need)
{
    // J/token where the panel has room for it (the ladder and the chart's y carry it too), measured J/token only
    // where runs carry power; the last column stretches, so a column fits when its content does
    const int room = m_table->viewport()->width();
    int used = 0;
    for (int c = 0; c < ReadoutModel::ColumnCount; ++c)
        if (!m_table->isColumnHidden(c) && c != ReadoutModel::AllInJoulesPerToken
            && c != ReadoutModel::MeasuredJoulesPerToken)
            used += need[std::size_t(c)];
    for (int c : { int(ReadoutModel::AllInJoulesPerToken), int(ReadoutModel::MeasuredJoulesPerToken) }) {
        const bool wanted = c == ReadoutModel::AllInJoulesPerToken || m_model->anyMeasuredEnergy();
        const bool fits = wanted && used + need[std::size_t(c)] <= room;
        if (fits)
            used += need[std::size_t(c)];
        if (m_table->isColumnHidden(c) == fits)
            m_table->setColumnHidden(c, !fits);
    }
}

int ReadoutPanel::columnWidth(int column) const
{
    // what resizeColumnsToContents gives it, shown or hidden: its widest cell or its header (public in the base)
    const QAbstractItemView* view = m_table;
    const auto* header = static_cast<const MeasuringHeader*>(m_table->horizontalHeader()); // set in buildLayout
    return std::max(view->sizeHintForColumn(column), header->titleWidth(column));
}

ReadoutPanel::ColumnWidths ReadoutPanel::measureColumns() const
{
    if (m_measured)
        return *m_measured;
    ColumnWidths need {};
    for (int c = 0; c < ReadoutModel::ColumnCount; ++c)
        need[std::size_t(c)] = columnWidth(c);
    m_measured = need;
    return need;
}

} // namespace paretoscope::ui
