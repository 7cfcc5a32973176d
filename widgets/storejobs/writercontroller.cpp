#include "widgets/storejobs/writercontroller.h"

#include <QMetaObject>

#include "widgets/common/threadpriority.h"

namespace paretoscope::ui {

WriterController::WriterController(QString storePath, const QString& threadName, Share share, QObject* parent)
    : QObject(parent)
    , m_path(std::move(storePath))
    , m_worker(new QObject)
{
    m_thread.setObjectName(threadName);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    if (share == Share::BehindTheGui)
        connect(&m_thread, &QThread::started, &runBehindTheGui); // the threads it starts (an import's) inherit it
    m_thread.start();
}

WriterController::~WriterController()
{
    stop();
}

void WriterController::stop()
{
    m_cancel = true;
    m_thread.quit();
    m_thread.wait();
}

void WriterController::runJob(std::function<std::function<void()>()> job)
{
    m_busy = true;
    m_cancel = false;
    QMetaObject::invokeMethod(
        m_worker,
        [this, job = std::move(job)] {
            std::function<void()> answer = job();
            toGui([this, answer = std::move(answer)] {
                m_busy = false;
                if (answer)
                    answer();
            });
        },
        Qt::QueuedConnection);
}

void WriterController::toGui(std::function<void()> fn)
{
    QMetaObject::invokeMethod(this, std::move(fn), Qt::QueuedConnection);
}

Result<std::unique_ptr<RunStore>> WriterController::openForWriting()
{
    auto store = RunStore::open(m_path.toStdString());
    if (store)
        (*store)->setWaitFn(
            [this](const std::string& message, double) {
                toGui([this, m = QString::fromStdString(message)] { emit waiting(m); });
                return true;
            },
            [this] { return !m_cancel.load(); });
    return store;
}

} // namespace paretoscope::ui
