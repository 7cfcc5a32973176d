#pragma once

#include <QString>
#include <QStringList>
#include <optional>

#include "core/sync/sync.h"
#include "widgets/storejobs/writercontroller.h"

namespace paretoscope::ui {

/// Runs a sync from an InferenceX API (docs/sync.md) off the GUI thread with its own store connection: the plan
/// (the availability route and what is new), then the requests and imports, each item's progress told as it goes,
/// and Cancel (the import under way rolled back, what was completed kept).
class SyncController : public WriterController {
    Q_OBJECT
public:
    explicit SyncController(QString storePath, QObject* parent = nullptr);
    ~SyncController() override;
    /// Plans and runs a sync. Nothing starts while one runs (busy()).
    void start(SyncOptions options);
    /// Only plans: how many units have something new (planned, then checked). For the check on start.
    void check(SyncOptions options);
    /// The last sync's report, once finished was emitted.
    const std::optional<SyncReport>& lastReport() const { return m_report; }

signals:
    /// What the sync will fetch, one label per item, and the units already up to date.
    void planned(const QStringList& items, const QStringList& upToDate, const QStringList& notes);
    /// An item's stage (SyncStage as int), bytes received, and its error when it failed.
    void itemProgress(int item, int stage, qint64 bytes, const QString& error);
    /// The sync ended (whole, with failures, or cancelled): lastReport() holds its report.
    void finished();
    /// The sync could not start: the store, the availability route or an option (the plan's error).
    void failed(const QString& error);
    /// check(): the number of models and sequences with newer runs than the store synced.
    void checked(int itemsWithNewData);

private:
    std::optional<SyncReport> m_report;
};

} // namespace paretoscope::ui
