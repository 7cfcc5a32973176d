// The readout's room: the height and width its rows and columns need, from one measurement of their content (the
// window's layout asks these; ReadoutPanel::fitColumns measures).
#include "widgets/readout/readoutpanel.h"

#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QScrollBar>
#include <QTableView>
#include <algorithm>

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

} // namespace paretoscope::ui
