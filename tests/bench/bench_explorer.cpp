// The explorer with a big store: start to first drawn chart, and a slider step (value change to the repainted
// readout and chart with its marker). Prints figures; not a pass/fail test.
// Usage: bench_explorer [RUNS (default 1000000)]   (runs offscreen unless QT_QPA_PLATFORM says otherwise)
#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QSettings>
#include <QSlider>
#include <QTemporaryDir>
#include <algorithm>
#include <cstdio>

#include "core/import/bundled.h"
#include "core/import/importer.h"
#include "tests/support/agggenerator.h"
#include "widgets/mainwindow.h"

using namespace paretoscope;

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const std::uint64_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
    QTemporaryDir dir;
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.filePath("settings"));
    QCoreApplication::setOrganizationName("ParetoscopeBench");

    const std::string data = dir.filePath("agg.json").toStdString(), db = dir.filePath("store.sqlite").toStdString();
    std::printf("generating %llu records...\n", static_cast<unsigned long long>(n));
    testsupport::writeAggArray(data, n);
    {
        auto store = openStore(db, true);
        QElapsedTimer t;
        t.start();
        auto out = importPath(**store, data, {});
        std::printf("imported %llu runs in %.1f s; %lld runs in the store\n",
            static_cast<unsigned long long>(out[0].result ? out[0].result->imported : 0), t.elapsed() / 1000.0,
            (*store)->runCount());
    }
    {
        // open on the biggest synthetic scope, all precisions shown
        QSettings s;
        s.setValue("scope/model", "synthetic/model-0");
        s.setValue("scope/workload", "random 1k/1k");
        s.setValue("scope/isl", 1024);
        s.setValue("scope/osl", 1024);
        s.setValue("filters/unchecked", QStringList { "precision:\x1f" });
    }

    QElapsedTimer start;
    start.start();
    auto store = openStore(db, false);
    ui::MainWindow window(std::move(*store));
    window.resize(1600, 1000);
    window.show();
    QEventLoop loop;
    QObject::connect(&window, &ui::MainWindow::scopeShown, &loop, &QEventLoop::quit);
    loop.exec();
    window.grab(); // paints everything once, the chart with its run cloud included
    const double startMs = start.nsecsElapsed() / 1e6;
    const auto& chart = window.chartPanel()->chart()->chartData();
    std::printf("start to first drawn chart: %.0f ms (%zu runs in scope, %zu drawn after thinning)\n", startMs,
        chart.runsInScope, chart.runsDrawn);

    QSlider* slider = window.readout()->slider();
    std::vector<double> steps;
    for (int i = 0; i < 400; ++i) {
        // a drag: across the whole range and back, 5 of the slider's 1000 steps at a time
        const int sweep = (i * 5) % (2 * slider->maximum());
        const int pos = sweep <= slider->maximum() ? sweep : 2 * slider->maximum() - sweep;
        QElapsedTimer t;
        t.start();
        slider->setValue(pos);
        // what the step made dirty is painted as the event loop would: the scene's update, then the views' paint
        // events (only the changed regions, as for a user)
        for (int k = 0; k < 3; ++k)
            QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
        steps.push_back(t.nsecsElapsed() / 1e6);
    }
    std::sort(steps.begin(), steps.end());
    std::printf("slider step while dragging (value to repainted readout, chart and marker), %zu steps: median %.2f ms, "
                "p90 %.2f ms, max %.2f ms\n",
        steps.size(), steps[steps.size() / 2], steps[steps.size() * 9 / 10], steps.back());
    return 0;
}
