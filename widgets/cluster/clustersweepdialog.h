#pragma once

#include <QDialog>
#include <QProcess>
#include <QTimer>
#include <map>
#include <optional>

#include "core/live/matrix.h"
#include "widgets/cluster/clustercontroller.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace paretoscope::ui {

class MatrixEditor;

/// Session → Cluster sweep…: builds or opens a sweep matrix, writes its Slurm array (core's writeArray, as
/// `bench --matrix --emit-sbatch` does), submits it when sbatch is on the PATH, and follows the tasks (pending,
/// running, finished, failed with the reason) on a timer, collecting each finished task's runs into the store as
/// `cluster collect` does, off the GUI thread. Closing it hides it; the array is still followed. The matrix is kept
/// in the settings as it is edited (kMatrixKey) and comes back when the dialog is made again.
class ClusterSweepDialog : public QDialog {
    Q_OBJECT
public:
    /// The settings key of the matrix as last edited (the matrix file format).
    static constexpr const char* kMatrixKey = "clusterSweep/matrix";
    /// Task table columns.
    enum TaskColumn { Task, Configuration, Resources, State, Runs, Reason, TaskColumnCount };

    explicit ClusterSweepDialog(QString storePath, QWidget* parent = nullptr);
    ~ClusterSweepDialog() override;

    MatrixEditor* matrix() const { return m_matrix; }
    QTableWidget* tasks() const { return m_tasks; }
    ClusterController& controller() { return m_controller; }
    /// The paretoscope-cli the tasks run (default: the one beside the explorer, else the one on the PATH).
    void setCliPath(const QString& path) { m_cli = path; }
    void setOutputFolder(const QString& dir);
    /// Seconds between looks at the array (default 5).
    void setInterval(double seconds);
    /// Writes the array of the matrix into the output folder and follows it; an error names what was refused.
    Status writeArray();
    /// Runs the folder's submit.sh (sbatch once per task shape) without blocking; the job ids show when it ends.
    void submit();
    /// Follows an array written before (its folder's matrix.json): the tasks table and collecting.
    Status follow(const QString& dir);
    /// Looks at the array now (unless a look is under way); refreshed follows.
    void refreshNow();
    /// The line above the tasks: jobs, how many tasks are where, what was collected, what went wrong.
    QString summaryText() const;
    /// The line under the matrix: what Write array wrote, and the tasks that will fail at once (or why nothing was).
    QString writtenText() const;

signals:
    /// Runs were imported into the store (the window redraws its chart): how many, and the scope of the first
    /// configuration they came from (model, lengths), which the window brings into view.
    void runsCollected(qulonglong runs, const QString& model, int isl, int osl);
    /// The tasks table shows a new look at the array.
    void refreshed();
    /// The submission ended: ids empty when it failed (summaryText says why).
    void submitted(const QStringList& ids);

private:
    QWidget* makeArrayBox();
    QWidget* makeTasksBox();
    void showPoll(const ClusterPoll& poll);
    void submitFinished(int exitCode, QProcess::ExitStatus status);
    void cancelJobs();
    void stopFollowing();
    void updateButtons();
    void setSummary(const QString& text, bool error = false);
    /// The line under the output folder: what was written or submitted, or why not.
    void showWritten(const QString& text, bool error = false);

    ClusterController m_controller;
    MatrixEditor* m_matrix;
    QLineEdit* m_folder;
    QPushButton* m_write;
    QPushButton* m_submit;
    QPushButton* m_followButton;
    QPushButton* m_stop;
    QPushButton* m_cancelJobs;
    QCheckBox* m_collect;
    QLabel* m_written;
    QLabel* m_summary;
    QProgressBar* m_progress;
    QTableWidget* m_tasks;
    QTimer m_timer;
    QProcess m_submitProcess;
    QString m_cli;
    QString m_dir; ///< the array followed, empty when none
    std::optional<Matrix> m_followed; ///< its matrix
    std::optional<ClusterPoll> m_last;
    std::map<int, qulonglong> m_imported; ///< runs imported per task by this dialog
    std::map<int, QString> m_collectErrors;
    QString m_waiting; ///< the store is held by another writer
};

} // namespace paretoscope::ui
