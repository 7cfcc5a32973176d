// File > Export replay... (docs/report.md): the as-of replay of the view on screen as a video, a day's chart a turn of
// the event loop under a progress dialog with Cancel; the same frames the CLI's `replay` writes. And what a day's data
// needs beyond its runs, shared by the replay and the run-dates slider (asOfPreparation).
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QProgressDialog>
#include <QStatusBar>
#include <QThreadPool>

#include "core/analysis/scopeaccuracy.h"
#include "core/output/ffmpeglib.h"
#include "widgets/common/displaynames.h"
#include "widgets/common/threadpriority.h"
#include "widgets/filters/accuracycontrol.h"
#include "widgets/window/mainwindow.h"

namespace paretoscope::ui {

std::function<void(ScopeData&)> MainWindow::asOfPreparation() const
{
    return [evaluations = m_shown.data ? m_shown.data->evaluations : nullptr,
               knots = m_shown.data ? m_shown.data->knotConfigurations : nullptr,
               accuracy = m_filters->accuracy()->requirement(),
               task = m_filters->accuracy()->task().toStdString()](ScopeData& asOf) {
        asOf.evaluations = evaluations; // the model's, whatever the day
        if (accuracy)
            requireAccuracy(asOf, *accuracy); // judged as of the day: a later evaluation does not count yet
        chooseAccuracyTask(asOf, task);
        // the knots' configurations read with the scope: a knot of another day not among them is read without one
        asOf.knotConfigurations = knots;
    };
}

void MainWindow::exportReplay(const QString& path, const ReplaySettings& settings)
{
    if (!m_shown.data || !m_shown.timeline) {
        emit m_replayExport->finished(path, tr("nothing to replay yet: no scope is loaded"), 0);
        return;
    }
    ReplayScope scope { m_shown.timeline, m_filters->scope(), m_shown.data->series, m_shown.data->metric,
        asOfPreparation() };
    ReplayLook look { m_chart->state(), priceLabel(), QFileInfo(m_worker.path()).fileName() };
    ReplaySettings s = settings;
    // the encoder on one core behind the window's: the frames are drawn on the GUI thread between its events
    s.encoderThreads = 1;
    s.encoderNice = kBehindTheGuiNice;
    m_replayExport->start(
        path, std::make_shared<const ReplayFrames>(std::move(scope), std::move(look), bundledPricing()), s);
}

void MainWindow::askExportReplay()
{
    if (!m_shown.data || !m_shown.timeline || m_shown.timeline->days().empty()) {
        plainMessage(
            this, false, tr("Export replay"), tr("Nothing to replay yet: the scope in view has no run dates."));
        return;
    }
    // FFmpeg's libraries (a hundred-odd, opened at the first video: 70 to 300 ms) loaded off the GUI thread while the
    // file is chosen
    QThreadPool::globalInstance()->start([] {
        std::string why;
        ffmpegLib(why);
    });
    const QString path = QFileDialog::getSaveFileName(this, tr("Export replay"),
        QDir(lastFolder(QStringLiteral("export"))).filePath(QStringLiteral("replay.mp4")),
        tr("Replay as MP4 video (*.mp4);;Replay as animated GIF (*.gif)"));
    if (path.isEmpty())
        return;
    rememberFolder(QStringLiteral("export"), QFileInfo(path).absolutePath());
    auto* progress = new QProgressDialog(tr("Drawing the replay, a chart per run date…"), tr("Cancel"), 0, 0, this);
    progress->setWindowTitle(tr("Export replay"));
    progress->setWindowModality(Qt::WindowModal);
    progress->setMinimumDuration(0);
    progress->setAutoClose(false);
    progress->setAutoReset(false);
    progress->setAttribute(Qt::WA_DeleteOnClose);
    connect(progress, &QProgressDialog::canceled, m_replayExport, &ReplayExport::cancel);
    connect(m_replayExport, &ReplayExport::progress, progress, [progress](int done, int total) {
        progress->setMaximum(total);
        progress->setValue(done);
        if (done == total) { // the file is written whole now: no cancel
            progress->setLabelText(tr("Writing the video…"));
            progress->setCancelButton(nullptr);
        }
    });
    // the dialog is the connections' context: they go with it
    connect(
        m_replayExport, &ReplayExport::finished, progress,
        [this, progress](const QString& written, const QString& error, int frames) {
            progress->close();
            if (error.isEmpty())
                statusBar()->showMessage(tr("Replay written: %1 (%2 frames)").arg(written).arg(frames), 10000);
            else
                plainMessage(this, true, tr("Export replay"), tr("No replay written: %1").arg(error));
        },
        Qt::SingleShotConnection);
    connect(
        m_replayExport, &ReplayExport::cancelled, progress,
        [this, progress] {
            progress->close();
            statusBar()->showMessage(tr("Replay cancelled: nothing was written"), 10000);
        },
        Qt::SingleShotConnection);
    exportReplay(path);
}

} // namespace paretoscope::ui
