// Imports and exports through the main window (offscreen): PNG, SVG and CSV exports against the ladder, names that look
// like formulas or markup kept as text, import errors in the result list, the speed of light of an imported scope
// drawn and read, and runs marked as not trusted left out of the frontier until included.
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QStatusBar>
#include <QSvgRenderer>
#include <QTextDocument>
#include <set>

#include "core/import/bundled.h"
#include "core/output/reports.h"
#include "tests/support/agggenerator.h"
#include "tests/support/bundledwindowfixture.h"
#include "tests/support/suite.h"
#include "tests/support/sweeprecords.h"
#include "tests/support/testutil.h"
#include "widgets/chart/chartlegend.h"
#include "widgets/chart/chartpanel.h"
#include "widgets/chart/frontierchart.h"
#include "widgets/common/displaynames.h"
#include "widgets/window/mainwindow.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;

namespace {

// One column of a CSV written by core (no quoted commas in these columns).
QStringList csvColumn(const QByteArray& csv, const QString& header)
{
    const QList<QByteArray> lines = csv.trimmed().split('\n');
    const QStringList head = QString::fromUtf8(lines.value(0)).split(u',');
    const qsizetype col = head.indexOf(header);
    QStringList out;
    for (int i = 1; i < lines.size() && col >= 0; ++i)
        out << QString::fromUtf8(lines[i]).split(u',').value(col);
    return out;
}

} // namespace

class TestImportExport : public BundledWindowFixture {
    Q_OBJECT
private slots:
    void initTestCase() { openWindow("tst_importexport"); }

    void exportsPngSvgAndCsv()
    {
        const QString png = m_dir.filePath(QStringLiteral("chart.png")),
                      svg = m_dir.filePath(QStringLiteral("chart.svg"));
        QVERIFY(m_window->exportChartPng(png, QSize(800, 500), 2).ok());
        QImage image(png);
        QCOMPARE(image.size(), QSize(1600, 1000));
        std::set<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7)
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 20, "the PNG is (nearly) uniform");
        // kept beside the screenshot, to look at
        image.save(QFileInfo(mainWindowScreenshot()).dir().filePath(QStringLiteral("export-800x500@2.png")));

        QVERIFY(m_window->exportChartSvg(svg, QSize(900, 560)).ok());
        QSvgRenderer renderer(svg);
        QVERIFY(renderer.isValid());
        QVERIFY(readAll(svg).contains("<svg"));

        const QString csv = m_dir.filePath(QStringLiteral("ladder.csv"));
        QVERIFY(m_window->exportLadderCsv(csv).ok());
        const QByteArray text = readAll(csv);
        const QStringList tput = csvColumn(text, QStringLiteral("tput_per_gpu_tok_s"));
        const QStringList hw = csvColumn(text, QStringLiteral("hardware"));
        auto ladder = m_window->ladder()->ladder(m_window->readout()->price());
        QVERIFY(ladder.ok());
        int row = 0;
        for (const HardwareLadder& l : *ladder)
            for (const LadderRow& r : l.rows) {
                QCOMPARE(hw.value(row), QString::fromStdString(l.hardware));
                if (r.value()) // the reading chosen (one configuration's by default)
                    QCOMPARE(tput.value(row).toDouble(), *r.value());
                else
                    QVERIFY(tput.value(row).isEmpty());
                ++row;
            }
        QCOMPARE(row, tput.size());
    }

    void formulaLikeModelIsExportedAsText()
    {
        const QString src = m_dir.filePath(QStringLiteral("formula.json"));
        const QByteArray record = "[{\"schema\": \"paretoscope.run/1\", \"model\": \"=HYPERLINK(\\\"http://x\\\")\", "
                                  "\"hardware\": \"b300\", \"engine\": \"vllm\", \"precision\": \"fp4\", "
                                  "\"workload\": \"agentic coding\", \"interactivity_tok_s_user\": 40, "
                                  "\"tput_per_gpu_tok_s\": 1000}]";
        QVERIFY(writeFile(src, record));
        QSignalSpy done(m_window.get(), &MainWindow::importFinished);
        m_window->importItems({ ImportItem { src, {} } });
        QVERIFY(done.wait(20000));
        QVERIFY2(m_window->lastImportResults().value(0).ok, qPrintable(m_window->lastImportResults().value(0).message));
        QVERIFY(m_window->filters()->selectScope(
            QStringLiteral("=HYPERLINK(\"http://x\")"), QStringLiteral("agentic coding"), 0, 0));
        QVERIFY(waitShown());
        const QString csv = m_dir.filePath(QStringLiteral("runs.csv"));
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

    void importErrorsReachTheResultListAndImportNothing()
    {
        auto store = RunStore::open(m_db.toStdString(), StoreAccess::ReadOnly);
        QVERIFY(store.ok());
        const long long before = (*store)->runCount();
        const QString bad = m_dir.filePath(QStringLiteral("bad.json"));
        QVERIFY(writeAggArray(bad.toStdString(), 3000) > 0);
        QByteArray all = readAll(bad);
        all.insert(all.lastIndexOf("\"tput_per_gpu\": ") + 16, "-");
        QVERIFY(writeFile(bad, all));
        QSignalSpy done(m_window.get(), &MainWindow::importFinished);
        m_window->importItems(
            { ImportItem { bad, {} }, ImportItem { m_dir.filePath(QStringLiteral("missing.json")), {} } });
        QVERIFY(done.wait(30000));
        const auto& results = m_window->lastImportResults();
        QCOMPARE(results.size(), 2);
        QVERIFY(!results[0].ok);
        QVERIFY2(results[0].message.contains(QStringLiteral("bad.json"))
                && results[0].message.contains(QStringLiteral("record 3000"))
                && results[0].message.contains(QStringLiteral("tput_per_gpu")),
            qPrintable(results[0].message));
        QVERIFY(!results[1].ok);
        QVERIFY2(results[1].message.contains(QStringLiteral("missing.json")), qPrintable(results[1].message));
        QCOMPARE((*store)->runCount(), before);
    }

    void markupInImportedNamesShowsAsText()
    {
        // Qt guesses rich text in labels, tooltips and the charts' legend: names from a file must show as written
        const QString src = m_dir.filePath(QStringLiteral("markup.json"));
        const QByteArray record = "[{\"schema\": \"paretoscope.run/1\", \"model\": \"<img src=x onerror=1>\", "
                                  "\"hardware\": \"<b>gpu</b>\", \"engine\": \"<i>e</i>\", \"precision\": \"fp4\", "
                                  "\"workload\": \"agentic coding\", \"interactivity_tok_s_user\": 40, "
                                  "\"tput_per_gpu_tok_s\": 1000}]";
        QVERIFY(writeFile(src, record));
        QSignalSpy done(m_window.get(), &MainWindow::importFinished);
        m_window->importItems({ ImportItem { src, {} } });
        QVERIFY(done.wait(20000));
        QVERIFY(m_window->lastImportResults().value(0).ok);
        QVERIFY(m_window->filters()->selectScope(
            QStringLiteral("<img src=x onerror=1>"), QStringLiteral("agentic coding"), 0, 0));
        QVERIFY(waitShown());
        auto asShown = [](const QString& html) {
            QTextDocument doc;
            doc.setHtml(html);
            return doc.toPlainText();
        };
        // the legend's entry reads as the characters
        FrontierChart* chart = m_window->chartPanel()->chart();
        QVERIFY(chart->groupCount() >= 1);
        QVERIFY2(
            chart->groupName(0).startsWith(QStringLiteral("<B>GPU</B> · <i>e</i>")), qPrintable(chart->groupName(0)));
        QCOMPARE(m_window->chartPanel()->legend()->item(0)->text(), chart->groupName(0));
        // the scope's tooltip
        auto* scopes = m_window->filters()->findChild<QComboBox*>();
        QString tip = scopes->itemData(scopes->currentIndex(), Qt::ToolTipRole).toString();
        QVERIFY2(asShown(tip).contains(QStringLiteral("<img src=x onerror=1>")), qPrintable(tip));
        // every label that shows one of the names does so as plain text
        int showing = 0;
        for (QLabel* l : m_window->findChildren<QLabel*>())
            if (l->text().contains(QStringLiteral("<b>gpu</b>"), Qt::CaseInsensitive)
                || l->text().contains(QStringLiteral("<img"))) {
                ++showing;
                QVERIFY2(l->textFormat() == Qt::PlainText, qPrintable(l->text()));
            }
        QVERIFY(showing >= 1); // the "does not reach" line under the chart names the group
        // the helper every tooltip with such text goes through
        QVERIFY(plainToolTip(QStringLiteral("<img src=x>")).contains(QStringLiteral("&lt;img src=x&gt;")));
        QCOMPARE(asShown(plainToolTip(QStringLiteral("a <b>\nb"))), QStringLiteral("a <b>\nb"));
    }

    void speedOfLightIsDrawnAndRead()
    {
        // the InferenceX API rows: DeepSeek R1 at 1k/1k on B300 among others; B300's bound is in the shipped tables
        QSignalSpy done(m_window.get(), &MainWindow::importFinished);
        m_window->importItems({ ImportItem { fixture(QStringLiteral("inferencex-app-api/benchmarks.json")), {} } });
        QVERIFY(done.wait(20000));
        QVERIFY(m_window->filters()->selectScope(QStringLiteral("dsr1"), QStringLiteral("random 1k/1k"), 1024, 1024));
        QVERIFY(waitShown());
        auto data = m_window->scopeData();
        QVERIFY(!data->speedOfLight.empty());
        FrontierChart* chart = m_window->chartPanel()->chart();
        QVERIFY(chart->speedOfLightCount() > 0);
        QVERIFY(chart->speedOfLightName(0).contains(QStringLiteral("speed of light")));
        // its legend entry (after the groups drawn) switches the dashed line off and on, and the lines' picture with it
        QListWidget* legend = m_window->chartPanel()->legend();
        QListWidgetItem* entry = legend->item(int(chart->chosenCount()));
        QVERIFY(entry && entry->text() == chart->speedOfLightName(0));
        auto boundLine
            = [&]() -> const FrontierLayer::Line& { return chart->layer()->content().lines[chart->groupCount()]; };
        QVERIFY(chart->speedOfLightVisible(0) && boundLine().visible);
        QCOMPARE(boundLine().pen, chart->speedOfLightPen(0));
        entry->setCheckState(Qt::Unchecked);
        QVERIFY(!chart->speedOfLightVisible(0) && !boundLine().visible);
        entry->setCheckState(Qt::Checked);
        QVERIFY(chart->speedOfLightVisible(0) && boundLine().visible);
        // the readout's share: the reading over the bound at the target, in percent
        m_window->readout()->setTarget(50);
        bool found = false;
        for (const auto& l : m_window->readout()->model()->readings()) {
            if (l.hardware != "b300")
                continue;
            const LadderRow& r = l.rows.front();
            QVERIFY(r.speedOfLightPct && r.value());
            for (const SolLine& sol : data->speedOfLight)
                if (sol.hardware == "b300" && sol.precision == r.group()->precision) {
                    double bound = *speedOfLightAt(sol.curve, 50);
                    QVERIFY(std::abs(*r.speedOfLightPct - 100 * *r.value() / bound) < 1e-9);
                    QVERIFY(*r.speedOfLightPct > 0 && *r.speedOfLightPct < 100); // a bound, above every reading
                    found = true;
                }
        }
        QVERIFY(found);
    }

    // An import that brings a scope the store did not have shows it, and says so; one into a scope already there
    // leaves the view where it is (the view stayed on the old scope and the runs seemed lost).
    void anImportBringsItsNewScopeIntoView()
    {
        const auto import = [&](const char* model, const char* name) {
            const std::string json = recordsJson(sweepRecords(model, "b300", "vllm", "fp4", { 1, 4, 16 }, 100, 1000));
            const QString file = m_dir.filePath(QString::fromLatin1(name));
            if (!writeFile(file, QByteArray::fromStdString(json)))
                return false;
            QSignalSpy done(m_window.get(), &MainWindow::importFinished);
            m_window->importItems({ ImportItem { file, {} } });
            return done.wait(30000) && m_window->lastImportResults().front().ok;
        };
        const std::string before = m_window->scopeData()->scope.model;
        QVERIFY(before != "brand-new-model");
        QVERIFY(import("brand-new-model", "new.json"));
        for (int i = 0; i < 5 && m_window->scopeData()->scope.model != "brand-new-model"; ++i)
            waitShown();
        QCOMPARE(m_window->scopeData()->scope.model, std::string("brand-new-model"));
        QVERIFY2(m_window->statusBar()->currentMessage().contains(QStringLiteral("new scope, now in view")),
            qPrintable(m_window->statusBar()->currentMessage()));
        QVERIFY(m_window->filters()->selectScope(QString::fromStdString(before), QString(), 0, 0)
            || m_window->filters()->selectScope(QString::fromStdString(before), QString(), 1024, 1024));
        for (int i = 0; i < 5 && m_window->scopeData()->scope.model != before; ++i)
            waitShown();
        QVERIFY(import("brand-new-model", "more.json")); // the same runs again: no new scope
        QTest::qWait(200);
        QCOMPARE(m_window->scopeData()->scope.model, before);
    }

    // A run marked as not trusted is drawn (as marked) but left out of the frontier until the filter's checkbox
    // includes it; the frontier then reaches the marked run's higher throughput.
    void markedRunsAreLeftOutUntilIncluded()
    {
        std::vector<RunRecord> runs = sweepRecords("marked-model", "b300", "vllm", "fp4", { 1, 4, 16 }, 100, 1000);
        runs.back().tputPerGpu = 50000.0; // the stalled level that looks best
        runs.back().marked = "16 of 160 requests failed (10%, more than 5%)";
        const QString json = QString::fromStdString(recordsJson(runs));
        const QString file = m_dir.filePath(QStringLiteral("marked.json"));
        QVERIFY(writeFile(file, json.toUtf8()));
        QSignalSpy done(m_window.get(), &MainWindow::importFinished);
        m_window->importItems({ ImportItem { file, {} } });
        QVERIFY(done.wait(30000));
        QVERIFY(m_window->lastImportResults().front().ok);
        QVERIFY(m_window->filters()->selectScope(QStringLiteral("marked-model"), QString(), 1024, 1024));
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
            if (c->text().contains(QStringLiteral("marked")))
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

    void cleanupTestCase() { m_window.reset(); }
};

PARETOSCOPE_SUITE(TestImportExport)
#include "tests/support/testpaths.h"
#include "tst_importexport.moc"
