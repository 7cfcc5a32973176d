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
}

ReplayExport::~ReplayExport()
{
    m_finish.waitForFinished(); // the writer it finishes is this object's
}

void ReplayExport::start(
    const QString& path, std::shared_ptr<const ReplayFrames> frames, const ReplaySettings& settings)
{
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
    m_writer.reset(); // the frames encoded so far are dropped with it: nothing was written
    emit cancelled(m_path);
}

void ReplayExport::step()
{
    if (!m_writer || m_finishing)
        return;
    if (!m_writer->readyForFrame()) { // the encoder is behind: the window waits in its event loop, not in a lock
        m_turn.start(kEncoderWaitMs);
        return;
    }
    if (Status st = m_writer->step(); !st) {
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
