#include "scopeloader.h"

#include "core/analysis/pricing.h"
#include "core/store/runstore.h"

namespace paretoscope::ui {

namespace {

class LoaderWorker : public QObject {
public:
    explicit LoaderWorker(QString path)
        : m_path(std::move(path))
    {
    }
    Result<RunStore*> store()
    {
        if (!m_store) {
            auto s = RunStore::open(m_path.toStdString(), StoreAccess::ReadOnly);
            if (!s)
                return Error { s.error() };
            m_store = std::move(*s);
        }
        return m_store.get();
    }

private:
    QString m_path;
    std::unique_ptr<RunStore> m_store;
};

} // namespace

ScopeLoader::ScopeLoader(QString storePath, QObject* parent)
    : QObject(parent)
    , m_path(std::move(storePath))
    , m_worker(new LoaderWorker(m_path))
{
    m_thread.setObjectName(QStringLiteral("scope loader"));
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.start();
}

ScopeLoader::~ScopeLoader()
{
    m_thread.quit();
    m_thread.wait();
}

quint64 ScopeLoader::request(const Scope& scope, TputMetric metric)
{
    const quint64 id = ++m_latest;
    auto* worker = static_cast<LoaderWorker*>(m_worker);
    QMetaObject::invokeMethod(
        worker,
        [this, worker, id, scope, metric] {
            // a newer request is already queued: skip the work, its answer would be dropped anyway
            if (id != m_latest)
                return;
            auto store = worker->store();
            if (!store) {
                QMetaObject::invokeMethod(
                    this, [this, msg = QString::fromStdString(store.error())] { emit failed(msg); },
                    Qt::QueuedConnection);
                return;
            }
            auto result = std::make_shared<LoadedScope>();
            result->requestId = id;
            (*store)->clearReadError();
            result->data = loadScopeData(**store, scope, metric);
            result->summaryFacts = summaryFacts(**store, result->data);
            if (auto read = (*store)->readStatus(); !read) {
                // a damaged store: its message, never a chart drawn from the part that could be read
                QMetaObject::invokeMethod(
                    this,
                    [this, id, msg = QString::fromStdString(read.error())] {
                        if (id == m_latest)
                            emit failed(msg);
                    },
                    Qt::QueuedConnection);
                return;
            }
            QMetaObject::invokeMethod(
                this,
                [this, result] {
                    if (result->requestId == m_latest)
                        emit loaded(result);
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
    return id;
}

} // namespace paretoscope::ui
