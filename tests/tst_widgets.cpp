// The explorer on the offscreen platform: the readout against the CLI, tiers and the custom price, the legend, the
// marker, exports, item models, import errors, and the screenshot of the main window on the bundled dataset.
#include <QHelpEvent>
#include <QListWidget>
#include <QToolTip>
#include <QtTest>

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QProcess>
#include <QSettings>
#include <QSlider>
#include <QSvgRenderer>
#include <QTextDocument>
#include <map>
#include <set>
#include <tuple>

#include "core/analysis/numberformat.h"
#include "core/analysis/pricing.h"
#include "core/import/bundled.h"
#include "core/import/importer.h"
#include "core/model/runselection.h"
#include "core/output/reports.h"
#include "tests/support/agggenerator.h"
#include "tests/support/simprocess.h"
#include "tests/support/sweeprecords.h"
#include "tests/support/testutil.h"
#include "widgets/chartexport.h"
#include "widgets/displaynames.h"
#include "widgets/groupstyle.h"
#include "widgets/hardwarecolors.h"
#include "widgets/mainwindow.h"
#include "widgets/runcloud.h"
#include "widgets/rundatescontrol.h"
#include "widgets/sessiondialog.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;

namespace {

constexpr double kRel = 1e-12; // the same double arithmetic on both sides

bool near(double a, double b)
{
    return std::abs(a - b) <= kRel * std::max(std::abs(a), std::abs(b));
}

// One column of a CSV written by core (no quoted commas in these columns).
QStringList csvColumn(const QByteArray& csv, const QString& header)
{
    const QList<QByteArray> lines = csv.trimmed().split('\n');
    const QStringList head = QString::fromUtf8(lines.value(0)).split(',');
    const int col = head.indexOf(header);
    QStringList out;
    for (int i = 1; i < lines.size() && col >= 0; ++i)
        out << QString::fromUtf8(lines[i]).split(',').value(col);
    return out;
}

// A scope of many hardware made in memory: per hardware two engines (SGLang, TRT-LLM) at FP4 and one (SGLang) at
// FP8, each a frontier of five runs from 10 to 160 tok/s/user; which engine is the best at 50 alternates.
std::shared_ptr<ScopeData> manyHardware(const std::vector<std::string>& hardware)
{
    auto d = std::make_shared<ScopeData>();
    long long id = 1;
    for (std::size_t k = 0; k < hardware.size(); ++k)
        for (const auto& [engine, precision] :
            { std::pair { "sglang", "fp4" }, { "sglang", "fp8" }, { "trt", "fp4" } }) {
            const GroupKey key { hardware[k], engine, precision, "none" };
            const double scale = 1000.0 * double(k + 1) * (std::string(precision) == "fp8" ? 0.5 : 1.0)
                * (std::string(engine) == "trt" ? (k % 2 ? 1.2 : 0.8) : 1.0);
            GroupRuns runs { key, {} };
            std::vector<Point> candidates;
            for (double x : { 10.0, 20.0, 40.0, 80.0, 160.0 }) {
                runs.points.push_back(RunPoint { x, scale * 200 / x, 1.0, id, false });
                candidates.push_back(Point { x, scale * 200 / x, id++ });
            }
            d->runCount += runs.points.size();
            d->frontiers.push_back(*makeGroupFrontier(key, std::move(candidates)));
            d->runs.push_back(std::move(runs));
        }
    return d;
}

} // namespace

class TestWidgets : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_db;
    std::unique_ptr<MainWindow> m_window;

    bool waitShown()
    {
        QSignalSpy spy(m_window.get(), &MainWindow::scopeShown);
        return spy.wait(10000);
    }

    // Moves the slider, as a user drags it, until the target reads `target`.
    bool slideTo(double target)
    {
        QSlider* s = m_window->readout()->slider();
        for (int p = s->minimum(); p <= s->maximum(); ++p) {
            s->setValue(p);
            if (m_window->readout()->target() == target)
                return true;
        }
        return false;
    }

    const LadderRow* readoutRow(const std::string& hw)
    {
        for (const auto& l : m_window->readout()->model()->readings())
            if (l.hardware == hw)
                return &l.rows.front();
        return nullptr;
    }

private slots:
    void initTestCase()
    {
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.filePath("settings"));
        QCoreApplication::setOrganizationName("ParetoscopeTest");
        QCoreApplication::setApplicationName("tst_widgets");
        m_db = m_dir.filePath("store.sqlite");
        auto store = openStore(m_db.toStdString(), true); // a new store gets the bundled dataset
        QVERIFY2(store.ok(), store.ok() ? "" : store.error().c_str());
        m_window = std::make_unique<MainWindow>(std::move(*store));
        m_window->setShowImportResults(false);
        m_window->resize(1600, 1000);
        m_window->show();
        QVERIFY(waitShown());
    }

    void sliderAt50ShowsWhatTheCliPrints()
    {
        QVERIFY(slideTo(50));
        QProcess cli;
        cli.start(PARETOSCOPE_CLI,
            { "ladder", "--db", m_db, "--model", QString::fromStdString(std::string(kBundledModel)), "--workload",
                QString::fromStdString(std::string(kBundledWorkload)), "--targets", "50", "--format", "json",
                "--baseline", m_window->readout()->baseline() });
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        const QJsonObject printed = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
        QCOMPARE(printed.keys(), QStringList({ "b300", "mi325x" }));
        ReadoutModel* model = m_window->readout()->model();
        QCOMPARE(model->rowCount(), 2);
        for (int r = 0; r < model->rowCount(); ++r) {
            const QString hw = model->index(r, ReadoutModel::Hardware).data().toString().toLower();
            const QJsonObject row = printed[hw].toArray()[0].toObject();
            QCOMPARE(row["target"].toDouble(), 50.0);
            QCOMPARE(model->index(r, ReadoutModel::TputPerGpu).data(Qt::UserRole).toDouble(),
                row["tput_per_gpu"].toDouble());
            QCOMPARE(model->index(r, ReadoutModel::CostPerMTok).data(Qt::UserRole).toDouble(),
                row["cost_per_mtok"].toDouble());
            QCOMPARE(model->index(r, ReadoutModel::Engine).data().toString().toLower(), row["engine"].toString());
            // the ratio to the baseline: one rule in core for the readout and `ladder --baseline`
            QCOMPARE(
                model->index(r, ReadoutModel::VsBaseline).data(Qt::UserRole).toDouble(), row["vs_baseline"].toDouble());
        }
        QCOMPARE(m_window->readout()->baseline(), QString("mi325x"));
        // the published figures, as the seed page prints them
        QCOMPARE(model->index(0, ReadoutModel::TputPerGpu).data().toString(), QString("328,417"));
        QCOMPARE(model->index(0, ReadoutModel::CostPerMTok).data().toString(), QString("$0.002"));
        QCOMPARE(model->index(1, ReadoutModel::TputPerGpu).data().toString(), QString("17,745"));
        QCOMPARE(model->index(1, ReadoutModel::CostPerMTok).data().toString(), QString("$0.017"));
        QCOMPARE(m_window->readout()->comparison(), QString("B300 delivers 18.5x MI325X at 50 tok/s/user"));
    }

    void tierSwitchScalesCostByPriceRatio()
    {
        m_window->readout()->setTarget(50);
        const PricingCatalog& pricing = bundledPricing();
        const PricingTier& first = pricing.tiers.front();
        const double base = readoutRow("b300")->costPerMTok.value();
        for (const PricingTier& t : pricing.tiers) {
            m_window->readout()->setPrice(QString::fromStdString(t.key), 2.0);
            for (const std::string hw : { "b300", "mi325x" }) {
                const LadderRow* row = readoutRow(hw);
                QVERIFY(row);
                if (!t.price(hw)) {
                    QVERIFY(!row->costPerMTok);
                    continue;
                }
                QCOMPARE(QString::fromStdString(row->tier), QString::fromStdString(t.key));
                if (hw == "b300")
                    QVERIFY(near(row->costPerMTok.value() / base, *t.price(hw) / *first.price(hw)));
            }
        }
        // the custom price: $/1M = price / (tok/s/GPU x 3600) x 1e6, worked out here on its own
        m_window->readout()->setPrice(QString(), 3.25);
        const LadderRow* row = readoutRow("mi325x");
        QCOMPARE(QString::fromStdString(row->tier), QString("custom"));
        QVERIFY(near(row->costPerMTok.value(), 3.25 / (17745.0 * 3600.0) * 1e6));
        m_window->readout()->setPrice(QString::fromStdString(first.key), 2.0);
    }

    void legendToggleHidesAndShowsItsSeries()
    {
        FrontierChart* chart = m_window->chartPanel()->chart();
        QVERIFY(chart->groupCount() >= 2);
        QLegendMarker* marker = chart->legend()->markers(chart->line(0)).front();
        QVERIFY(chart->line(0)->isVisible());
        emit marker->clicked();
        QVERIFY(!chart->line(0)->isVisible());
        // its entry in the window's legend stays, unticked, to switch it back on
        QListWidgetItem* entry = m_window->chartPanel()->legend()->item(0);
        QVERIFY(entry && !entry->isHidden());
        QCOMPARE(entry->checkState(), Qt::Unchecked);
        emit marker->clicked();
        QCOMPARE(entry->checkState(), Qt::Checked);
        QVERIFY(chart->line(0)->isVisible());
    }

    void chartPointsComeWithTheScopeFromTheWorker()
    {
        // a scope read again: the chart's points were worked out on the store worker for the view on screen, and
        // they are what the GUI thread would have worked out
        QSignalSpy shown(m_window.get(), &MainWindow::scopeShown);
        emit m_window->filters()->filtersChanged();
        QVERIFY(shown.wait(10000));
        FrontierChart* chart = m_window->chartPanel()->chart();
        QVERIFY(chart->pointsGiven());
        const ChartData here = chartData(
            *m_window->scopeData(), bundledPricing(), m_window->chartPanel()->requestFor(m_window->readout()->price()));
        const ChartData& given = chart->chartData();
        QCOMPARE(given.series.size(), here.series.size());
        for (std::size_t g = 0; g < here.series.size(); ++g) {
            QCOMPARE(given.series[g].frontier.size(), here.series[g].frontier.size());
            QCOMPARE(given.series[g].runs.size(), here.series[g].runs.size());
            for (std::size_t k = 0; k < here.series[g].frontier.size(); ++k) {
                QCOMPARE(given.series[g].frontier[k].x, here.series[g].frontier[k].x);
                QCOMPARE(given.series[g].frontier[k].y, here.series[g].frontier[k].y);
            }
        }
        QCOMPARE(given.xMax, here.xMax);
        QCOMPARE(given.yMax, here.yMax);
        // a view changed before the answer came: the chart works its points out for the view it shows
        auto boxes = m_window->chartPanel()->findChildren<QCheckBox*>();
        QCheckBox* logY = nullptr;
        for (QCheckBox* b : boxes)
            if (b->text() == QStringLiteral("Log y"))
                logY = b;
        QVERIFY(logY);
        logY->toggle();
        QVERIFY(!m_window->chartPanel()->chart()->pointsGiven());
        QVERIFY(m_window->chartPanel()->chart()->chartData().series.size() == here.series.size());
        logY->toggle();
    }

    void runCloudIsDrawnOffTheGuiThreadWhereQtChartsPlacesIt()
    {
        FrontierChart* chart = m_window->chartPanel()->chart();
        RunCloud* cloud = chart->cloud();
        // on screen: the paint asks a pool thread, and the picture arrives through the event loop
        cloud->invalidate();
        m_window->chartPanel()->view()->viewport()->repaint();
        QVERIFY(!cloud->ready());
        QSignalSpy arrived(cloud, &RunCloud::pictureArrived);
        QVERIFY(arrived.wait(10000));
        QVERIFY(cloud->ready());
        // each point stands where Qt Charts maps its run (the pool thread maps the axes itself)
        std::map<long long, std::pair<QPointF, std::size_t>> runs;
        for (std::size_t g = 0; g < chart->groupCount(); ++g)
            for (const Point& p : chart->chartData().series[g].runs)
                runs[p.runId] = { QPointF(p.x, p.y), g };
        QVERIFY2(cloud->placed().size() >= 5,
            qPrintable(QString::number(cloud->placed().size()) + " placed of " + QString::number(runs.size())));
        for (const auto& [pos, id] : cloud->placed()) {
            const auto it = runs.find(id);
            QVERIFY(it != runs.end());
            const QPointF qt = chart->mapToPosition(it->second.first, chart->line(it->second.second));
            QVERIFY2(std::abs(qt.x() - pos.x()) < 1e-6 && std::abs(qt.y() - pos.y()) < 1e-6,
                qPrintable(QString("run %1 at %2,%3, Qt Charts %4,%5")
                               .arg(id)
                               .arg(pos.x())
                               .arg(pos.y())
                               .arg(qt.x())
                               .arg(qt.y())));
        }
        // an export draws it at once, as the rest of the chart
        cloud->invalidate();
        QImage image(800, 600, QImage::Format_ARGB32);
        QPainter painter(&image);
        chart->scene()->render(&painter);
        painter.end();
        QVERIFY(cloud->ready());
    }

    void hoverFindsTheRunAndDescribesIt()
    {
        FrontierChart* chart = m_window->chartPanel()->chart();
        const std::size_t g = chart->groupCount() - 1; // MI325X vLLM: six knots
        const Point knot = chart->chartData().series[g].frontier.at(2);
        const QPointF at = chart->mapToPosition(QPointF(knot.x, knot.y), chart->line(g));
        QCOMPARE(chart->runAt(at + QPointF(2, -2)), knot.runId);
        QCOMPARE(chart->runAt(at + QPointF(40, 40)), 0LL);
        // Qt's delayed tooltip event over the run shows the run, not the view's hint (which replaced it after a
        // second): at once its id, then its description, read on the store worker; off the runs it shows the hint
        FrontierView* view = m_window->chartPanel()->view();
        QSignalSpy arrived(view, &FrontierView::runTextArrived);
        const QPoint inView = view->mapFromScene(chart->mapToScene(at));
        QHelpEvent over(QEvent::ToolTip, inView, view->viewport()->mapToGlobal(inView));
        QApplication::sendEvent(view->viewport(), &over);
        QVERIFY2(QToolTip::text().contains(QString::number(knot.runId)), qPrintable(QToolTip::text()));
        QVERIFY(arrived.wait(10000));
        QCOMPARE(arrived.at(0).at(0).toLongLong(), knot.runId);
        const QString text = view->hoveredRunText();
        QVERIFY2(
            text.contains(QString::fromUtf8("MI325X · vLLM · FP4")) && text.contains("bundled:"), qPrintable(text));
        QVERIFY2(text.contains("13,945 tok/s/GPU"), qPrintable(text));
        QVERIFY2(QToolTip::text().contains("13,945 tok/s/GPU"), qPrintable(QToolTip::text()));
        // the same run again: no second read, its description at once
        QApplication::sendEvent(view->viewport(), &over);
        QVERIFY2(QToolTip::text().contains("13,945 tok/s/GPU"), qPrintable(QToolTip::text()));
        const QPoint empty = view->mapFromScene(chart->mapToScene(chart->plotArea().topRight() + QPointF(-3, 3)));
        QHelpEvent off(QEvent::ToolTip, empty, view->viewport()->mapToGlobal(empty));
        QApplication::sendEvent(view->viewport(), &off);
        QVERIFY2(QToolTip::text().contains("Drag to zoom"), qPrintable(QToolTip::text()));
    }

    void markerReadsWhatTheReadoutShows()
    {
        m_window->readout()->setTarget(75);
        FrontierChart* chart = m_window->chartPanel()->chart();
        QCOMPARE(chart->marker().x(), 75.0);
        std::multiset<double> marked, shown;
        for (const auto& r : chart->marker().readings())
            marked.insert(r.y);
        for (const auto& l : m_window->readout()->model()->readings())
            if (l.rows.front().entry.value)
                shown.insert(*l.rows.front().entry.value);
        // every hardware's best reading is on the marker (other groups covering 75 may be marked as well)
        for (double v : shown)
            QVERIFY2(marked.count(v), qPrintable(QString::number(v)));
        QCOMPARE(shown, std::multiset<double>({ 249248.0, 13945.0 }));
        // the B300 SGLang frontier is its single point at 200 tok/s/user and B300 vLLM ends at 150: at 75 the
        // first is set apart, at 200 the second
        QCOMPARE(chart->outsideRange(), QStringList({ QString::fromUtf8("B300 · SGLang · FP4") }));
        m_window->readout()->setTarget(200);
        QCOMPARE(chart->outsideRange(), QStringList({ QString::fromUtf8("B300 · vLLM · FP4") }));
    }

    void exportsPngSvgAndCsv()
    {
        const QString png = m_dir.filePath("chart.png"), svg = m_dir.filePath("chart.svg");
        QVERIFY(m_window->exportChartPng(png, QSize(800, 500), 2).ok());
        QImage image(png);
        QCOMPARE(image.size(), QSize(1600, 1000));
        std::set<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 20, "the PNG is (nearly) uniform");
        // kept beside the screenshot, to look at
        image.save(QFileInfo(QStringLiteral(PARETOSCOPE_SCREENSHOT)).dir().filePath("export-800x500@2.png"));

        QVERIFY(m_window->exportChartSvg(svg, QSize(900, 560)).ok());
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        QVERIFY(readAll(svg).contains("<svg"));

        const QString csv = m_dir.filePath("ladder.csv");
        QVERIFY(m_window->exportLadderCsv(csv).ok());
        const QByteArray text = readAll(csv);
        const QStringList tput = csvColumn(text, "tput_per_gpu_tok_s");
        const QStringList hw = csvColumn(text, "hardware");
        auto ladder = m_window->ladder()->ladder(m_window->readout()->price());
        QVERIFY(ladder.ok());
        int row = 0;
        for (const HardwareLadder& l : *ladder)
            for (const LadderRow& r : l.rows) {
                QCOMPARE(hw.value(row), QString::fromStdString(l.hardware));
                if (r.entry.value)
                    QCOMPARE(tput.value(row).toDouble(), *r.entry.value);
                else
                    QVERIFY(tput.value(row).isEmpty());
                ++row;
            }
        QCOMPARE(row, tput.size());
    }

    void formulaLikeModelIsExportedAsText()
    {
        const QString src = m_dir.filePath("formula.json");
        const QByteArray record = "[{\"schema\": \"paretoscope.run/1\", \"model\": \"=HYPERLINK(\\\"http://x\\\")\", "
                                  "\"hardware\": \"b300\", \"engine\": \"vllm\", \"precision\": \"fp4\", "
                                  "\"workload\": \"agentic coding\", \"interactivity_tok_s_user\": 40, "
                                  "\"tput_per_gpu_tok_s\": 1000}]";
        QVERIFY(writeFile(src, record));
        QSignalSpy done(m_window.get(), &MainWindow::importFinished);
        m_window->importItems({ ImportItem { src, {} } });
        QVERIFY(done.wait(20000));
        QVERIFY2(m_window->lastImportResults().value(0).ok, qPrintable(m_window->lastImportResults().value(0).message));
        QVERIFY(m_window->filters()->selectScope("=HYPERLINK(\"http://x\")", "agentic coding", 0, 0));
        QVERIFY(waitShown());
        const QString csv = m_dir.filePath("runs.csv");
        QSignalSpy exported(m_window.get(), &MainWindow::csvExported);
        m_window->exportRunsCsv(csv);
        QVERIFY(exported.wait(10000));
        QCOMPARE(exported.at(0).at(1).toString(), QString());
        const QByteArray text = readAll(csv);
        QVERIFY2(text.contains("'=HYPERLINK"), text.constData());
        for (const QByteArray& line : text.split('\n'))
            for (const QByteArray& cell : line.split(','))
                QVERIFY2(!cell.startsWith('=') && !cell.startsWith("\"="), cell.constData());
        QVERIFY(m_window->filters()->selectScope(QString::fromStdString(std::string(kBundledModel)),
            QString::fromStdString(std::string(kBundledWorkload)), 0, 0));
        QVERIFY(waitShown());
    }

    void itemModelsPassTheTester()
    {
        m_window->readout()->setTarget(50);
        QAbstractItemModelTester readout(
            m_window->readout()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester ladder(
            m_window->ladder()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        m_window->ladder()->setTargets({ 30, 50, 100 });
        QCOMPARE(m_window->ladder()->model()->rowCount(), 6);
        m_window->ladder()->setTargets(defaultTargets());
        auto store = RunStore::open(m_db.toStdString(), StoreAccess::ReadOnly);
        QVERIFY(store.ok());
        RunsModel runs;
        QAbstractItemModelTester runsTester(&runs, QAbstractItemModelTester::FailureReportingMode::QtTest);
        runs.setRuns((*store)->allRuns());
        QVERIFY(runs.rowCount() >= 11);
        QSortFilterProxyModel* proxy = m_window->runs()->proxy();
        QAbstractItemModelTester proxyTester(proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m_window->runs()->setRuns((*store)->allRuns());
        proxy->sort(RunsModel::TputPerGpu, Qt::DescendingOrder);
        QCOMPARE(proxy->index(0, RunsModel::TputPerGpu).data().toString(), QString("328,417"));
    }

    void importErrorsReachTheResultListAndImportNothing()
    {
        auto store = RunStore::open(m_db.toStdString(), StoreAccess::ReadOnly);
        QVERIFY(store.ok());
        const long long before = (*store)->runCount();
        const QString bad = m_dir.filePath("bad.json");
        QVERIFY(writeAggArray(bad.toStdString(), 3000) > 0);
        QByteArray all = readAll(bad);
        all.insert(all.lastIndexOf("\"tput_per_gpu\": ") + 16, "-");
        QVERIFY(writeFile(bad, all));
        QSignalSpy done(m_window.get(), &MainWindow::importFinished);
        m_window->importItems({ ImportItem { bad, {} }, ImportItem { m_dir.filePath("missing.json"), {} } });
        QVERIFY(done.wait(30000));
        const auto& results = m_window->lastImportResults();
        QCOMPARE(results.size(), 2);
        QVERIFY(!results[0].ok);
        QVERIFY2(results[0].message.contains("bad.json") && results[0].message.contains("record 3000")
                && results[0].message.contains("tput_per_gpu"),
            qPrintable(results[0].message));
        QVERIFY(!results[1].ok);
        QVERIFY2(results[1].message.contains("missing.json"), qPrintable(results[1].message));
        QCOMPARE((*store)->runCount(), before);
    }

    void screenshotOfTheMainWindow()
    {
        m_window->readout()->setTarget(50);
        m_window->resize(1600, 1000);
        QTest::qWait(50);
        const QImage shot = m_window->grab().toImage();
        QCOMPARE(shot.size(), QSize(1600, 1000));
        const QString path = QStringLiteral(PARETOSCOPE_SCREENSHOT);
        QVERIFY2(shot.save(path), qPrintable(path));
        qInfo("screenshot: %s", qPrintable(path));
    }

    void markupInImportedNamesShowsAsText()
    {
        // Qt guesses rich text in labels, tooltips and the charts' legend: names from a file must show as written
        const QString src = m_dir.filePath("markup.json");
        const QByteArray record = "[{\"schema\": \"paretoscope.run/1\", \"model\": \"<img src=x onerror=1>\", "
                                  "\"hardware\": \"<b>gpu</b>\", \"engine\": \"<i>e</i>\", \"precision\": \"fp4\", "
                                  "\"workload\": \"agentic coding\", \"interactivity_tok_s_user\": 40, "
                                  "\"tput_per_gpu_tok_s\": 1000}]";
        QVERIFY(writeFile(src, record));
        QSignalSpy done(m_window.get(), &MainWindow::importFinished);
        m_window->importItems({ ImportItem { src, {} } });
        QVERIFY(done.wait(20000));
        QVERIFY(m_window->lastImportResults().value(0).ok);
        QVERIFY(m_window->filters()->selectScope("<img src=x onerror=1>", "agentic coding", 0, 0));
        QVERIFY(waitShown());
        auto asShown = [](const QString& html) {
            QTextDocument doc;
            doc.setHtml(html);
            return doc.toPlainText();
        };
        // the legend's label, laid out as HTML by Qt Charts, reads as the characters
        FrontierChart* chart = m_window->chartPanel()->chart();
        QVERIFY(chart->groupCount() >= 1);
        QVERIFY2(asShown(chart->line(0)->name()).startsWith("<B>GPU</B> · <i>e</i>"), qPrintable(chart->line(0)->name()));
        // the scope's tooltip
        auto* scopes = m_window->filters()->findChild<QComboBox*>();
        QString tip = scopes->itemData(scopes->currentIndex(), Qt::ToolTipRole).toString();
        QVERIFY2(asShown(tip).contains("<img src=x onerror=1>"), qPrintable(tip));
        // every label that shows one of the names does so as plain text
        int showing = 0;
        for (QLabel* l : m_window->findChildren<QLabel*>())
            if (l->text().contains("<b>gpu</b>", Qt::CaseInsensitive) || l->text().contains("<img")) {
                ++showing;
                QVERIFY2(l->textFormat() == Qt::PlainText, qPrintable(l->text()));
            }
        QVERIFY(showing >= 1); // the "does not reach" line under the chart names the group
        // the helper every tooltip with such text goes through
        QVERIFY(plainToolTip("<img src=x>").contains("&lt;img src=x&gt;"));
        QCOMPARE(asShown(plainToolTip("a <b>\nb")), QString("a <b>\nb"));
    }

    void speedOfLightIsDrawnAndRead()
    {
        // the InferenceX API rows: DeepSeek R1 at 1k/1k on B300 among others; B300's bound is in the shipped tables
        QSignalSpy done(m_window.get(), &MainWindow::importFinished);
        m_window->importItems({ ImportItem { fixture("inferencex-app-api/benchmarks.json"), {} } });
        QVERIFY(done.wait(20000));
        QVERIFY(m_window->filters()->selectScope("dsr1", "random 1k/1k", 1024, 1024));
        QVERIFY(waitShown());
        auto data = m_window->scopeData();
        QVERIFY(!data->speedOfLight.empty());
        FrontierChart* chart = m_window->chartPanel()->chart();
        QVERIFY(!chart->speedOfLightLines().empty());
        QVERIFY(chart->speedOfLightLines().front()->name().contains("speed of light"));
        // the readout's share: the reading over the bound at the target, in percent
        m_window->readout()->setTarget(50);
        bool found = false;
        for (const auto& l : m_window->readout()->model()->readings()) {
            if (l.hardware != "b300")
                continue;
            const LadderRow& r = l.rows.front();
            QVERIFY(r.speedOfLightPct && r.entry.value);
            for (const SolLine& sol : data->speedOfLight)
                if (sol.hardware == "b300" && sol.precision == r.entry.group->precision) {
                    double bound = *speedOfLightAt(sol.curve, 50);
                    QVERIFY(std::abs(*r.speedOfLightPct - 100 * *r.entry.value / bound) < 1e-9);
                    QVERIFY(*r.speedOfLightPct > 0 && *r.speedOfLightPct < 100); // a bound, above every reading
                    found = true;
                }
        }
        QVERIFY(found);
    }

    // A run marked as not trusted is drawn (as marked) but left out of the frontier until the filter's checkbox
    // includes it; the frontier then reaches the marked run's higher throughput.
    void markedRunsAreLeftOutUntilIncluded()
    {
        std::vector<RunRecord> runs = sweepRecords("marked-model", "b300", "vllm", "fp4", { 1, 4, 16 }, 100, 1000);
        runs.back().tputPerGpu = 50000.0; // the stalled level that looks best
        runs.back().marked = "16 of 160 requests failed (10%, more than 5%)";
        const QString json = QString::fromStdString(recordsJson(runs));
        const QString file = m_dir.filePath("marked.json");
        QVERIFY(writeFile(file, json.toUtf8()));
        QSignalSpy done(m_window.get(), &MainWindow::importFinished);
        m_window->importItems({ ImportItem { file, {} } });
        QVERIFY(done.wait(30000));
        QVERIFY(m_window->lastImportResults().front().ok);
        QVERIFY(m_window->filters()->selectScope("marked-model", QString(), 1024, 1024));
        for (int i = 0; i < 5 && (!m_window->scopeData() || m_window->scopeData()->scope.model != "marked-model"); ++i)
            waitShown();
        auto data = m_window->scopeData();
        QCOMPARE(int(data->runCount), 3);
        QCOMPARE(int(data->frontiers.front().points.size()), 2);
        QCOMPARE(data->frontiers.front().points.front().y, 4000.0); // without the marked run
        const ChartData& drawn = m_window->chartPanel()->chart()->chartData();
        int marked = 0;
        for (const ChartSeries& cs : drawn.series)
            for (const Point& p : cs.runs)
                marked += p.marked;
        QCOMPARE(marked, 1);

        QCheckBox* include = nullptr;
        for (QCheckBox* c : m_window->filters()->findChildren<QCheckBox*>())
            if (c->text().contains("marked"))
                include = c;
        QVERIFY(include && !include->isChecked());
        include->click();
        QVERIFY(waitShown());
        data = m_window->scopeData();
        QVERIFY(data->scope.includeMarked);
        QCOMPARE(data->frontiers.front().points.front().y, 50000.0);
        include->click(); // as it was, for the tests after this one
        QVERIFY(waitShown());
    }

    // Runs on three dates: the as-of slider and Play step through them, each step built from the runs in memory (no
    // store round trip: the scope is shown before the step returns) and equal to what the store gives as of that day.
    void asOfSliderAndPlayStepThroughRunDates()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath("dated.sqlite");
        {
            auto store = openStore(db.toStdString(), true);
            QVERIFY(store.ok());
            const QString gen = dir.filePath("gen.json");
            QVERIFY(testsupport::writeAggArray(gen.toStdString(), 11520 * 3, 5, 3) > 0);
            QVERIFY(importPath(**store, gen.toStdString(), {})[0].result.ok());
        }
        auto store = openStore(db.toStdString(), false);
        QVERIFY(store.ok());
        MainWindow window(std::move(*store));
        window.setShowImportResults(false);
        QSignalSpy shown(&window, &MainWindow::scopeShown);
        window.show();
        QVERIFY(shown.wait(20000));
        // the new store has the bundled dataset too: the synthetic history's scope
        shown.clear();
        QVERIFY(window.filters()->selectScope(
            QStringLiteral("synthetic/model-0"), QStringLiteral("random 1k/1k"), 1024, 1024));
        for (int i = 0; i < 5 && window.scopeData()->scope.model != "synthetic/model-0"; ++i)
            QVERIFY(shown.wait(20000));
        RunDatesControl* dates = window.filters()->runDates();
        QCOMPARE(dates->days(), (std::vector<int> { 20260101, 20260102, 20260103 }));
        QCOMPARE(dates->asOf(), std::string()); // the latest day: no bound
        auto reader = openStore(db.toStdString(), false);
        QVERIFY(reader.ok());
        for (int i : { 0, 1, 2, 0 }) {
            shown.clear();
            dates->slider()->setValue(i);
            QCOMPARE(shown.count(), 1); // shown before setValue returned: no store round trip
            const Scope scope = window.scopeData()->scope;
            QCOMPARE(scope.asOf, i == 2 ? std::string() : dayText(dates->days()[std::size_t(i)]));
            const ScopeData read = loadScopeData(**reader, scope, window.scopeData()->metric);
            QCOMPARE(window.scopeData()->runCount, read.runCount);
            QCOMPARE(window.scopeData()->frontiers.size(), read.frontiers.size());
            for (std::size_t g = 0; g < read.frontiers.size(); ++g) {
                QCOMPARE(window.scopeData()->frontiers[g].points.size(), read.frontiers[g].points.size());
                for (std::size_t k = 0; k < read.frontiers[g].points.size(); ++k)
                    QCOMPARE(window.scopeData()->frontiers[g].points[k].runId, read.frontiers[g].points[k].runId);
            }
        }
        // the Runs tab lists the runs the frontiers are built from: the latest per configuration as of the day
        {
            QSignalSpy page(window.runs()->model(), &RunsModel::pageLoaded);
            window.findChild<QTabWidget*>()->setCurrentWidget(window.runs());
            QVERIFY(page.wait(20000));
            QCOMPARE(window.runs()->model()->total(), static_cast<long long>(window.scopeData()->runCount));
            std::set<long long> listed, selected;
            for (const StoredRun& r : window.runs()->model()->runs())
                listed.insert(r.id);
            for (long long id : window.scopeData()->selectedRunIds())
                selected.insert(id);
            QVERIFY(!listed.empty());
            for (long long id : listed)
                QVERIFY(selected.count(id));
            window.findChild<QTabWidget*>()->setCurrentIndex(0);
        }
        // Play from the first day: a step a tick, and it stops on the last day
        dates->play(true);
        QVERIFY(dates->playing());
        dates->step();
        QCOMPARE(dates->slider()->value(), 1);
        dates->step();
        QCOMPARE(dates->slider()->value(), 2);
        QVERIFY(!dates->playing());
        QCOMPARE(window.scopeData()->scope.asOf, std::string());
        // played from the last day, it starts again from the first
        dates->play(true);
        QCOMPARE(dates->slider()->value(), 0);
        dates->play(false);
        QVERIFY(!dates->playing());
        // every run as of the last day: each configuration measured three times, each group's reading has a spread,
        // drawn as a band between its low and high frontiers
        dates->setAsOf({});
        shown.clear();
        dates->setRuns(RunSelection::All);
        QVERIFY(shown.wait(20000));
        QCOMPARE(window.scopeData()->scope.runs, RunSelection::All);
        FrontierChart* chart = window.chartPanel()->chart();
        int bands = 0;
        for (std::size_t g = 0; g < chart->groupCount(); ++g) {
            const GroupFrontier& f = window.scopeData()->frontiers[g];
            QCOMPARE(chart->band(g) != nullptr, f.hasSpread());
            if (!chart->band(g))
                continue;
            ++bands;
            const QList<QPointF> upper = chart->band(g)->upperSeries()->points();
            QCOMPARE(upper.size(), qsizetype(f.high.knots().size()));
            for (qsizetype k = 0; k < upper.size(); ++k)
                QCOMPARE(upper[k].y(), f.high.knots()[std::size_t(k)].y);
            QCOMPARE(chart->band(g)->lowerSeries()->count(), qsizetype(f.low.knots().size()));
            // the band goes with its group when the group is switched off
            chart->toggleGroup(g, false);
            QVERIFY(!chart->band(g)->isVisible());
            chart->toggleGroup(g, true);
        }
        QVERIFY(bands > 0);
        // the readout says the spread beside each reading that has one, as the CLI's table writes it
        ReadoutModel* readout = window.readout()->model();
        int spreads = 0;
        for (int row = 0; row < readout->rowCount(); ++row) {
            const LadderRow& r = readout->readings()[std::size_t(row)].rows.front();
            const QString text = readout->index(row, ReadoutModel::TputPerGpu).data().toString();
            if (!r.entry.value || !r.entry.low || !r.entry.high)
                continue;
            ++spreads;
            QCOMPARE(text,
                QString::fromStdString(withThousands(*r.entry.value) + " [" + withThousands(*r.entry.low) + " - "
                    + withThousands(*r.entry.high) + "]"));
        }
        QVERIFY(spreads > 0);
        dates->setRuns(RunSelection::Latest);
    }

    // A damaged store: the explorer shows what happened in place of the chart, never a chart of what could be read.
    void aDamagedStoreShowsItsMessageNotAChart()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath("damaged.sqlite");
        {
            auto store = openStore(db.toStdString(), true);
            QVERIFY(store.ok());
            const QString gen = dir.filePath("gen.json");
            QVERIFY(testsupport::writeAggArray(gen.toStdString(), 5000, 3) > 0);
            QVERIFY(importPath(**store, gen.toStdString(), {})[0].result.ok());
        }
        {
            QFile f(db);
            QVERIFY(f.open(QIODevice::ReadWrite));
            QVERIFY(f.seek(64 << 10));
            f.write(QByteArray(512 << 10, '\x5a'));
        }
        auto store = RunStore::open(db.toStdString());
        QVERIFY(store.ok());
        MainWindow window(std::move(*store));
        window.resize(1366, 768);
        QSignalSpy shown(&window, &MainWindow::scopeShown);
        window.show();
        QVERIFY(shown.count() > 0 || shown.wait(10000));
        QVERIFY(!window.scopeData());
        QLabel* problem = nullptr;
        for (QLabel* l : window.chartPanel()->findChildren<QLabel*>())
            if (l->isVisible() && l->text().contains("the store is damaged"))
                problem = l;
        QVERIFY2(problem, "the message shows over the chart");
        QVERIFY(problem->text().contains("paretoscope-cli check --db"));
        const FrontierChart* chart = window.chartPanel()->chart();
        QVERIFY(!chart || chart->chartData().runsDrawn == 0); // no chart, or an empty one
        const QImage shot = window.grab().toImage();
        QVERIFY(shot.save(QFileInfo(QStringLiteral(PARETOSCOPE_SCREENSHOT)).dir().filePath("damaged-1366x768.png")));
    }

    void sessionDialogRefusesWhatCoreRefuses()
    {
        SessionDialog dialog(QStringLiteral("No GPU found"));
        dialog.setEndpoint("ftp://host/v1", "b300", "vllm", 8);
        QVERIFY(!dialog.build());
        dialog.setEndpoint("http://127.0.0.1:9", "b300", "vllm", 8);
        dialog.setConcurrency("1,four");
        QVERIFY(!dialog.build());
        dialog.setConcurrency("1,4");
        QVERIFY(dialog.build());
        QCOMPARE(dialog.request().config.gpus, 8);
        QCOMPARE(dialog.request().config.tp, 8); // core's rule: tp not given is the GPU count
        QCOMPARE(QString::fromStdString(dialog.request().config.endpoint), QString("http://127.0.0.1:9"));
        // the CLI makes the same configuration of the same choices (core's buildSession for both)
        dialog.setEndpoint("http://127.0.0.1:9/", " B300", "vLLM", 8);
        dialog.setLengths(1024, 1024);
        QVERIFY(dialog.build());
        const SessionConfig& c = dialog.request().config;
        QStringList args { "bench", "--print-config", "--endpoint", "http://127.0.0.1:9", "--hardware", "b300",
            "--engine", "vllm", "--gpus", "8", "--isl", "1024", "--osl", "1024", "--concurrency", "1,4" };
        if (!c.model.empty()) // the dialog's remembered fields, if any: the same choices for both
            args << "--model" << QString::fromStdString(c.model);
        args << "--precision" << QString::fromStdString(c.precision) << "--workload"
             << QString::fromStdString(c.workload);
        QProcess cli;
        cli.start(PARETOSCOPE_CLI, args);
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        QCOMPARE(cli.readAllStandardOutput().trimmed(), QByteArray::fromStdString(sessionConfigJson(c)));
    }

    void liveSessionLevelsLandOnTheChart()
    {
        // last: it moves the window to the session's scope
        testsupport::SimProcess sim({ "--profile", "b300-sim" });
        QVERIFY(sim.ok());
        SessionDialog dialog { QString() };
        dialog.setEndpoint(sim.url(), "b300", "vllm", 8);
        dialog.setConcurrency("1,8,32,128");
        dialog.setLengths(512, 48);
        QVERIFY(dialog.build());
        QSignalSpy levels(&m_window->sessions(), &SessionController::levelStored);
        QSignalSpy finished(m_window.get(), &MainWindow::sessionFinished);
        m_window->startSession(dialog.request());
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.front().front().toString(), QString("finished"));
        QCOMPARE(levels.size(), 4);
        QCOMPARE(m_window->sessionPanel()->storedLevels(), 4);
        // the chart is on the session's scope with its four points, labelled a simulation
        for (int i = 0; i < 5 && (!m_window->scopeData() || m_window->scopeData()->runCount < 4); ++i)
            waitShown();
        auto data = m_window->scopeData();
        QCOMPARE(QString::fromStdString(data->scope.model), QString("sim-model"));
        QCOMPARE(int(data->runCount), 4);
        QCOMPARE(int(data->frontiers.size()), 1);
        QCOMPARE(QString::fromStdString(data->frontiers.front().key.hardware), QString("b300-sim"));
        QString legend = m_window->chartPanel()->chart()->line(0)->name();
        QVERIFY2(legend.contains("simulated"), qPrintable(legend));
        // a bigger batch: more tok/s/GPU, fewer tok/s/user (the emulator's frontier is a real trade-off)
        const auto& f = data->frontiers.front().points;
        QVERIFY(f.size() >= 3);
        m_window->resize(1600, 1000);
        QTest::qWait(50);
        const QImage shot = m_window->grab().toImage();
        QString path = QFileInfo(QStringLiteral(PARETOSCOPE_SCREENSHOT)).dir().filePath("session-1600x1000.png");
        QVERIFY(shot.save(path));
        qInfo("screenshot: %s", qPrintable(path));
    }

    // The seventh hardware and those after it keep their own label and colour: one label per hardware at the
    // target (its best group's, as the readout's rule says), one colour per hardware and all of them distinct,
    // drawn on the chart.
    void everyHardwareKeepsItsLabelAndColour()
    {
        const std::vector<std::string> names { "b200", "b300", "gb200", "gb300", "h100", "h200", "mi300x", "mi325x",
            "mi355x", "mi350x", "b100", "tpu-v6e" };
        const auto data = manyHardware(names);
        ChartState state;
        state.target = 50;
        FrontierChart chart(data, state, bundledPricing());
        QCOMPARE(chart.groupCount(), 3 * names.size());

        std::map<std::string, QString> labels;
        std::map<std::string, double> labelled, highest;
        for (const TargetMarker::Reading& r : chart.marker().readings()) {
            highest[r.hardware] = std::max(highest[r.hardware], r.y);
            if (r.label.isEmpty())
                continue;
            QVERIFY2(labels.emplace(r.hardware, r.label).second, r.hardware.c_str()); // one label per hardware
            labelled[r.hardware] = r.y;
        }
        QCOMPARE(chart.marker().readings().size(), 3 * names.size()); // every group's circle
        QCOMPARE(labels.size(), names.size());
        QCOMPARE(labelled, highest); // the label stands at each hardware's best reading
        for (const auto& [hw, label] : labels)
            QCOMPARE(label, QString::fromStdString(withThousands(labelled.at(hw))));

        std::map<std::string, QRgb> colourOf;
        std::set<QRgb> colours;
        for (std::size_t i = 0; i < chart.groupCount(); ++i) {
            const GroupKey& key = chart.chartData().series[i].key;
            QCOMPARE(chart.line(i)->pen().color(), chart.groupColour(i));
            const QRgb rgb = chart.groupColour(i).rgb();
            if (auto [it, fresh] = colourOf.emplace(key.hardware, rgb); !fresh)
                QCOMPARE(it->second, rgb); // the engines and precisions of a hardware share its colour
            colours.insert(rgb);
            QCOMPARE(chart.line(i)->pen().style(), key.precision == "fp4" ? Qt::SolidLine : Qt::DashLine);
            QCOMPARE(chart.groupShape(i), key.engine == "trt" ? MarkerShape::Triangle : MarkerShape::Square);
        }
        QCOMPARE(colours.size(), names.size());

        // drawn: every hardware's colour is on the exported picture (the lines' cores are drawn in it exactly)
        const QImage image = renderChart(data, state, bundledPricing(), QSize(1400, 900), 1);
        std::map<QRgb, int> pixels;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                ++pixels[image.pixel(x, y) | 0xff000000u];
        for (const auto& [hw, rgb] : colourOf)
            QVERIFY2(pixels[rgb] > 40, qPrintable(QStringLiteral("%1: %2 pixels").arg(hw.c_str()).arg(pixels[rgb])));
    }

    // The palette: fourteen colours, all apart and all readable as lines on white; a name's colour is fixed
    // whatever else is in scope and in whatever order; the known hardware each have their own.
    void paletteIsStableAndDistinct()
    {
        const auto& palette = hardwarePalette();
        QVERIFY(palette.size() >= 12);
        const auto linear = [](int c) {
            const double v = c / 255.0;
            return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        };
        std::set<std::tuple<int, int, int>> seen;
        for (const Rgb& c : palette) {
            QVERIFY(seen.emplace(c.r, c.g, c.b).second);
            const double lum = 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b);
            QVERIFY2(1.05 / (lum + 0.05) >= 3.0, qPrintable(QStringLiteral("contrast %1").arg(1.05 / (lum + 0.05))));
        }
        // apart for normal vision: CIELAB distance (D65) of at least 20 between any two
        const auto lab = [&](const Rgb& c) {
            const double r = linear(c.r), g = linear(c.g), b = linear(c.b);
            const auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116; };
            const double x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
            const double y = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
            const double z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
            return std::array<double, 3> { 116 * y - 16, 500 * (x - y), 200 * (y - z) };
        };
        for (std::size_t a = 0; a < palette.size(); ++a)
            for (std::size_t b = a + 1; b < palette.size(); ++b) {
                const auto p = lab(palette[a]), q = lab(palette[b]);
                const double d = std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
                QVERIFY2(d >= 20, qPrintable(QStringLiteral("%1 and %2: %3").arg(a).arg(b).arg(d)));
            }
        const std::vector<std::string> known { "b300", "b200", "gb200", "gb300", "h100", "h200", "mi300x", "mi325x",
            "mi355x", "mi350x", "b100" };
        std::set<std::size_t> indices;
        for (const std::string& hw : known)
            indices.insert(hardwareColourIndex(hw));
        QCOMPARE(indices.size(), known.size());
        // an unknown name: one of the colours no known hardware holds, the same every time, in any company
        for (const std::string hw : { "tpu-v6e", "gaudi3", "l40s", "rtx-pro-6000" }) {
            QVERIFY(!indices.count(hardwareColourIndex(hw)));
            QCOMPARE(hardwareRgb(hw), hardwareRgb(std::string(hw)));
            const auto forward = manyHardware({ hw, "b200", "gaudi2" }), backward = manyHardware({ "gaudi2", hw });
            FrontierChart one(forward, ChartState {}, bundledPricing()), two(backward, ChartState {}, bundledPricing());
            QCOMPARE(one.groupColour(0), two.groupColour(3));
        }
        QCOMPARE(hardwareRgb("b300-sim"), hardwareRgb("b300"));
        QCOMPARE(hardwareColour("mi355x"), QColor(0xc8, 0x32, 0x3a)); // fixed across sessions: a table, not an order
        // line style per precision, marker per engine
        QCOMPARE(precisionStyle("fp4"), Qt::SolidLine);
        QCOMPARE(precisionStyle("NVFP4"), Qt::SolidLine);
        QCOMPARE(precisionStyle("fp8"), Qt::DashLine);
        QCOMPARE(precisionStyle("bf16"), Qt::DotLine);
        QCOMPARE(precisionStyle("int4"), Qt::DashDotLine);
        std::set<MarkerShape> shapes;
        for (const char* engine :
            { "vllm", "sglang", "trt", "dynamo-trt", "dynamo-sglang", "atom", "mori-sglang", "engine-sim" })
            shapes.insert(engineMarker(engine));
        QCOMPARE(shapes.size(), kMarkerShapeCount);
        QCOMPARE(engineMarker("some-engine"), engineMarker("some-engine"));
        // speculative decoding: hollow knots, so that MTP and plain groups of one engine stay apart
        QVERIFY(hollowMarker(GroupKey { "b200", "trt", "fp4", "mtp" }));
        QVERIFY(!hollowMarker(GroupKey { "b200", "trt", "fp4", "none" }));
        for (std::size_t k = 0; k < kMarkerShapeCount; ++k)
            QVERIFY(!markerPath(MarkerShape(k), 8).isEmpty());
    }

    void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestWidgets)
#include "tst_widgets.moc"
