#include "widgets/cluster/clustercontroller.h"

namespace paretoscope::ui {

namespace {

bool anyToCollect(const ArrayStatus& st)
{
    for (const TaskStatus& t : st.tasks)
        if (t.state == "finished" && !t.collected)
            return true;
    return false;
}

} // namespace

ClusterController::ClusterController(QString storePath, QObject* parent)
    : WriterController(std::move(storePath), QStringLiteral("cluster"), Share::BehindTheGui, parent)
{
}

ClusterController::~ClusterController()
{
    stop();
}

void ClusterController::poll(const QString& dir, bool collect)
{
    runJob([this, dir, collect]() -> std::function<void()> {
        return [this, out = pass(dir, collect)] { emit polled(out); };
    });
}

ClusterPoll ClusterController::pass(const QString& dir, bool collect)
{
    ClusterPoll out;
    out.dir = dir;
    // squeue and sacct run here, never on the GUI thread
    auto st = arrayStatus(dir.toStdString(), storePath().toStdString());
    if (!st) {
        out.error = QString::fromStdString(st.error());
        return out;
    }
    out.status = std::move(*st);
    if (!collect || !anyToCollect(out.status))
        return out;
    if (auto store = openForWriting())
        out.collected = collectFinished(**store, dir.toStdString(), out.status);
    else
        out.error = QString::fromStdString(store.error());
    return out;
}

} // namespace paretoscope::ui
