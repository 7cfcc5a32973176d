#pragma once

#include <QObject>
#include <QString>
#include <QThread>
#include <atomic>
#include <functional>
#include <memory>

#include "core/store/runstore.h"

namespace paretoscope::ui {

/// The skeleton of the explorer's long writers of the store (imports, live sessions, cluster collections): a thread of
/// their own, one job at a time, a store connection opened for the job that waits its turn behind another writer and
/// says so (waiting), Cancel, and the answer handed back on the GUI thread by a queued call. Reads go through
/// StoreWorker instead; a writer holds its own connection so that the window keeps showing the store meanwhile.
class WriterController : public QObject {
    Q_OBJECT
public:
    ~WriterController() override; ///< cancels the job that runs and waits for it
    const QString& storePath() const { return m_path; }
    bool busy() const { return m_busy; }
    /// The job stops at its next check (a source is rolled back, a session stops its engine, a collect gives up).
    void cancel() { m_cancel = true; }

signals:
    /// The job waits for another writer of the store (a live session's level, another import): who, and how long.
    void waiting(const QString& message);

protected:
    /// How the writer's thread shares the CPU with the GUI thread.
    enum class Share {
        Full, ///< as much as the GUI thread: a live session's clients time the server
        BehindTheGui, ///< less (runBehindTheGui): an import or a collection, which nobody watches frame by frame
    };
    WriterController(QString storePath, const QString& threadName, Share share, QObject* parent);
    /// Runs job on the writer's thread; busy() until the answer it returns has run on the GUI thread.
    void runJob(std::function<std::function<void()>()> job);
    /// From the writer's thread: runs fn on the GUI thread (dropped if the controller is gone by then).
    void toGui(std::function<void()> fn);
    /// From the writer's thread: a connection of the job's own, whose writes wait behind another writer (emitting
    /// waiting) until that one is done or the job is cancelled.
    Result<std::unique_ptr<RunStore>> openForWriting();
    bool cancelled() const { return m_cancel.load(); }
    /// Cancels and waits for the thread: called by a subclass's destructor, before its own members go.
    void stop();

private:
    QString m_path;
    QThread m_thread;
    QObject* m_worker;
    std::atomic<bool> m_cancel { false };
    bool m_busy = false;
};

} // namespace paretoscope::ui
