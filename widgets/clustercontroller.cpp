#include "clustercontroller.h"

#include <QMetaObject>

#include "core/store/runstore.h"

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
    : QObject(parent)
    , m_path(std::move(storePath))
    , m_worker(new QObject)
{
    m_thread.setObjectName(QStringLiteral("cluster"));
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
}

ClusterController::~ClusterController()
{
    m_cancel = true;
    m_thread.quit();
    m_thread.wait();
}

void ClusterController::poll(const QString& dir, bool collect)
{
    m_busy = true;
    m_cancel = false;
    QMetaObject::invokeMethod(
        m_worker,
        [this, dir, collect] {
            ClusterPoll out;
            out.dir = dir;
            const std::string storePath = m_path.toStdString();
            // squeue and sacct run here, never on the GUI thread
            auto st = arrayStatus(dir.toStdString(), storePath);
            if (!st) {
                out.error = QString::fromStdString(st.error());
            } else {
                out.status = std::move(*st);
                if (collect && anyToCollect(out.status)) {
                    auto store = RunStore::open(storePath);
                    if (!store) {
                        out.error = QString::fromStdString(store.error());
                    } else {
                        (*store)->setWaitFn(
                            [this](const std::string& message, double) {
                                QMetaObject::invokeMethod(
                                    this, [this, m = QString::fromStdString(message)] { emit waiting(m); },
                                    Qt::QueuedConnection);
                                return true;
                            },
                            [this] { return !m_cancel.load(); });
                        out.collected = collectFinished(**store, dir.toStdString(), out.status);
                    }
                }
            }
            QMetaObject::invokeMethod(
                this,
                [this, out = std::move(out)] {
                    m_busy = false;
                    emit polled(out);
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

} // namespace paretoscope::ui
