// The History tab's part of the window: what it follows, and its export.
#include "widgets/window/mainwindow.h"

#include "widgets/chart/chartexport.h"

namespace paretoscope::ui {

// The History tab follows the readout's target, price and sparse readings, and compares at the ladder's targets.
void MainWindow::connectHistory()
{
    m_history->setTarget(m_readout->target());
    m_history->setPrice(m_readout->price());
    m_history->setHideSparse(m_readout->hideSparse());
    m_history->setTargets(m_ladder->targets());
    connect(m_readout, &ReadoutPanel::targetChanged, m_history, &HistoryPanel::setTarget);
    connect(m_readout, &ReadoutPanel::priceChanged, this, [this] { m_history->setPrice(m_readout->price()); });
    connect(m_readout, &ReadoutPanel::hideSparseChanged, m_history, &HistoryPanel::setHideSparse);
    connect(m_ladder, &LadderPanel::targetsChanged, m_history, &HistoryPanel::setTargets);
    connect(m_history, &HistoryPanel::exportRequested, this, [this] { askExportCsv(3); });
}

Status MainWindow::exportHistoryCsv(const QString& path) const
{
    auto csv = m_history->csv();
    if (!csv)
        return Error { csv.error() };
    return writeTextFile(path, *csv);
}

} // namespace paretoscope::ui
