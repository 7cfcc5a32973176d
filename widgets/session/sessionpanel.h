#pragma once

#include <QWidget>

#include "core/live/sessionstore.h"
#include "widgets/session/sessioncontroller.h"

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace paretoscope::ui {

/// The progress view of a live session: the level running (progress, live TTFT, TPOT and throughput), the levels
/// stored so far, the engine's log and Cancel; below, the sessions in the store with their status, interrupted ones
/// included.
class SessionPanel : public QWidget {
    Q_OBJECT
public:
    explicit SessionPanel(QWidget* parent = nullptr);
    /// A new session starts: the view is cleared.
    void started(const QString& title);
    void showNote(const QString& line);
    void showProgress(const LiveLevel& level);
    void addLevel(const StoredLevelLine& level);
    void showLog(const QString& tail);
    void ended(const QString& status, const QString& reason);
    /// The sessions in the store.
    void setSessions(const std::vector<SessionInfo>& sessions);
    int storedLevels() const;
    QString statusText() const;

signals:
    void cancelRequested();

private:
    QLabel* m_title;
    QLabel* m_status;
    QProgressBar* m_bar;
    QLabel* m_live;
    QTableWidget* m_levels;
    QPlainTextEdit* m_log;
    QPushButton* m_cancel;
    QListWidget* m_history;
};

} // namespace paretoscope::ui
