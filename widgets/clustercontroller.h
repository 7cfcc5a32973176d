#pragma once

#include <QObject>
#include <QString>
#include <QThread>
#include <atomic>
#include <vector>

#include "core/live/cluster.h"

namespace paretoscope::ui {

/// One look at an array (core's arrayStatus) and what was collected from it in that pass (core's collectFinished).
struct ClusterPoll {
    QString dir;
    ArrayStatus status; ///< collected flags as they are after this pass
    std::vector<Collected> collected; ///< the tasks imported in this pass (an error per task where one failed)
    QString error; ///< the array cannot be read (not a folder of --emit-sbatch), or the store cannot be opened
};

/// Follows a Slurm array off the GUI thread: reads the tasks' status files and asks squeue and sacct (which may
/// take seconds on a busy controller), then imports each finished task not yet collected through a store
/// connection of its own, as the importer does. Collecting is `paretoscope-cli cluster collect`: the record in
/// DIR/collected keeps a task from being imported twice, by the CLI or by the explorer.
class ClusterController : public QObject {
    Q_OBJECT
public:
    explicit ClusterController(QString storePath, QObject* parent = nullptr);
    ~ClusterController() override; ///< gives up a collect waiting for another writer, and waits for the pass
    const QString& storePath() const { return m_path; }
    bool busy() const { return m_busy; }
    /// One pass over the array at dir; polled follows on the GUI thread. collect false only reads the state.
    void poll(const QString& dir, bool collect);
    /// A collect waiting for another writer of the store gives up (its task is collected at a later pass).
    void cancel() { m_cancel = true; }

signals:
    /// The store is held by another writer (a live session's level, an import): who, and how long.
    void waiting(const QString& message);
    void polled(const paretoscope::ui::ClusterPoll& poll);

private:
    QString m_path;
    QThread m_thread;
    QObject* m_worker;
    std::atomic<bool> m_cancel { false };
    bool m_busy = false;
};

} // namespace paretoscope::ui

Q_DECLARE_METATYPE(paretoscope::ui::ClusterPoll)
