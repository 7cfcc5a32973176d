#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QThread>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>

#include "core/store/runstore.h"

namespace paretoscope::ui {

namespace detail {
template <typename T> struct AsResult {
    using type = Result<T>;
};
template <typename T> struct AsResult<Result<T>> {
    using type = Result<T>;
};
} // namespace detail

/// The window's one way to its store: a thread with its own store connection that runs posted jobs one after the
/// other, in the order posted, and hands each answer back on the GUI thread by a queued call (hotspot's JobTracker).
/// Latest request wins per kind: a newer job of the same kind makes an older one be skipped if it has not started
/// and its answer be dropped if it has. Jobs posted with an empty kind all run and all answer (deletions, exports).
class StoreWorker : public QObject {
    Q_OBJECT
public:
    /// Takes the connection: from now on it is used on the worker's thread only.
    explicit StoreWorker(std::unique_ptr<RunStore> store, QObject* parent = nullptr);
    /// Opens path on the worker's thread at the first job; a store that cannot be opened fails every job, saying why.
    StoreWorker(QString path, StoreAccess access, QObject* parent = nullptr);
    ~StoreWorker() override; ///< waits for the job that runs; those not started are dropped, their answers too

    const QString& path() const { return m_path; }

    /// Runs work(store) on the worker's thread, then done(answer) on the GUI thread unless receiver is gone or a
    /// newer job of the same kind was posted. The answer is a Result: an Error when the store cannot be opened or
    /// a read failed (a damaged file), never what could be read of it. Returns the job's id.
    template <typename Work, typename Done> quint64 post(const QString& kind, QObject* receiver, Work work, Done done)
    {
        using R = typename detail::AsResult<std::invoke_result_t<Work&, RunStore&>>::type;
        return postJob(kind, receiver,
            [work = std::move(work), done = std::move(done)](
                RunStore* store, const std::string& openError) mutable -> std::function<void()> {
                if (!store)
                    return [done, e = openError]() mutable { done(R(Error { e })); };
                store->clearReadError();
                R answer = work(*store);
                if (auto read = store->readStatus(); !read)
                    answer = Error { read.error() };
                return [done, answer = std::move(answer)]() mutable { done(std::move(answer)); };
            });
    }
    /// Jobs posted whose answers have not been delivered (or dropped) yet.
    bool busy() const { return m_pending > 0; }
    /// Whether id is the newest job of its kind (its answer will be delivered).
    bool isLatest(const QString& kind, quint64 id) const;
    /// The jobs of kind posted so far are superseded as a newer one would supersede them (skipped if not started,
    /// their answers dropped) although none is posted yet: what they answer is no longer wanted.
    void supersede(const QString& kind);

signals:
    /// Every job posted so far has run and delivered its answer (or was dropped): for tests and benchmarks.
    void idle();

private:
    using Job = std::function<std::function<void()>(RunStore* store, const std::string& openError)>;
    quint64 postJob(const QString& kind, QObject* receiver, Job job);
    void startThread();

    struct Latest {
        mutable std::mutex mutex;
        std::map<QString, quint64> ids; // kind -> newest id posted
        bool isLatest(const QString& kind, quint64 id) const;
    };
    QString m_path;
    QThread m_thread;
    QObject* m_context; // lives in m_thread; owns the connection
    std::shared_ptr<Latest> m_latest = std::make_shared<Latest>();
    quint64 m_nextId = 0;
    int m_pending = 0; // posted and not yet answered (or dropped), GUI thread only
};

} // namespace paretoscope::ui
