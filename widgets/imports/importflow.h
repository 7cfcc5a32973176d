#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <vector>

#include "widgets/imports/importcontroller.h"

class QProgressDialog;
class QWidget;

namespace paretoscope::ui {

/// An import as the window runs it: the fields a bench file lacks asked for (once per file, or once for the rest of a
/// folder), the files read on the importer's thread with a progress dialog and Cancel, and the results shown in a
/// dialog (unless turned off) and kept for whoever asks.
class ImportFlow : public QObject {
    Q_OBJECT
public:
    /// Dialogs open over `window`, which owns the flow as a member.
    ImportFlow(const QString& storePath, QWidget* window);

    /// Files, folders or URLs; vLLM and SGLang files first ask for their missing fields.
    void importPaths(const QStringList& paths);
    /// With the fields already known (no dialogs). An import already running is said, and nothing starts.
    void importItems(std::vector<ImportItem> items);
    bool busy() const { return m_importer.busy(); }
    /// Results in a dialog unless false (tests read lastResults instead).
    void setShowResults(bool show) { m_showResults = show; }
    const QList<ImportResultLine>& lastResults() const { return m_lastResults; }

signals:
    /// An import begins: its first write follows.
    void started();
    /// The import ended (whole, cancelled or refused): the store may hold new runs.
    void finished();

private:
    ImportController m_importer;
    QWidget* m_window;
    QPointer<QProgressDialog> m_progress;
    QList<ImportResultLine> m_lastResults;
    bool m_showResults = true;
};

} // namespace paretoscope::ui
