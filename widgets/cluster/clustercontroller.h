#pragma once

#include <QString>
#include <vector>

#include "core/live/cluster.h"
#include "widgets/storejobs/writercontroller.h"

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
/// Cancel makes a collect waiting for another writer give up (its task is collected at a later pass).
class ClusterController : public WriterController {
    Q_OBJECT
public:
    explicit ClusterController(QString storePath, QObject* parent = nullptr);
    ~ClusterController() override; ///< gives up a collect waiting for another writer, and waits for the pass
    /// One pass over the array at dir; polled follows on the GUI thread. collect false only reads the state.
    void poll(const QString& dir, bool collect);

signals:
    void polled(const paretoscope::ui::ClusterPoll& poll);

private:
    ClusterPoll pass(const QString& dir, bool collect);
};

} // namespace paretoscope::ui

Q_DECLARE_METATYPE(paretoscope::ui::ClusterPoll)
