#pragma once

#include <QObject>
#include <QStringList>
#include <QThread>
#include <atomic>

#include "core/import/importer.h"

namespace paretoscope::ui {

/// One input to import with the fields the caller gave for it.
struct ImportItem {
    QString pathOrUrl;
    ImportOptions options;
};

/// One source's outcome, in plain words.
struct ImportResultLine {
    QString source;
    bool ok = false;
    QString message; ///< "1,234 runs imported, 5 already stored" or the error
    QStringList notes; ///< what was kept or left out without refusing the source ("field 'x' is 0, left out")
};

/// Runs imports off the GUI thread with its own store connection, one source at a time, each all or nothing.
/// Reports progress (bytes of the current source) and can be cancelled: the source being read is rolled back.
class ImportController : public QObject {
    Q_OBJECT
public:
    explicit ImportController(QString storePath, QObject* parent = nullptr);
    ~ImportController() override;
    bool busy() const { return m_busy; }
    void start(std::vector<ImportItem> items);
    void cancel() { m_cancel = true; }

signals:
    void progress(const QString& source, qint64 done, qint64 total);
    /// The import waits for another writer of the store (a live session's level, another import): who, and how long.
    void waiting(const QString& message);
    void finished(const QList<paretoscope::ui::ImportResultLine>& results, qulonglong imported);

private:
    QString m_path;
    QThread m_thread;
    QObject* m_worker;
    std::atomic<bool> m_cancel { false };
    bool m_busy = false;
};

} // namespace paretoscope::ui
