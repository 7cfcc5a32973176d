#include "widgets/storejobs/storeworker.h"

#include <QMetaObject>

#include "widgets/common/threadpriority.h"

namespace paretoscope::ui {

namespace {

// Lives in the worker's thread and holds its connection, opened at the first job when only a path was given.
class WorkerContext : public QObject {
public:
    WorkerContext(std::unique_ptr<RunStore> store, std::string path, StoreAccess access)
        : m_store(std::move(store))
        , m_path(std::move(path))
        , m_access(access)
    {
    }
    RunStore* store(std::string& error)
    {
        if (!m_store && m_openError.empty()) {
            auto s = RunStore::open(m_path, m_access);
            if (s)
                m_store = std::move(*s);
            else
                m_openError = s.error();
        }
        error = m_openError;
        return m_store.get();
    }

private:
    std::unique_ptr<RunStore> m_store;
    std::string m_path;
    StoreAccess m_access;
    std::string m_openError;
};

} // namespace

bool StoreWorker::Latest::isLatest(const QString& kind, quint64 id) const
{
    if (kind.isEmpty())
        return true;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = ids.find(kind);
    return it == ids.end() || it->second == id;
}

StoreWorker::StoreWorker(std::unique_ptr<RunStore> store, QObject* parent)
    : QObject(parent)
    , m_path(QString::fromStdString(store->path()))
    , m_context(new WorkerContext(std::move(store), {}, StoreAccess::ReadWrite))
{
    startThread();
}

StoreWorker::StoreWorker(QString path, StoreAccess access, QObject* parent)
    : QObject(parent)
    , m_path(std::move(path))
    , m_context(new WorkerContext(nullptr, m_path.toStdString(), access))
{
    startThread();
}

void StoreWorker::startThread()
{
    m_thread.setObjectName(QStringLiteral("store worker"));
    m_context->moveToThread(&m_thread);
    // reads for the window wait on it, but its paint should not: see runBehindTheGui
    connect(&m_thread, &QThread::started, &runBehindTheGui);
    m_thread.start();
}

StoreWorker::~StoreWorker()
{
    m_thread.quit();
    m_thread.wait();
    // the thread has ended: its jobs not started go with the context, the connection is closed here
    delete m_context;
}

bool StoreWorker::isLatest(const QString& kind, quint64 id) const
{
    return m_latest->isLatest(kind, id);
}

void StoreWorker::supersede(const QString& kind)
{
    std::lock_guard<std::mutex> lock(m_latest->mutex);
    m_latest->ids[kind] = ++m_nextId; // an id no job carries
}

quint64 StoreWorker::postJob(const QString& kind, QObject* receiver, Job job)
{
    const quint64 id = ++m_nextId;
    if (!kind.isEmpty()) {
        std::lock_guard<std::mutex> lock(m_latest->mutex);
        m_latest->ids[kind] = id;
    }
    ++m_pending;
    auto* context = static_cast<WorkerContext*>(m_context);
    QMetaObject::invokeMethod(
        context,
        [this, context, latest = m_latest, kind, id, job = std::move(job), to = QPointer<QObject>(receiver)] {
            std::function<void()> deliver;
            // a newer job of this kind is queued already: skip the work, its answer would be dropped anyway
            if (latest->isLatest(kind, id)) {
                std::string error;
                RunStore* store = context->store(error);
                deliver = job(store, error);
            }
            // this object outlives the thread (its destructor waits for it), so it can always be called back
            QMetaObject::invokeMethod(
                this,
                [this, latest, kind, id, to, deliver = std::move(deliver)] {
                    if (deliver && to && latest->isLatest(kind, id))
                        deliver();
                    if (--m_pending == 0)
                        emit idle();
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
    return id;
}

} // namespace paretoscope::ui
