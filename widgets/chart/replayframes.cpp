#include "widgets/chart/replayframes.h"

#include <QLocale>
#include <QStringList>
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>

#include <unistd.h>

#include "core/analysis/numberformat.h"
#include "core/model/runselection.h"
#include "widgets/chart/frontierchart.h"
#include "widgets/common/displaynames.h"

namespace paretoscope::ui {

namespace {

// The readings a frame's caption names: the highest six, the rest counted.
constexpr std::size_t kReadingsNamed = 6;

} // namespace

ReplayFrames::ReplayFrames(ReplayScope scope, ReplayLook look, const PricingCatalog& pricing)
    : m_scope(std::move(scope))
    , m_look(std::move(look))
    , m_pricing(pricing)
{
    if (!m_scope.timeline)
        return;
    const int last = asOfDay(m_scope.scope.asOf);
    for (int day : m_scope.timeline->days())
        if (day <= last)
            m_days.push_back(day);
}

std::shared_ptr<const ScopeData> ReplayFrames::dataOn(int day) const
{
    Scope scope = m_scope.scope;
    scope.asOf = dayText(day);
    ScopeData data = scopeDataAsOf(*m_scope.timeline, scope, m_scope.series, m_scope.metric);
    if (m_scope.prepare)
        m_scope.prepare(data);
    return std::make_shared<const ScopeData>(std::move(data));
}

ChartCaption ReplayFrames::captionOf(const ScopeData& data) const
{
    const ChartState& state = m_look.state;
    const QLocale english(QLocale::English);
    ChartCaption c;
    c.title = scopeTitle(data);
    QStringList sub;
    sub << QObject::tr("As of %1").arg(QString::fromStdString(data.scope.asOf));
    sub << yAxisTitle(state.request, data.metric) + QObject::tr(" vs ") + xAxisName(state.request);
    sub << QObject::tr("target %1 tok/s/user").arg(english.toString(state.target, 'g', 4));
    if (!m_look.priceLabel.isEmpty())
        sub << m_look.priceLabel;
    c.subtitle = sub.join(QStringLiteral(" · "));

    // each hardware's reading at the target among the groups the legend keeps, as the readout reads it: one
    // configuration's (the frontier's beside it in brackets where they differ) or the frontier's
    std::vector<bool> counted(data.frontiers.size(), true);
    std::map<std::string, std::vector<const GroupFrontier*>> byHardware;
    for (std::size_t i = 0; i < data.frontiers.size(); ++i) {
        counted[i] = !state.hidden.count(groupLabel(data.frontiers[i].key));
        if (counted[i])
            byHardware[data.frontiers[i].key.hardware].push_back(&data.frontiers[i]);
    }
    const auto best = bestReadingPerHardware(data.frontiers, state.target, state.hideSparse, counted);
    const bool deployable = state.reading == Reading::Deployable;
    std::vector<std::pair<double, std::string>> readings; // the value read, and the hardware
    std::map<std::string, double> frontierOf;
    for (const auto& [hardware, reading] : best)
        frontierOf[hardware] = reading.value;
    if (deployable) {
        for (const auto& [hardware, groups] : byHardware)
            if (const auto d = readDeployable(groups, state.target, state.hideSparse))
                readings.emplace_back(d->value, hardware);
    } else {
        for (const auto& [hardware, reading] : best)
            readings.emplace_back(reading.value, hardware);
    }
    std::sort(readings.begin(), readings.end(),
        [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    QStringList named;
    for (std::size_t i = 0; i < std::min(readings.size(), kReadingsNamed); ++i) {
        QString one = hardwareName(readings[i].second) + QLatin1Char(' ')
            + QString::fromStdString(withThousands(readings[i].first));
        if (const auto f = frontierOf.find(readings[i].second);
            deployable && f != frontierOf.end() && std::abs(f->second / readings[i].first - 1) > 0.01)
            one += QStringLiteral(" [") + QString::fromStdString(withThousands(f->second)) + u']';
        named << one;
    }
    QString line = readings.empty()
        ? (deployable ? QObject::tr("No configuration reaches %1 tok/s/user")
                      : QObject::tr("No frontier reaches %1 tok/s/user"))
              .arg(english.toString(state.target, 'g', 4))
        : (deployable ? QObject::tr("tok/s/GPU at %1 tok/s/user, one configuration [frontier]: %2%3")
                      : QObject::tr("tok/s/GPU at %1 tok/s/user: %2%3"))
              .arg(english.toString(state.target, 'g', 4), named.join(QStringLiteral(" · ")),
                  readings.size() > kReadingsNamed ? QObject::tr(" (+%1 more)").arg(readings.size() - kReadingsNamed)
                                                   : QString());
    line += QObject::tr("  ·  Paretoscope, %1 runs from %2")
                .arg(english.toString(qulonglong(data.runCount)), m_look.storeName);
    c.source = line;
    return c;
}

ReplayLayout replayLayout(QSize pixels)
{
    constexpr int kSlideWidth = 1280;
    if (pixels.width() <= kSlideWidth)
        return { pixels, 1 };
    const qreal scale = qreal(pixels.width()) / kSlideWidth;
    return { QSize(kSlideWidth, qRound(pixels.height() / scale)), scale };
}

std::unique_ptr<StagedExport> ReplayFrames::stage(int day, QSize size) const
{
    const std::shared_ptr<const ScopeData> data = dataOn(day);
    const ReplayLayout at = replayLayout(size);
    return std::make_unique<StagedExport>(data, m_look.state, m_pricing, at.layout, at.scale, captionOf(*data), size);
}

QImage ReplayFrames::frame(int day, QSize size) const
{
    return stage(day, size)->render();
}

int lastFrameRepeats(const ReplaySettings& settings)
{
    return 1 + static_cast<int>(std::lround(std::max(settings.holdSeconds, 0.0) * settings.fps));
}

ReplayWriter::ReplayWriter(
    std::shared_ptr<const ReplayFrames> frames, std::unique_ptr<VideoWriter> video, ReplaySettings s)
    : m_frames(std::move(frames))
    , m_video(std::move(video))
    , m_settings(s)
{
}

Result<std::unique_ptr<ReplayWriter>> ReplayWriter::open(
    const QString& path, std::shared_ptr<const ReplayFrames> frames, const ReplaySettings& settings)
{
    const std::string file = path.toStdString();
    const auto format = videoFormatOf(file);
    if (!format)
        return Error { file + ": a replay is written as .mp4 or .gif" };
    if (!frames || frames->days().empty())
        return Error { file + ": the scope has no run dates to replay: nothing was written" };
    // a folder that is not there is found before the frames are drawn, not when the file is written at the end
    const std::filesystem::path folder = std::filesystem::absolute(std::filesystem::path(file)).parent_path();
    if (std::error_code ec; !std::filesystem::is_directory(folder, ec))
        return Error { file + ": the folder " + folder.string() + " does not exist: nothing was written" };
    if (::access(folder.c_str(), W_OK) != 0)
        return Error { file + ": cannot write in " + folder.string() + ": " + std::strerror(errno) };
    if (settings.holdSeconds < 0 || settings.holdSeconds > 60)
        return Error { file + ": a hold of " + shortNumber(settings.holdSeconds) + " s: it must be 0 to 60" };
    auto video = VideoWriter::open(file,
        VideoSettings { settings.size.width(), settings.size.height(), settings.fps, *format, settings.encoderThreads,
            settings.encoderNice });
    if (!video)
        return Error { video.error() };
    return std::unique_ptr<ReplayWriter>(new ReplayWriter(std::move(frames), std::move(*video), settings));
}

Status ReplayWriter::step()
{
    if (allDrawn())
        return ok();
    return add(*stageNext());
}

std::unique_ptr<StagedExport> ReplayWriter::stageNext() const
{
    if (allDrawn())
        return nullptr;
    return m_frames->stage(m_frames->days()[m_next], m_settings.size);
}

Status ReplayWriter::add(StagedExport& staged)
{
    const std::vector<int>& days = m_frames->days();
    if (allDrawn())
        return Error { "every day of the replay is drawn already" };
    const QImage image = staged.render();
    if (image.isNull() || image.size() != m_settings.size)
        return Error { "the chart of " + dayText(days[m_next]) + " could not be drawn at "
            + std::to_string(m_settings.size.width()) + " x " + std::to_string(m_settings.size.height()) };
    const bool last = m_next + 1 == days.size();
    if (Status st = m_video->addFrame(
            image.constBits(), static_cast<int>(image.bytesPerLine()), last ? lastFrameRepeats(m_settings) : 1);
        !st)
        return st;
    ++m_next;
    return ok();
}

Status ReplayWriter::finish()
{
    if (!allDrawn())
        return Error { "the replay is not drawn whole yet" };
    return m_video->finish();
}

} // namespace paretoscope::ui
