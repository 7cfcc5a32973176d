// File → Update from InferenceX…: the sync dialog and the look for new data at start (docs/sync.md).
#include <QLabel>

#include "widgets/imports/synccontroller.h"
#include "widgets/imports/syncdialog.h"
#include "widgets/window/mainwindow.h"

namespace paretoscope::ui {

SyncController& MainWindow::syncController()
{
    if (!m_sync.controller) {
        // it writes through a connection of its own, as the importer does
        m_sync.controller = new SyncController(m_worker.path(), this);
        connect(m_sync.controller, &SyncController::planned, this, &MainWindow::noteWriteStarting);
        connect(m_sync.controller, &SyncController::checked, this, [this](int items) {
            if (items > 0)
                showStatus(tr("InferenceX has newer runs than this store (%1): File → Update from InferenceX… brings "
                              "them.")
                               .arg(items == 1 ? tr("1 request") : tr("%1 requests").arg(items)));
        });
    }
    return *m_sync.controller;
}

SyncDialog* MainWindow::openSync()
{
    if (!m_sync.dialog) {
        m_sync.dialog = new SyncDialog(syncController(), this);
        connect(m_sync.dialog, &SyncDialog::storeChanged, this, [this] {
            m_store.announceImport = true; // the first new scope comes into view, and the status line says so
            refreshScopes();
        });
    }
    m_sync.dialog->show();
    m_sync.dialog->raise();
    m_sync.dialog->activateWindow();
    return m_sync.dialog;
}

void MainWindow::checkForNewData()
{
    if (SyncDialog::checkOnStart())
        syncController().check(SyncDialog::keptOptions());
}

} // namespace paretoscope::ui
