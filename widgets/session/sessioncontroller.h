#pragma once

#include <QString>
#include <optional>

#include "core/live/recipesession.h"
#include "widgets/storejobs/writercontroller.h"

namespace paretoscope::ui {

/// What the session dialog asks for: the configuration (complete: core's buildSession), the recipe to launch (if any)
/// and the API key, which lives only in memory for the length of the session.
struct SessionRequest {
    SessionConfig config;
    std::optional<RecipeLaunch> launch;
    QString apiKey;
    QString devices; ///< GPU indices to sample, empty for every GPU of the session's hardware
};

/// A level's live numbers while it runs.
struct LiveLevel {
    int level = 0; ///< -1 while the engine starts
    int concurrency = 0;
    int finished = 0;
    int total = 0;
    int warmupsLeft = 0;
    int failed = 0;
    double elapsed = 0;
    double outputTokensPerSecond = 0;
    double medianTtft = -1; ///< s, -1 unknown
    double medianTpot = -1;
};

/// A stored level, as the progress view lists it.
struct StoredLevelLine {
    int level = 0;
    int concurrency = 0;
    long long runId = 0;
    double interactivity = 0;
    double tputPerGpu = 0;
    double medianTtft = 0;
    double medianTpot = 0;
    long long failed = 0;
    double avgPowerW = -1;
    QString marked; ///< why the level is not trusted (RunRecord::marked), empty when it is
    QString notStored; ///< why the store did not take it (it waits in the session's own file), empty when stored
    QString validity; ///< the level's validity flags, comma-separated (RunRecord::validity), empty when it checks out
    QString reason; ///< why an adaptive sweep chose the level, empty in a fixed list
};

/// Runs a live session off the GUI thread with its own store connection; the GUI keeps showing the store while
/// levels land in it. Cancel stops the sweep (and the engine it launched) at once. A level waiting its turn behind an
/// import into the same store says so as a note.
class SessionController : public WriterController {
    Q_OBJECT
public:
    explicit SessionController(QString storePath, QObject* parent = nullptr);
    ~SessionController() override; ///< cancels a running session and waits for its engine to stop
    void start(SessionRequest request);

signals:
    void note(const QString& line);
    void progress(const paretoscope::ui::LiveLevel& level);
    void levelStored(const paretoscope::ui::StoredLevelLine& level);
    void engineLog(const QString& tail);
    /// status: finished, failed, cancelled; or "error" when the session could not start (reason says why).
    void finished(const QString& status, const QString& reason, long long sessionId);

private:
    /// The session on the writer's thread; returns the finished() call.
    std::function<void()> run(const SessionRequest& request);
};

} // namespace paretoscope::ui

Q_DECLARE_METATYPE(paretoscope::ui::LiveLevel)
Q_DECLARE_METATYPE(paretoscope::ui::StoredLevelLine)
