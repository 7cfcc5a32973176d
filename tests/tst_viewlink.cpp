// A view anyone can reopen, and the chart's TTFT axes, on the InferenceX fixture (offscreen): the command "Copy view
// as command" puts on the clipboard prints, through the real CLI, what the readout shows; the same text applied (as
// pasted, or by `paretoscope --view`) brings the readout back; a bad paste changes nothing and says why; median and
// p99 TTFT draw frontiers at the runs' stored TTFT.
#include <QtTest>

#include <QAction>
#include <QClipboard>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLogValueAxis>
#include <QProcess>
#include <QSettings>
#include <QSlider>
#include <QStatusBar>
#include <map>

#include "core/import/bundled.h"
#include "core/import/importer.h"
#include "core/model/runselection.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"
#include "widgets/filters/rundatescontrol.h"
#include "widgets/filters/slolimits.h"
#include "widgets/plan/planpanel.h"
#include "widgets/readout/readoutmodel.h"
#include "widgets/window/mainwindow.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;

namespace {

// What the readout shows of one hardware: the reading, its cost, the engine, the ratio to the baseline.
struct Shown {
    std::optional<double> tput, cost;
    std::string engine, status;
    bool operator==(const Shown&) const = default;
};

std::map<std::string, Shown> shownReadings(const MainWindow& w)
{
    std::map<std::string, Shown> out;
    for (const HardwareLadder& l : w.readout()->model()->readings()) {
        const LadderRow& r = l.rows.front();
        const auto g = r.group(); // of the reading chosen, as the CLI's tput_per_gpu and engine are
        out[l.hardware]
            = { r.value(), r.costPerMTok, g ? g->engine : std::string(), std::string(statusName(r.entry.status)) };
    }
    return out;
}

std::string command(const MainWindow& w)
{
    auto v = w.currentView();
    return v ? viewCommand(*v) : "error: " + v.error();
}

} // namespace

class TestViewLink : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_db;
    std::unique_ptr<MainWindow> m_window;
    std::string m_asOf; // the view's as-of day (setUpAView)

    bool waitShown()
    {
        QSignalSpy spy(m_window.get(), &MainWindow::scopeShown);
        return spy.wait(20000);
    }

    // Waits until a view being applied is drawn whole.
    bool waitView()
    {
        for (int i = 0; i < 10 && m_window->viewPending(); ++i)
            waitShown();
        return !m_window->viewPending();
    }

    QAction* action(const QString& text)
    {
        for (QAction* a : m_window->findChildren<QAction*>())
            if (a->text().remove(u'&') == text)
                return a;
        return nullptr;
    }

    QListWidgetItem* filterItem(const QString& text)
    {
        for (QListWidget* l : m_window->filters()->findChildren<QListWidget*>())
            for (int r = 0; r < l->count(); ++r)
                if (l->item(r)->text() == text)
                    return l->item(r);
        return nullptr;
    }

    // A view with something of every kind set by hand, as a planner leaves it: 8k/1k, H100 unticked, FP8 ticked, every
    // run as of a day in March, 40 tok/s/user, a custom price, output tokens, sparse readings hidden.
    void setUpAView()
    {
        QVERIFY(m_window->filters()->selectScope(QStringLiteral("dsr1"), {}, 8192, 1024));
        for (int i = 0; i < 5 && m_window->scopeData()->scope.isl.value_or(0) != 8192; ++i)
            QVERIFY(waitShown());
        QListWidgetItem* h100 = filterItem(QStringLiteral("H100"));
        QVERIFY(h100);
        h100->setCheckState(Qt::Unchecked);
        QVERIFY(waitShown());
        QListWidgetItem* fp8 = filterItem(QStringLiteral("FP8")); // off by default beside FP4: every precision on
        QVERIFY(fp8 && fp8->checkState() == Qt::Unchecked);
        fp8->setCheckState(Qt::Checked);
        QVERIFY(waitShown());
        RunDatesControl* dates = m_window->filters()->runDates();
        dates->setRuns(RunSelection::All);
        QVERIFY(waitShown());
        dates->setAsOf("2026-03-10"); // built from the runs in memory: shown before it returns
        // the slider stands on the scope's last run date on or before the day asked for
        int day = 0;
        for (int d : dates->days())
            day = d <= 20260310 ? d : day;
        QVERIFY(day > 20260101);
        m_asOf = dayText(day);
        QCOMPARE(m_window->scopeData()->scope.asOf, m_asOf);
        m_window->readout()->setMetric(TputMetric::Output);
        QVERIFY(waitShown());
        m_window->readout()->setTarget(40);
        m_window->readout()->setPrice({}, 3.1);
        m_window->readout()->setHideSparse(true);
    }

private slots:
    void initTestCase()
    {
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.filePath(QStringLiteral("settings")));
        QCoreApplication::setOrganizationName(QStringLiteral("ParetoscopeTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_viewlink"));
        m_db = m_dir.filePath(QStringLiteral("store.sqlite"));
        auto store = openStore(m_db.toStdString(), false);
        QVERIFY(store.ok());
        QVERIFY(importPath(**store, fixture(QStringLiteral("inferencex-app-api/benchmarks.json")).toStdString(), {})[0]
                    .result.ok());
        m_window = std::make_unique<MainWindow>(std::move(*store));
        m_window->setShowImportResults(false);
        m_window->setWindowState(Qt::WindowNoState);
        m_window->resize(1366, 768);
        m_window->show();
        QVERIFY(waitShown());
    }

    // The copied line, run by the real CLI, prints for each hardware the reading, cost and engine the readout shows.
    void copiedCommandPrintsWhatTheReadoutShows()
    {
        setUpAView();
        QAction* copy = action(QStringLiteral("Copy view as command"));
        QVERIFY(copy);
        QCOMPARE(copy->shortcut(), QKeySequence(QStringLiteral("Ctrl+Alt+C")));
        copy->trigger();
        const QString copied = QGuiApplication::clipboard()->text();
        QCOMPARE(copied.toStdString(), command(*m_window));
        QVERIFY2(m_window->statusBar()->currentMessage().contains(copied), qPrintable(copied));
        for (const std::string& part : std::vector<std::string> {
                 "paretoscope-cli ladder --model dsr1 --isl 8192 --osl 1024", "--runs all", "--as-of " + m_asOf,
                 "--targets 40", "--price 3.1", "--metric output", "--hide-sparse", "--hardware b200" })
            QVERIFY2(copied.contains(QString::fromStdString(part)),
                qPrintable(QString::fromStdString(part) + QStringLiteral(" not in ") + copied));
        QVERIFY2(!copied.contains(QStringLiteral("h100")) && !copied.contains(QStringLiteral("--precision")),
            qPrintable(copied));

        auto words = splitCommandLine(copied.toStdString());
        QVERIFY(words);
        QStringList args;
        for (std::size_t i = 1; i < words->size(); ++i)
            args << QString::fromStdString(words->at(i));
        QProcess cli;
        cli.start(cliProgram(),
            args + QStringList { QStringLiteral("--db"), m_db, QStringLiteral("--format"), QStringLiteral("json") });
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        const QJsonObject printed = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
        const auto shown = shownReadings(*m_window);
        QCOMPARE(std::size_t(printed.size()), shown.size());
        int read = 0;
        for (const auto& [hw, s] : shown) {
            const QJsonObject row = printed[QString::fromStdString(hw)].toArray().at(0).toObject();
            QCOMPARE(row[QStringLiteral("target")].toDouble(), 40.0);
            QCOMPARE(row[QStringLiteral("status")].toString().toStdString(), s.status);
            QCOMPARE(row[QStringLiteral("tput_per_gpu")].isNull(), !s.tput.has_value());
            QCOMPARE(row[QStringLiteral("cost_per_mtok")].isNull(), !s.cost.has_value());
            if (s.tput) { // the same doubles: one computeLadder on both sides
                QCOMPARE(row[QStringLiteral("tput_per_gpu")].toDouble(), *s.tput);
                QCOMPARE(row[QStringLiteral("engine")].toString().toStdString(), s.engine);
                ++read;
            }
            if (s.cost)
                QCOMPARE(row[QStringLiteral("cost_per_mtok")].toDouble(), *s.cost);
        }
        QVERIFY(read >= 3);
    }

    // The copied text applied to a window moved elsewhere brings back the same readout, filters and run dates; the
    // window then copies the same line again.
    void appliedViewRestoresTheReadout()
    {
        const std::string copied = command(*m_window);
        const auto shown = shownReadings(*m_window);
        const Scope scope = m_window->scopeData()->scope;
        const QString baseline = m_window->readout()->baseline();
        QVERIFY(!baseline.isEmpty());
        // elsewhere: another scope, latest runs, another target, tier and metric, every filter on
        QVERIFY(m_window->filters()->selectScope(QStringLiteral("dsr1"), {}, 1024, 1024));
        for (int i = 0; i < 5 && m_window->scopeData()->scope.isl.value_or(0) != 1024; ++i)
            QVERIFY(waitShown());
        m_window->filters()->resetFilters();
        QVERIFY(waitShown());
        m_window->filters()->runDates()->setRuns(RunSelection::Latest);
        QVERIFY(waitShown());
        m_window->readout()->setMetric(TputMetric::Total);
        QVERIFY(waitShown());
        m_window->readout()->setTarget(80);
        m_window->readout()->setPrice(QString::fromStdString(bundledPricing().defaultTier().key), 2);
        m_window->readout()->setHideSparse(false);
        QVERIFY(command(*m_window) != copied);

        // pasted with Ctrl+V where no text box has the focus
        QGuiApplication::clipboard()->setText(QString::fromStdString(copied));
        QAction* paste = action(QStringLiteral("Open view from clipboard"));
        QVERIFY(paste);
        QCOMPARE(paste->shortcut(), QKeySequence(QKeySequence::Paste));
        paste->trigger();
        QVERIFY(waitView());
        QCOMPARE(command(*m_window), copied);
        QCOMPARE(m_window->scopeData()->scope, scope);
        QCOMPARE(m_window->readout()->target(), 40.0);
        // the Plan tab plans at the view's target and price too (the readout's signals are quiet while a view lands)
        QCOMPARE(m_window->plan()->request().target, 40.0);
        QVERIFY(m_window->plan()->request().price.customUsdPerGpuHour == 3.1);
        QCOMPARE(m_window->readout()->baseline(), baseline);
        QVERIFY(m_window->readout()->price().customUsdPerGpuHour == 3.1);
        QCOMPARE(m_window->filters()->runDates()->runs(), RunSelection::All);
        QVERIFY(
            filterItem(QStringLiteral("H100")) && filterItem(QStringLiteral("H100"))->checkState() == Qt::Unchecked);
        QVERIFY(filterItem(QStringLiteral("B200")) && filterItem(QStringLiteral("B200"))->checkState() == Qt::Checked);
        QVERIFY(shownReadings(*m_window) == shown);
    }

    // A view given in other words lands on the same state: options only, `--name=value`, over several lines.
    void otherSpellingsOfAViewOpenToo()
    {
        const std::string before = command(*m_window);
        QVERIFY(m_window
                    ->openViewText(QStringLiteral("--model=dsr1 --isl 1024 --osl 1024 \\\n  --targets 25,50 --tier ")
                        + QString::fromStdString(bundledPricing().defaultTier().key))
                    .ok());
        QVERIFY(waitView());
        QCOMPARE(m_window->scopeData()->scope.isl, std::optional<int>(1024));
        QCOMPARE(m_window->scopeData()->scope.asOf, std::string());
        QCOMPARE(m_window->scopeData()->scope.runs, RunSelection::Latest); // the CLI's default
        QVERIFY(m_window->scopeData()->scope.hardware.empty()); // every filter on: the command names none
        QCOMPARE(m_window->readout()->target(), 25.0);
        QCOMPARE(m_window->ladder()->targets(), (std::vector<double> { 25, 50 }));
        QVERIFY(m_window->openViewText(QString::fromStdString("paretoscope --view " + shellQuote(before))).ok());
        QVERIFY(waitView());
        QCOMPARE(command(*m_window), before);
    }

    // A pasted command that does not parse, or names a scope the store lacks, changes nothing; the status bar says
    // why in the parser's words.
    void badPasteLeavesTheViewAndSaysWhy()
    {
        const std::string before = command(*m_window);
        const auto shown = shownReadings(*m_window);
        const std::pair<const char*, const char*> cases[] = {
            { "paretoscope-cli ladder --model dsr1 --isl 8192 --osl 1024 --runs newest",
                "--runs must be latest (per curve, the InferenceX site's rule), latest-per-configuration or all, got "
                "'newest'" },
            { "paretoscope-cli ladder --model dsr1 --isl 8192 --osl 1024 --bogus", "a view has no option --bogus" },
            { "paretoscope-cli ladder --model nope --isl 8192 --osl 1024", "the store has no runs of nope" },
            { "paretoscope-cli ladder --model dsr1 --isl 8192 --osl 1024 --tier cheapest",
                "the pricing has no tier 'cheapest'" },
            { "--model 'dsr1", "unclosed ' quote" },
            { "hello world", "a view takes only --options" },
        };
        for (const auto& [text, why] : cases) {
            QGuiApplication::clipboard()->setText(QString::fromLatin1(text));
            action(QStringLiteral("Open view from clipboard"))->trigger();
            const QString message = m_window->statusBar()->currentMessage();
            QVERIFY2(message.startsWith(QStringLiteral("No view opened: ")) && message.contains(QLatin1String(why)),
                qPrintable(message));
            QVERIFY(!m_window->viewPending());
            QCOMPARE(command(*m_window), before);
            QVERIFY(shownReadings(*m_window) == shown);
        }
    }

    // `paretoscope --view`: a view that does not parse says so and exits 2; one that does opens on that view.
    void guiOpensOnAViewOrRefusesIt()
    {
        QProcess bad;
        bad.start(guiProgram(),
            { QStringLiteral("--db"), m_db, QStringLiteral("--view"),
                QStringLiteral("--model dsr1 --isl 8192 --osl 1024 --targets -3") });
        QVERIFY(bad.waitForFinished(30000));
        QCOMPARE(bad.exitCode(), 2);
        QVERIFY2(bad.readAllStandardError().contains("--view: --targets must be numbers above zero"), "stderr");
        QProcess good;
        const QString shot = m_dir.filePath(QStringLiteral("view.png"));
        good.start(guiProgram(),
            { QStringLiteral("--db"), m_db, QStringLiteral("--view"), QString::fromStdString(command(*m_window)),
                QStringLiteral("--screenshot"), shot, QStringLiteral("--size"), QStringLiteral("1366x768") });
        QVERIFY(good.waitForFinished(60000));
        QCOMPARE(good.exitCode(), 0);
        QVERIFY(QImage(shot).width() == 1366);
    }

    // Median and p99 TTFT on x: the axis says which, no target marker stands on it, and each frontier point is a
    // run at its stored TTFT that no run of its group beats on both TTFT and tok/s/GPU.
    void ttftAxesDrawTheRunsTtft()
    {
        auto reader = openStore(m_db.toStdString(), false);
        QVERIFY(reader.ok());
        auto* x = m_window->chartPanel()->findChildren<QComboBox*>().front();
        for (const auto& [which, title] : { std::pair { ChartX::TtftMedian, "Time to first token, median (s)" },
                 std::pair { ChartX::TtftP99, "Time to first token, p99 (s)" } }) {
            x->setCurrentIndex(x->findData(int(which)));
            QCOMPARE(m_window->chartPanel()->state().request.x, which);
            FrontierChart* chart = m_window->chartPanel()->chart();
            QAbstractAxis* ax = chart->axes(Qt::Horizontal).front();
            QCOMPARE(ax->titleText(), QString::fromLatin1(title));
            auto* log = qobject_cast<QLogValueAxis*>(ax); // Log x is on: TTFT spans decades
            QVERIFY(log && log->min() > 0 && log->max() > log->min());
            QVERIFY(!chart->marker().isVisible());
            const ChartData& d = chart->chartData();
            int checked = 0;
            for (const auto& serie : d.series) {
                const auto& frontier = serie.frontier;
                for (std::size_t k = 1; k < frontier.size(); ++k) // TTFT ascending, tok/s/GPU rising with it
                    QVERIFY(frontier[k].x > frontier[k - 1].x && frontier[k].y > frontier[k - 1].y);
                for (const Point& p : frontier) {
                    const auto stored = (*reader)->runs({ p.runId });
                    QCOMPARE(stored.size(), std::size_t(1));
                    const LatencyStats& ttft = stored.front().record.ttft;
                    const auto want = which == ChartX::TtftMedian ? ttft.median : ttft.p99;
                    QVERIFY(want);
                    QCOMPARE(p.x, *want); // seconds, as stored
                    for (const Point& r : serie.runs) // dominated by none of its group's runs that count
                        QVERIFY(r.marked || !(r.x <= p.x && r.y > p.y));
                    ++checked;
                }
            }
            QVERIFY(checked >= 5);
            const QString svg = m_dir.filePath(QStringLiteral("ttft.svg"));
            QVERIFY(m_window->exportChartSvg(svg, QSize(900, 560)).ok());
            const QByteArray written = readAll(svg);
            QVERIFY(written.contains(title));
            QVERIFY(m_window->chartCaption().subtitle.contains(
                which == ChartX::TtftMedian ? QLatin1String("vs median TTFT") : QLatin1String("vs p99 TTFT")));
        }
        // kept between sessions, by name
        m_window->close();
        m_window.reset();
        auto store = openStore(m_db.toStdString(), false);
        QVERIFY(store.ok());
        m_window = std::make_unique<MainWindow>(std::move(*store));
        QCOMPARE(m_window->chartPanel()->state().request.x, ChartX::TtftP99);
        QCOMPARE(QSettings().value("chart/x").toString(), QStringLiteral("ttft-p99"));
    }

    // The filter panel's service-level limits feed the scope, are said under the chart, travel in the copied
    // command and back, and are kept between sessions.
    void sloLimitsTravelWithTheView()
    {
        m_window->resize(1366, 768);
        m_window->show();
        QVERIFY(waitShown());
        QVERIFY(m_window->openViewText(QStringLiteral("--model dsr1 --isl 1024 --osl 1024")).ok());
        QVERIFY(waitView());
        SloLimits* limits = m_window->filters()->limits();
        limits->ttftStatBox()->setCurrentIndex(limits->ttftStatBox()->findData(int(LatencyStat::P99)));
        limits->ttftBox()->setValue(2.0);
        QVERIFY(waitShown());
        limits->tpotBox()->setValue(0.05);
        QVERIFY(waitShown());
        const Scope scope = m_window->scopeData()->scope;
        QCOMPARE(scope.ttftMax, std::optional<double>(2.0));
        QCOMPARE(scope.ttftStat, LatencyStat::P99);
        QCOMPARE(scope.tpotMax, std::optional<double>(0.05));
        const std::string copied = command(*m_window);
        QVERIFY2(copied.find("--ttft-max 2 --ttft-stat p99 --tpot-max 0.05") != std::string::npos, copied.c_str());
        // every run drawn meets the limits, and the note under the chart says they hold
        auto reader = openStore(m_db.toStdString(), false);
        QVERIFY(reader.ok());
        std::vector<long long> ids = m_window->scopeData()->selectedRunIds();
        QVERIFY(!ids.empty());
        for (const StoredRun& r : (*reader)->runs(ids))
            QVERIFY(r.record.ttft.p99 && *r.record.ttft.p99 <= 2.0 && r.record.tpot.median
                && *r.record.tpot.median <= 0.05);
        QVERIFY(m_window->chartCaption().subtitle.contains(QStringLiteral("TTFT ≤ 2 s (p99)")));
        const QStringList notes = [&] {
            QStringList out;
            for (QLabel* l : m_window->chartPanel()->findChildren<QLabel*>())
                out << l->text();
            return out;
        }();
        QVERIFY2(notes.join(u'\n').contains(QStringLiteral("Only runs within TTFT ≤ 2 s (p99), TPOT ≤ 0.05 s count")),
            qPrintable(notes.join(u'\n')));
        // a view without limits clears them; the copied one brings them back
        QVERIFY(m_window->openViewText(QStringLiteral("--model dsr1 --isl 1024 --osl 1024")).ok());
        QVERIFY(waitView());
        QVERIFY(!m_window->scopeData()->scope.ttftMax && !m_window->scopeData()->scope.tpotMax);
        QVERIFY(limits->ttftBox()->lineEdit()->text().isEmpty()); // shown as "no limit"
        QCOMPARE(limits->ttftBox()->lineEdit()->placeholderText(), QStringLiteral("no limit"));
        QVERIFY(m_window->openViewText(QString::fromStdString(copied)).ok());
        QVERIFY(waitView());
        QCOMPARE(m_window->scopeData()->scope, scope);
        QCOMPARE(command(*m_window), copied);
        // kept between sessions
        m_window->close();
        m_window.reset();
        auto store = openStore(m_db.toStdString(), false);
        QVERIFY(store.ok());
        m_window = std::make_unique<MainWindow>(std::move(*store));
        Scope restored;
        m_window->filters()->limits()->applyTo(restored);
        QCOMPARE(restored.ttftMax, scope.ttftMax);
        QCOMPARE(restored.ttftStat, scope.ttftStat);
        QCOMPARE(restored.tpotMax, scope.tpotMax);
    }

    void cleanupTestCase() { m_window.reset(); }
};

PARETOSCOPE_SUITE(TestViewLink)
#include "tests/support/testpaths.h"
#include "tst_viewlink.moc"
