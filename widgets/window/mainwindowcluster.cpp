// Session → Cluster sweep…: the dialog, and the window's side of what it collects (part of MainWindow).
#include "widgets/cluster/clustersweepdialog.h"
#include "widgets/window/mainwindow.h"

namespace paretoscope::ui {

ClusterSweepDialog* MainWindow::openClusterSweep()
{
    if (!m_cluster.dialog) {
        // its collector writes through a connection of its own, as the importer does
        m_cluster.dialog = new ClusterSweepDialog(m_worker.path(), this);
        connect(m_cluster.dialog, &ClusterSweepDialog::runsCollected, this,
            [this](qulonglong, const QString& model, int isl, int osl) { clusterRunsCollected(model, isl, osl); });
    }
    m_cluster.dialog->show();
    m_cluster.dialog->raise();
    m_cluster.dialog->activateWindow();
    return m_cluster.dialog;
}

} // namespace paretoscope::ui
