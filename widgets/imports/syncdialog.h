#pragma once

#include <QDialog>

#include "core/sync/sync.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QSpinBox;
class QTreeWidget;

namespace paretoscope::ui {

class SyncController;

/// File → Update from InferenceX…: what to sync (source, models, sequences, history or the latest view, evaluations,
/// since, requests at once, the check on start), kept between openings; then a row per request with its progress bar,
/// Cancel, and what changed (docs/sync.md).
class SyncDialog : public QDialog {
    Q_OBJECT
public:
    SyncDialog(SyncController& controller, QWidget* parent = nullptr);

    /// The options as the form gives them, or the error that names the field.
    Result<SyncOptions> options() const;
    /// Starts a sync with the form's options (the Sync button); false after showing why not.
    bool startSync();
    QTreeWidget* items() const { return m_items; }
    QString summaryText() const;
    /// The line over the list: what runs, what failed to start, a field refused.
    QString statusText() const;
    QPushButton* syncButton() const { return m_sync; }
    QPushButton* cancelButton() const { return m_cancel; }
    QLineEdit* sourceEdit() const { return m_source; }

    /// The setting of the check for new data on start (off unless turned on).
    static bool checkOnStart();
    /// The options the dialog last kept, for the check on start.
    static SyncOptions keptOptions();

signals:
    /// A sync ended having stored new runs or evaluations: the window reads the store again.
    void storeChanged();

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void keep() const;
    void restore();
    void onPlanned(const QStringList& items, const QStringList& upToDate, const QStringList& notes);
    void onItem(int item, int stage, qint64 bytes, const QString& error);
    void onFinished();
    void setRunning(bool running);

    SyncController& m_controller;
    QLineEdit* m_source;
    QLineEdit* m_models;
    QLineEdit* m_sequences;
    QRadioButton* m_history;
    QRadioButton* m_latest;
    QCheckBox* m_evaluations;
    QLineEdit* m_since;
    QSpinBox* m_jobs;
    QCheckBox* m_onStart;
    QLabel* m_status;
    QProgressBar* m_overall;
    QTreeWidget* m_items;
    QPlainTextEdit* m_summary;
    QPushButton* m_sync;
    QPushButton* m_cancel;
    QPushButton* m_close;
    int m_itemsEnded = 0;
};

/// A sync's report in sentences for a person: new runs per model, the groups with a newer run, the readings that
/// moved by more than 5% with before and after, the failures.
QString describeSyncReport(const SyncReport& report);

} // namespace paretoscope::ui
