#include "widgets/chart/replayexport.h"

#include <QtConcurrent>

namespace paretoscope::ui {

namespace {
// How long the window waits for the encoder to take a frame before it looks again.
constexpr int kEncoderWaitMs = 4;
} // namespace

ReplayExport::ReplayExport(QObject* parent)
    : QObject(parent)
{
    m_turn.setSingleShot(true);
    connect(&m_turn, &QTimer::timeout, this, &ReplayExport::step);
    connect(&m_finish, &QFutureWatcher<QString>::finished, this, &ReplayExport::delivered);
    connect(&m_cloud, &QFutureWatcher<PlotPicture::Drawn>::finished, this, &ReplayExport::cloudDrawn);
}

ReplayExport::~ReplayExport()
{
    m_cloud.waitForFinished(); // it draws copies; waited for all the same, so that nothing outlives the window
    m_finish.waitForFinished(); // the writer it finishes is this object's
}

void ReplayExport::start(
    const QString& path, std::shared_ptr<const ReplayFrames> frames, const ReplaySettings& settings)
{
    if (m_finishing) { // the last one's file is being written: it is written first
        emit finished(path, tr("a replay is being written; try again when it is done"), 0);
        return;
    }
    if (m_writer)
        cancel();
    m_path = path;
    auto writer = ReplayWriter::open(path, std::move(frames), settings);
    if (!writer)
        return end(QString::fromStdString(writer.error()));
    m_writer = std::move(*writer);
    emit progress(0, int(m_writer->dayCount()));
    m_turn.start(0);
}

void ReplayExport::cancel()
{
    if (!m_writer || m_finishing) // a replay being written out is written (the file appears whole)
        return;
    m_turn.stop();
    m_staged.reset(); // a cloud being drawn draws copies: its picture is dropped when it comes
    m_writer.reset(); // the frames encoded so far are dropped with it: nothing was written
    emit cancelled(m_path);
}

void ReplayExport::step()
{
    if (!m_writer || m_finishing || m_staged)
        return;
    if (!m_writer->readyForFrame()) { // the encoder is behind: the window waits in its event loop, not in a lock
        m_turn.start(kEncoderWaitMs);
        return;
    }
    // the day's chart built here, its run cloud (the most of its drawing) on the pictures' pool, the rest on the
    // cloud's return
    m_staged = m_writer->stageNext();
    m_cloud.setFuture(PlotPicture::drawAhead(m_staged->cloudDrawing()));
}

void ReplayExport::cloudDrawn()
{
    if (!m_writer || !m_staged || !m_cloud.isFinished()) // cancelled while it was drawn
        return;
    m_staged->takeCloud(m_cloud.result());
    const std::unique_ptr<StagedExport> staged = std::move(m_staged);
    if (Status st = m_writer->add(*staged); !st) {
        m_writer.reset();
        return end(QString::fromStdString(st.error()));
    }
    emit progress(int(m_writer->daysDone()), int(m_writer->dayCount()));
    if (!m_writer) // cancelled from a progress slot
        return;
    if (!m_writer->allDrawn())
        return m_turn.start(0);
    // the encoder's last frames and the file written off the GUI thread (a few hundred ms at 1920 x 1080)
    m_finishing = true;
    ReplayWriter* writer = m_writer.get();
    m_finish.setFuture(QtConcurrent::run([writer] {
        Status st = writer->finish();
        return st ? QString() : QString::fromStdString(st.error());
    }));
}

void ReplayExport::delivered()
{
    const QString error = m_finish.result();
    const int frames = m_writer ? m_writer->frames() : 0;
    m_writer.reset();
    m_finishing = false;
    emit finished(m_path, error, error.isEmpty() ? frames : 0);
}

void ReplayExport::end(const QString& error)
{
    emit finished(m_path, error, 0);
}

} // namespace paretoscope::ui
