#include "widgets/imports/synccontroller.h"

namespace paretoscope::ui {

SyncController::SyncController(QString storePath, QObject* parent)
    : WriterController(std::move(storePath), QStringLiteral("sync"), Share::BehindTheGui, parent)
{
}

SyncController::~SyncController()
{
    stop();
}

void SyncController::start(SyncOptions options)
{
    if (busy())
        return;
    m_report.reset();
    runJob([this, options = std::move(options)]() -> std::function<void()> {
        auto store = openForWriting();
        if (!store)
            return [this, e = QString::fromStdString(store.error())] { emit failed(e); };
        auto plan = planSync(**store, options);
        if (!plan)
            return [this, e = QString::fromStdString(plan.error())] { emit failed(e); };
        QStringList items, upToDate, notes;
        for (const SyncItem& item : plan->items)
            items << QString::fromStdString(item.label);
        for (std::size_t u : plan->upToDate)
            upToDate << QString::fromStdString(plan->catalog.units[u].label());
        for (const std::string& n : plan->notes)
            notes << QString::fromStdString(n);
        toGui([this, items, upToDate, notes] { emit planned(items, upToDate, notes); });
        SyncCallbacks callbacks;
        callbacks.keepGoing = [this] { return !cancelled(); };
        callbacks.progress = [this](const SyncEvent& e) {
            toGui([this, e] {
                emit itemProgress(int(e.item), int(e.stage), qint64(e.bytes), QString::fromStdString(e.message));
            });
        };
        SyncReport report = runSync(**store, *plan, options, callbacks);
        return [this, report = std::move(report)]() mutable {
            m_report = std::move(report);
            emit finished();
        };
    });
}

void SyncController::check(SyncOptions options)
{
    if (busy())
        return;
    runJob([this, options = std::move(options)]() -> std::function<void()> {
        auto store = RunStore::open(storePath().toStdString(), StoreAccess::ReadOnly);
        if (!store)
            return [this, e = QString::fromStdString(store.error())] { emit failed(e); };
        auto plan = planSync(**store, options);
        if (!plan)
            return [this, e = QString::fromStdString(plan.error())] { emit failed(e); };
        return [this, n = int(plan->items.size())] { emit checked(n); };
    });
}

} // namespace paretoscope::ui
