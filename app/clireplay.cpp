// `replay`: a view's as-of replay written as a video (docs/report.md): one frame per run date, the explorer's chart as
// exported as of that date (widgets/chart/replayframes.*), encoded by core/output/videowriter.* as MP4 or GIF.
#include "app/clireplay.h"

#include <QApplication>
#include <QFile>
#include <QTemporaryDir>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include <unistd.h>

#include "core/analysis/scopeaccuracy.h"
#include "core/analysis/viewoptions.h"
#include "core/model/runselection.h"
#include "core/store/evaluationstore.h"
#include "widgets/chart/replayframes.h"
#include "widgets/common/displaynames.h"

namespace paretoscope::cli {

std::map<std::string, bool> replayOptions()
{
    std::map<std::string, bool> options(viewOptionSpec().begin(), viewOptionSpec().end());
    options.erase("format");
    options.erase("baseline");
    for (const char* name : { "db", "target", "out", "fps", "size", "hold" })
        options[name] = true;
    return options;
}

namespace {

struct ReplayInputs {
    ViewOptions view;
    double target = 50;
    std::string out;
    ui::ReplaySettings settings;
};

bool readInputs(const Args& a, ReplayInputs& in, std::string& error)
{
    auto view = viewFromOptions(a.options);
    if (!view) {
        error = view.error();
        return false;
    }
    in.view = std::move(*view);
    if (a.has("targets")) // a view's command pasted: its first target
        in.target = in.view.request.targets.front();
    if (!targetOption(a, in.target, error))
        return false;
    in.out = a.value("out").value_or("");
    const auto format = videoFormatOf(in.out);
    if (!format) {
        error = "replay needs --out FILE.mp4 or --out FILE.gif (the replay as an H.264 video, or as an animated GIF)";
        return false;
    }
    if (auto f = a.value("fps")) {
        auto v = parseInt(*f);
        if (!v || *v < 1 || *v > 60) {
            error = "--fps must be a whole number of frames a second, 1 to 60, got '" + *f + "'";
            return false;
        }
        in.settings.fps = *v;
    }
    if (auto s = a.value("size")) {
        const auto x = s->find('x');
        const auto w = x == std::string::npos ? std::nullopt : parseInt(s->substr(0, x));
        const auto h = x == std::string::npos ? std::nullopt : parseInt(s->substr(x + 1));
        if (!w || !h) {
            error = "--size must be WIDTHxHEIGHT in pixels, e.g. 1920x1080, got '" + *s + "'";
            return false;
        }
        in.settings.size = QSize(*w, *h);
    }
    if (auto h = a.value("hold")) {
        auto v = parseDouble(*h);
        if (!v || *v < 0 || *v > 60) {
            error = "--hold must be 0 to 60 seconds (how long the last date stays), got '" + *h + "'";
            return false;
        }
        in.settings.holdSeconds = *v;
    }
    const std::string problem = videoSettingsProblem(
        VideoSettings { in.settings.size.width(), in.settings.size.height(), in.settings.fps, *format });
    if (!problem.empty()) {
        error = "--size/--fps: " + problem;
        return false;
    }
    return true;
}

} // namespace

int cmdReplay(const Invocation& in)
{
    ReplayInputs inputs;
    std::string error;
    if (!readInputs(in.args, inputs, error))
        return usageError(error);
    auto store = in.store();
    if (!store)
        return 1;
    Scope& scope = inputs.view.request.scope;
    if (!resolveModel(*store, scope.model))
        return 1;
    Scope everyDay = scope;
    everyDay.asOf.clear();
    auto timeline
        = std::make_shared<const ScopeTimeline>(ScopeTimeline::load(*store, everyDay, inputs.view.request.metric));
    if (readFailed(*store))
        return 1;
    if (timeline->runCount() == 0)
        return emptyScope(*store, scope);

    ui::ReplayScope replay { timeline, scope, timeline->series(), inputs.view.request.metric, {} };
    // each day's data as the window has it: the model's evaluations, the requirement judged as of the day, the task
    auto evaluations = std::make_shared<const EvaluationIndex>(storedEvaluations(*store, scope.model));
    if (!accuracyTaskKnown(*evaluations, inputs.view.request.accuracyTask, scope.model))
        return 1;
    replay.prepare = [evaluations, requirement = inputs.view.request.accuracy, task = inputs.view.request.accuracyTask](
                         ScopeData& data) {
        data.evaluations = evaluations;
        if (requirement)
            requireAccuracy(data, *requirement);
        chooseAccuracyTask(data, task);
    };
    // Qt draws the charts on its offscreen platform: a replay needs no display
    qputenv("QT_QPA_PLATFORM", "offscreen");
    // Qt asks for a runtime folder as it starts: without XDG_RUNTIME_DIR it makes $TMPDIR/runtime-$USER, kept, and
    // warns. The replay gives it one of its own (0700), removed when the replay ends.
    std::optional<QTemporaryDir> runtime;
    if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) {
        runtime.emplace();
        if (runtime->isValid())
            qputenv("XDG_RUNTIME_DIR", QFile::encodeName(runtime->path()));
    }
    int qtArgc = 1;
    char name[] = "paretoscope-cli";
    char* qtArgv[] = { name, nullptr };
    QApplication app(qtArgc, qtArgv);

    ui::ReplayLook look;
    look.state.target = inputs.target;
    look.state.hideSparse = inputs.view.request.hideSparse;
    look.state.reading = inputs.view.request.reading;
    look.state.request.price = inputs.view.request.price;
    look.priceLabel = ui::priceChoiceLabel(inputs.view.request.price, bundledPricing());
    look.storeName = QString::fromStdString(std::filesystem::path(store->path()).filename().string());
    auto frames = std::make_shared<const ui::ReplayFrames>(std::move(replay), look, bundledPricing());
    if (frames->days().empty()) {
        std::cerr << "paretoscope-cli: the scope has no runs dated on or before " << scope.asOf
                  << ": nothing to replay\n";
        return 1;
    }
    auto writer = ui::ReplayWriter::open(QString::fromStdString(inputs.out), frames, inputs.settings);
    if (!writer) {
        std::cerr << "paretoscope-cli: " << writer.error() << "\n";
        return 1;
    }
    const bool terminal = ::isatty(STDERR_FILENO);
    while (!(*writer)->allDrawn()) {
        if (Status st = (*writer)->step(); !st) {
            std::cerr << (terminal ? "\n" : "") << "paretoscope-cli: " << st.error() << "\n";
            return 1;
        }
        if (terminal)
            std::cerr << "\rreplay: " << (*writer)->daysDone() << " of " << (*writer)->dayCount() << " run dates"
                      << std::flush;
    }
    if (terminal)
        std::cerr << "\n";
    if (Status st = (*writer)->finish(); !st) {
        std::cerr << "paretoscope-cli: " << st.error() << "\n";
        return 1;
    }
    const std::vector<int>& days = frames->days();
    nlohmann::json out { { "replay", inputs.out }, { "days", days.size() }, { "frames", (*writer)->frames() },
        { "first", dayText(days.front()) }, { "last", dayText(days.back()) }, { "width", inputs.settings.size.width() },
        { "height", inputs.settings.size.height() }, { "fps", inputs.settings.fps } };
    std::cout << out.dump() << "\n";
    return 0;
}

} // namespace paretoscope::cli
