#include "widgets/session/sessioncontroller.h"

#include <QFile>
#include <chrono>

#include "core/live/sessionsetup.h"
#include "core/live/telemetrysampler.h"

namespace paretoscope::ui {
namespace {

// A running level's numbers as the progress view shows them (-1 for a median not known yet).
LiveLevel liveLevel(int level, int concurrency, const LevelProgress& p)
{
    LiveLevel l;
    l.level = level;
    l.concurrency = concurrency;
    l.finished = p.finished;
    l.total = p.total;
    l.warmupsLeft = p.warmupsLeft;
    l.failed = p.failed;
    l.elapsed = p.elapsed;
    l.outputTokensPerSecond = p.elapsed > 0 ? double(p.outputTokens) / p.elapsed : 0;
    l.medianTtft = p.medianTtft.value_or(-1);
    l.medianTpot = p.medianTpot.value_or(-1);
    return l;
}

// A finished level as the progress view lists it; one the store did not take says why, and which file keeps it.
StoredLevelLine storedLevelLine(const LevelOutcome& lo)
{
    StoredLevelLine s;
    s.level = lo.level;
    s.concurrency = lo.concurrency;
    s.runId = lo.runId;
    s.interactivity = lo.record.interactivity.value_or(0);
    s.tputPerGpu = lo.record.tputPerGpu.value_or(0);
    s.medianTtft = lo.metrics.ttft.median.value_or(0);
    s.medianTpot = lo.metrics.tpot.median.value_or(0);
    s.failed = lo.metrics.failed;
    s.avgPowerW = lo.telemetry.avgPowerW.value_or(-1);
    s.marked = QString::fromStdString(lo.record.marked);
    s.validity = QString::fromStdString(lo.record.validity);
    s.reason = QString::fromStdString(lo.reason);
    if (!lo.storeError.empty())
        s.notStored = QString::fromStdString(lo.storeError)
            + (lo.keptIn.empty() ? QString()
                                 : SessionController::tr("; kept in %1").arg(QString::fromStdString(lo.keptIn)));
    return s;
}

} // namespace

SessionController::SessionController(QString storePath, QObject* parent)
    : WriterController(std::move(storePath), QStringLiteral("session"), Share::Full, parent)
{
    qRegisterMetaType<LiveLevel>();
    qRegisterMetaType<StoredLevelLine>();
    connect(this, &WriterController::waiting, this, &SessionController::note);
}

SessionController::~SessionController()
{
    stop();
}

void SessionController::start(SessionRequest request)
{
    runJob([this, request = std::move(request)] { return run(request); });
}

std::function<void()> SessionController::run(const SessionRequest& request)
{
    auto post = [this](const auto& fn) { toGui(fn); };
    auto done = [this](const QString& status, const QString& reason, long long id) -> std::function<void()> {
        return [this, status, reason, id] { emit finished(status, reason, id); };
    };
    // a level waits its turn behind an import into the same store, and says so
    auto store = openForWriting();
    if (!store)
        return done(QStringLiteral("error"), QString::fromStdString(store.error()), 0);
    std::string key = request.apiKey.toStdString();
    // the dialog's plan (core's buildSession): the configuration is complete, a recipe's included
    const SessionPlan plan { request.config, request.launch };
    DeviceDiscovery discovery = discoverDevices();
    std::string samplerNote;
    auto sampler = makeSessionSampler(discovery, plan.config, request.devices.toStdString(), key, samplerNote);

    SessionEvents events;
    auto lastLog = std::chrono::steady_clock::now();
    std::string logPath = request.launch ? request.launch->logPath : std::string();
    auto forwardLog = [&] {
        // the engine's log tail once a second, read here, not on the GUI thread
        if (logPath.empty() || std::chrono::steady_clock::now() - lastLog < std::chrono::seconds(1))
            return;
        lastLog = std::chrono::steady_clock::now();
        QFile f(QString::fromStdString(logPath));
        if (f.open(QIODevice::ReadOnly)) {
            if (f.size() > 16384)
                f.seek(f.size() - 16384);
            QString tail = QString::fromUtf8(f.readAll());
            post([this, tail] { emit engineLog(tail); });
        }
    };
    events.note = [&](const std::string& line) {
        QString s = QString::fromStdString(line);
        post([this, s] { emit note(s); });
    };
    events.note(samplerNote);
    auto lastProgress = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    events.progress = [&](int level, int concurrency, const LevelProgress& p) {
        forwardLog();
        auto now = std::chrono::steady_clock::now();
        if (now - lastProgress >= std::chrono::milliseconds(200)) {
            lastProgress = now;
            LiveLevel l = liveLevel(level, concurrency, p);
            post([this, l] { emit progress(l); });
        }
        return !cancelled();
    };
    events.levelStored = [&](const LevelOutcome& lo) {
        StoredLevelLine s = storedLevelLine(lo);
        post([this, s] { emit levelStored(s); });
    };
    Result<SessionOutcome> outcome = runPlannedSession(**store, plan, key, events, sampler.get());
    forwardLog();
    if (!outcome)
        return done(QStringLiteral("error"), QString::fromStdString(outcome.error()), 0);
    return done(QString::fromStdString(outcome->status), QString::fromStdString(outcome->reason), outcome->sessionId);
}

} // namespace paretoscope::ui
