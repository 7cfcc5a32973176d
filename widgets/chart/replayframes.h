#pragma once

#include <QImage>
#include <QString>
#include <functional>
#include <memory>
#include <vector>

#include "core/analysis/chartdata.h"
#include "core/output/videowriter.h"
#include "widgets/chart/chartexport.h"

namespace paretoscope::ui {

/// The scope a replay steps through: its runs in memory (a timeline loaded for the scope without an as-of date, so
/// that it holds every day), the scope itself (its as-of date, when it has one, is the replay's last day), its series
/// and the token metric; `prepare`, when given, finishes each day's data as the window does (its accuracy
/// requirement judged as of the day).
struct ReplayScope {
    std::shared_ptr<const ScopeTimeline> timeline;
    Scope scope;
    std::vector<Series> series;
    TputMetric metric = TputMetric::Total;
    std::function<void(ScopeData&)> prepare;
};

/// How the frames look: the chart's state (view, target, groups switched off), the tier its caption names, and the
/// store the runs come from (its file name, in the source line).
struct ReplayLook {
    ChartState state;
    QString priceLabel;
    QString storeName;
};

/// The as-of replay as pictures (docs/report.md): one frame per run date of the scope, each the chart as exported
/// (exportChartPng) for the scope as of that date, its caption saying the date and each hardware's reading at the
/// target.
class ReplayFrames {
public:
    ReplayFrames(ReplayScope scope, ReplayLook look, const PricingCatalog& pricing);
    /// The run dates the replay shows (yyyymmdd, ascending): the timeline's, up to the scope's as-of date.
    const std::vector<int>& days() const { return m_days; }
    /// The scope's data as of a day (what the window shows with its run-date slider on that day).
    std::shared_ptr<const ScopeData> dataOn(int day) const;
    /// The caption of that day's frame: the scope's title; "As of yyyy-mm-dd", the axes, the target and the tier;
    /// the best reading of each hardware at the target (up to six, the highest first) and where the runs come from.
    ChartCaption captionOf(const ScopeData& data) const;
    /// The frame of a day at a size, staged (its run cloud may be drawn off the GUI thread before it is rendered).
    std::unique_ptr<StagedExport> stage(int day, QSize size) const;
    /// The frame of a day at a size (a null image where it cannot be drawn: renderChart's limits).
    QImage frame(int day, QSize size) const;
    const ChartState& state() const { return m_look.state; }

private:
    ReplayScope m_scope;
    ReplayLook m_look;
    const PricingCatalog& m_pricing;
    std::vector<int> m_days;
};

/// How a frame of a replay is laid out: a frame wider than 1280 pixels is laid out 1280 wide and drawn larger (1920 x
/// 1080 at 1.5x, as File > Export chart's 16:9 slide), so that its type and lines are as legible as a slide's.
struct ReplayLayout {
    QSize layout;
    qreal scale = 1;
};
ReplayLayout replayLayout(QSize pixels);

/// What a replay is written with: the frames' size, their rate and how long the last is held (seconds).
struct ReplaySettings {
    QSize size { 1920, 1080 };
    int fps = 2;
    double holdSeconds = 2;
    /// The encoder's threads and nice value (VideoSettings): the window keeps a core and its priority for itself.
    int encoderThreads = 0;
    int encoderNice = 0;
};
/// The frames the last day is shown for: itself and its hold, at the rate.
int lastFrameRepeats(const ReplaySettings& settings);

/// Writes a replay one day at a time (the window calls step() a turn of its event loop each, the CLI in a loop):
/// each day's chart drawn here and handed to the encoder, which works on its own thread; finish() writes the file.
class ReplayWriter {
public:
    /// Errors (the format, the size, the encoder) name the file; nothing is written.
    static Result<std::unique_ptr<ReplayWriter>> open(
        const QString& path, std::shared_ptr<const ReplayFrames> frames, const ReplaySettings& settings);
    /// Draws the next day's chart and hands it to the encoder (the last day with its hold): add(*stageNext()).
    Status step();
    /// The next day's chart staged: its run cloud may be drawn off the GUI thread (StagedExport) before add().
    std::unique_ptr<StagedExport> stageNext() const;
    /// Renders the next day's staged chart and hands it to the encoder.
    Status add(StagedExport& staged);
    /// Whether the encoder takes the next frame without waiting (the window draws it only then).
    bool readyForFrame() const { return m_video->hasRoom(); }
    /// Whether every day is drawn.
    bool allDrawn() const { return m_next >= m_frames->days().size(); }
    /// Waits for the encoder and writes the file whole (any thread, once every day is drawn).
    Status finish();
    /// Days drawn so far, and of how many.
    std::size_t daysDone() const { return m_next; }
    std::size_t dayCount() const { return m_frames->days().size(); }
    /// Frames in the video so far (the hold counted).
    int frames() const { return m_video->frames(); }

private:
    ReplayWriter(std::shared_ptr<const ReplayFrames> frames, std::unique_ptr<VideoWriter> video, ReplaySettings s);
    std::shared_ptr<const ReplayFrames> m_frames;
    std::unique_ptr<VideoWriter> m_video;
    ReplaySettings m_settings;
    std::size_t m_next = 0;
};

} // namespace paretoscope::ui
