// Session → Cluster sweep…: the dialog, and the window's side of what it collects (part of MainWindow).
#include "widgets/cluster/clustersweepdialog.h"
#include "widgets/window/mainwindow.h"

namespace paretoscope::ui {

ClusterSweepDialog* MainWindow::openClusterSweep()
{
    if (!m_clusterSweep) {
        // its collector writes through a connection of its own, as the importer does
        m_clusterSweep = new ClusterSweepDialog(m_worker.path(), this);
        connect(m_clusterSweep, &ClusterSweepDialog::runsCollected, this,
            [this](qulonglong, const QString& model, int isl, int osl) { clusterRunsCollected(model, isl, osl); });
    }
    m_clusterSweep->show();
    m_clusterSweep->raise();
    m_clusterSweep->activateWindow();
    return m_clusterSweep;
}

} // namespace paretoscope::ui
