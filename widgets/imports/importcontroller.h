#pragma once

#include <QStringList>

#include "core/import/importer.h"
#include "widgets/storejobs/writercontroller.h"

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
class ImportController : public WriterController {
    Q_OBJECT
public:
    explicit ImportController(QString storePath, QObject* parent = nullptr);
    ~ImportController() override;
    void start(std::vector<ImportItem> items);

signals:
    void progress(const QString& source, qint64 done, qint64 total);
    void finished(const QList<paretoscope::ui::ImportResultLine>& results, qulonglong imported);

private:
    QList<ImportResultLine> importAll(RunStore& store, const std::vector<ImportItem>& items, qulonglong& imported);
};

} // namespace paretoscope::ui
