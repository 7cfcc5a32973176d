#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>
#include <memory>

#include "widgets/chart/replayframes.h"

namespace paretoscope::ui {

/// A replay being written from the window (File > Export replay...): a day's chart built on a turn of the event loop,
/// its run cloud drawn on the pictures' pool, the rest of it drawn when the cloud comes back (the encoder works on its
/// own thread meanwhile), so that the window answers between frames; progress after each, and a cancel that writes
/// nothing.
class ReplayExport : public QObject {
    Q_OBJECT
public:
    explicit ReplayExport(QObject* parent = nullptr);
    ~ReplayExport() override;
    /// Starts writing; a replay still being drawn is cancelled first, one whose file is being written is not, and the
    /// new one is refused. finished() follows (at once where the file, size or scope cannot be written).
    void start(const QString& path, std::shared_ptr<const ReplayFrames> frames, const ReplaySettings& settings);
    /// Stops without writing anything; cancelled() follows. Once every day is drawn the file is being
    /// written: then it is written.
    void cancel();
    bool running() const { return m_writer != nullptr; }

signals:
    /// Days drawn so far, of how many.
    void progress(int done, int total);
    /// The replay ended: error is empty when the file was written (frames: how many it holds).
    void finished(const QString& path, const QString& error, int frames);
    /// The replay was cancelled: nothing was written.
    void cancelled(const QString& path);

private:
    void step();
    void cloudDrawn();
    void delivered();
    void end(const QString& error);
    std::unique_ptr<ReplayWriter> m_writer;
    QString m_path;
    QTimer m_turn;
    QFutureWatcher<QString> m_finish;
    std::unique_ptr<StagedExport> m_staged; ///< the day being drawn, while its run cloud is drawn on the pool
    QFutureWatcher<PlotPicture::Drawn> m_cloud;
    bool m_finishing = false;
};

} // namespace paretoscope::ui
