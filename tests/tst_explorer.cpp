// The explorer as a planner meets it, on the bundled dataset and the InferenceX fixture (offscreen): filters kept per
// scope and said when they hide everything, the summary that follows the target and the tier.
#include <QtTest>

#include <QCheckBox>
#include <QDir>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSlider>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeWidget>
#include <QValueAxis>
#include <map>
#include <set>

#include "core/analysis/pricing.h"
#include "core/import/bundled.h"
#include "core/import/importer.h"
#include "core/output/reports.h"
#include "tests/support/sweeprecords.h"
#include "tests/support/testutil.h"
#include "widgets/chartpanel.h"
#include "widgets/displaynames.h"
#include "widgets/importdialogs.h"
#include "widgets/laddermodel.h"
#include "widgets/mainwindow.h"
#include "widgets/readoutmodel.h"
#include "widgets/runspanel.h"
#include "widgets/sessiondialog.h"
#include "widgets/targetmarker.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;

class TestExplorer : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;

    bool waitShown()
    {
        QSignalSpy spy(m_window.get(), &MainWindow::scopeShown);
        return spy.wait(10000);
    }

    // Selects a scope and waits until it is the one shown.
    bool show(const QString& model, int isl, int osl)
    {
        if (!m_window->filters()->selectScope(model, {}, isl, osl))
            return false;
        for (int i = 0; i < 10; ++i) {
            auto d = m_window->scopeData();
            if (d && QString::fromStdString(d->scope.model) == model && d->scope.isl.value_or(0) == isl)
                return true;
            waitShown();
        }
        return false;
    }

    QListWidgetItem* filterItem(const QString& text)
    {
        for (QListWidget* l : m_window->filters()->findChildren<QListWidget*>())
            for (int r = 0; r < l->count(); ++r)
                if (l->item(r)->text() == text)
                    return l->item(r);
        return nullptr;
    }

private slots:
    void initTestCase()
    {
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir.filePath("settings"));
        QCoreApplication::setOrganizationName("ParetoscopeTest");
        QCoreApplication::setApplicationName("tst_explorer");
        auto store = openStore(m_dir.filePath("store.sqlite").toStdString(), true);
        QVERIFY(store.ok());
        QVERIFY(importPath(**store, fixture("inferencex-app-api/benchmarks.json").toStdString(), {})[0].result.ok());
        // a model measured in FP8 only
        const std::string json
            = recordsJson(sweepRecords("fp8-only-model", "h200", "sglang", "fp8", { 1, 8, 64 }, 120, 700));
        QVERIFY(writeFile(m_dir.filePath("fp8.json"), QByteArray::fromStdString(json)));
        QVERIFY(importPath(**store, m_dir.filePath("fp8.json").toStdString(), {})[0].result.ok());
        m_window = std::make_unique<MainWindow>(std::move(*store));
        m_window->setShowImportResults(false);
        m_window->setWindowState(Qt::WindowNoState); // a window without saved geometry fills the (offscreen) screen
        m_window->resize(1366, 768);
        m_window->show();
        QVERIFY(waitShown());
    }

    // Filters belong to their scope: switching FP8 off for DeepSeek-R1 leaves an FP8-only model whole.
    void filtersAreKeptPerScope()
    {
        QVERIFY(show("dsr1", 1024, 1024));
        QListWidgetItem* fp8 = filterItem("FP8");
        QVERIFY(fp8);
        if (fp8->checkState() == Qt::Checked) { // unchecked by default (one precision per view), or by hand here
            fp8->setCheckState(Qt::Unchecked);
            QVERIFY(waitShown());
        }
        QVERIFY(show("fp8-only-model", 1024, 1024));
        QCOMPARE(int(m_window->scopeData()->runCount), 3);
        QCOMPARE(filterItem("FP8")->checkState(), Qt::Checked);
        // and back: DeepSeek-R1 still has FP8 off
        QVERIFY(show("dsr1", 1024, 1024));
        QCOMPARE(filterItem("FP8")->checkState(), Qt::Unchecked);
        const QVariantMap kept = m_window->filters()->uncheckedByScope();
        QCOMPARE(kept.size(), 1);
        QVERIFY(kept.first().toStringList().contains("precision:fp8"));
    }

    // Every hardware unchecked: the scope says it matches nothing (Scope::matchesNothing, no sentinel value in its
    // lists), and the readout reads no hardware (computeLadder read a ladder for a sentinel in the hardware list).
    void everyHardwareUncheckedMatchesNothing()
    {
        QVERIFY(show("fp8-only-model", 1024, 1024));
        QListWidgetItem* h200 = filterItem("H200"); // the model's only hardware
        QVERIFY(h200);
        QVERIFY(m_window->readout()->model()->rowCount() > 0);
        h200->setCheckState(Qt::Unchecked);
        const Scope none = m_window->filters()->scope();
        QVERIFY(none.matchesNothing);
        QVERIFY(none.hardware.empty());
        for (int i = 0; i < 10 && m_window->readout()->model()->rowCount() > 0; ++i)
            waitShown();
        QCOMPARE(m_window->readout()->model()->rowCount(), 0);
        filterItem("H200")->setCheckState(Qt::Checked);
        QVERIFY(!m_window->filters()->scope().matchesNothing);
        for (int i = 0; i < 10 && m_window->readout()->model()->rowCount() == 0; ++i)
            waitShown();
        QVERIFY(m_window->readout()->model()->rowCount() > 0);
    }

    // Filters that leave nothing say which value hides how many runs, and one click shows them all again.
    void filtersThatHideEverythingSaySoAndReset()
    {
        QVERIFY(show("fp8-only-model", 1024, 1024));
        filterItem("FP8")->setCheckState(Qt::Unchecked);
        QVERIFY(waitShown());
        QCOMPARE(int(m_window->scopeData()->runCount), 0);
        QLabel* hint = nullptr;
        for (QLabel* l : m_window->chartPanel()->findChildren<QLabel*>())
            if (l->isVisible() && l->text().contains("The filters hide all"))
                hint = l;
        QVERIFY2(hint, "a line says the filters hide everything");
        QVERIFY2(hint->text().contains("all 3 runs") && hint->text().contains("Precision FP8 hides 3 runs"),
            qPrintable(hint->text()));
        QPushButton* reset = nullptr;
        for (QPushButton* b : m_window->chartPanel()->findChildren<QPushButton*>())
            if (b->text() == "Show all runs")
                reset = b;
        QVERIFY(reset && reset->isVisible());
        reset->click();
        QVERIFY(waitShown());
        QCOMPARE(int(m_window->scopeData()->runCount), 3);
        QVERIFY(!hint->isVisible());
        QCOMPARE(filterItem("FP8")->checkState(), Qt::Checked);
    }

    // The summary speaks of the target and the tier in view, and says in words why a hardware has no reading.
    void summaryFollowsTheTargetAndTheTier()
    {
        QVERIFY(show("DeepSeek-V4.1-Flash", 0, 0));
        m_window->readout()->setTarget(75);
        const PricingTier& retail = *bundledPricing().find("retail");
        m_window->readout()->setPrice(QString::fromStdString(retail.key), 0);
        const QString md = m_window->summary()->markdown();
        QVERIFY2(md.contains("at 75 tok/s/user") && md.contains(QString::fromStdString(retail.label)), qPrintable(md));
        // the published B300 reading at 75 and its retail price: 4.25 / (249,248 x 3600) x 1e6 = $0.005
        QVERIFY2(md.contains("249,248 (vllm, fp4)") && md.contains("$0.005"), qPrintable(md));
        m_window->readout()->setTarget(20);
        const QString below = m_window->summary()->markdown();
        QVERIFY2(below.contains("- (below the measured range)") && !below.contains("below_range"), qPrintable(below));
        // behind another tab the summary keeps its text current (Copy as Markdown) but is laid out only when shown
        auto* tabs = m_window->findChild<QTabWidget*>();
        QVERIFY(tabs);
        tabs->setCurrentWidget(m_window->summary());
        QVERIFY(m_window->summary()->rendered());
        tabs->setCurrentIndex(tabs->indexOf(m_window->summary()) == 0 ? 1 : 0);
        m_window->readout()->setTarget(75);
        QVERIFY(!m_window->summary()->rendered());
        QVERIFY(m_window->summary()->markdown().contains("at 75 tok/s/user"));
        tabs->setCurrentWidget(m_window->summary());
        QVERIFY(m_window->summary()->rendered());
        const QString shown = m_window->summary()->findChild<QTextBrowser*>()->toPlainText();
        QVERIFY2(shown.contains("at 75 tok/s/user"), qPrintable(shown));
    }

    // A reading across a wide gap between measured points is hatched, says between which points, and can be hidden:
    // DeepSeek-R1 1k/1k on B200 is read from Dynamo TRT's points at 21, 74 and 309 tok/s/user only.
    void sparseReadingsAreHatchedAndCanBeHidden()
    {
        QVERIFY(show("dsr1", 1024, 1024));
        filterItem("B200")->setCheckState(Qt::Checked);
        LadderModel* model = m_window->ladder()->model();
        int b200 = -1;
        for (int r = 0; r < model->rowCount() && b200 < 0; ++r)
            if (model->index(r, LadderModel::Hardware).data().toString() == "B200"
                && model->index(r, LadderModel::Target).data(Qt::UserRole).toDouble() == 100)
                b200 = r;
        QVERIFY(b200 >= 0);
        const QModelIndex value = model->index(b200, LadderModel::TputPerGpu);
        QCOMPARE(value.data(Qt::BackgroundRole).value<QBrush>().style(), Qt::BDiagPattern);
        const QString sparseText = value.data().toString();
        const QString tip = value.data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains("74.04 and 309.2") && tip.contains("4.2x apart"), qPrintable(tip));
        // a measured reading is plain
        const QModelIndex dense = model->index(0, LadderModel::TputPerGpu);
        if (model->index(0, LadderModel::Hardware).data().toString() != "B200")
            QVERIFY(!dense.data(Qt::BackgroundRole).isValid() || dense.data(Qt::ToolTipRole).toString().isEmpty()
                || dense.data(Qt::BackgroundRole).value<QBrush>().style() != Qt::BDiagPattern);
        // the chart's label for B200 at 100 tok/s/user is that reading, and follows the option too
        auto b200Label = [this] {
            for (const TargetMarker::Reading& r : m_window->chartPanel()->chart()->marker().readings())
                if (r.hardware == "b200" && !r.label.isEmpty())
                    return r.label;
            return QString();
        };
        m_window->readout()->setTarget(100);
        const QString sparseLabel = b200Label();
        QVERIFY(!sparseLabel.isEmpty());
        m_window->readout()->setHideSparse(true);
        QVERIFY2(b200Label() != sparseLabel, qPrintable(sparseLabel));
        // another B200 group measured near 100 answers now, or nothing does; either way no hatched reading
        const QString sparseValue = sparseText;
        const QModelIndex after = model->index(b200, LadderModel::TputPerGpu);
        QVERIFY(after.data().toString() != sparseValue);
        QVERIFY(after.data(Qt::BackgroundRole).value<QBrush>().style() != Qt::BDiagPattern);
        m_window->readout()->setHideSparse(false);
        QCOMPARE(model->index(b200, LadderModel::TputPerGpu).data().toString(), sparseValue);
        QCOMPARE(b200Label(), sparseLabel);
    }

    // The ladder CSV carries the share of the speed of light the readout shows (it was left empty).
    void ladderCsvHasTheSpeedOfLightShare()
    {
        QVERIFY(show("dsr1", 8192, 1024));
        m_window->readout()->setTarget(50);
        std::map<std::string, double> shown; // hardware -> the readout's share, where it has one
        for (const auto& l : m_window->readout()->model()->readings())
            if (l.rows.front().speedOfLightPct)
                shown[l.hardware] = *l.rows.front().speedOfLightPct;
        QVERIFY2(!shown.empty(), "the readout shows a share of the speed of light");
        const QString csv = m_dir.filePath("ladder.csv");
        QVERIFY(m_window->exportLadderCsv(csv).ok());
        const QList<QByteArray> lines = readAll(csv).trimmed().split('\n');
        const QList<QByteArray> head = lines.front().split(',');
        const int hw = int(head.indexOf("hardware")), target = int(head.indexOf("target_tok_s_user")),
                  pct = int(head.indexOf("pct_speed_of_light"));
        std::size_t matched = 0;
        for (const QByteArray& line : lines.mid(1)) {
            const QList<QByteArray> cells = line.split(',');
            const auto it = shown.find(cells.value(hw).toStdString());
            if (it == shown.end() || cells.value(target) != "50")
                continue;
            QVERIFY2(!cells.value(pct).isEmpty(), line.constData());
            QCOMPARE(cells.value(pct).toDouble(), it->second);
            ++matched;
        }
        QCOMPARE(matched, shown.size());
    }

    // Colours follow the hardware, not its place in the list: hiding GB300 leaves MI355X's colour as it was, and the
    // engines of one hardware are shades apart.
    void coloursFollowTheHardware()
    {
        QVERIFY(show("dsr1", 1024, 1024));
        auto colours = [&] {
            std::map<QString, QRgb> out; // legend label -> line colour
            FrontierChart* chart = m_window->chartPanel()->chart();
            for (std::size_t i = 0; i < chart->groupCount(); ++i)
                out[chart->line(i)->name()] = chart->line(i)->pen().color().rgb();
            return out;
        };
        const auto before = colours();
        QListWidgetItem* gb300 = filterItem("GB300");
        QVERIFY(gb300 && gb300->checkState() == Qt::Checked);
        gb300->setCheckState(Qt::Unchecked);
        QVERIFY(waitShown());
        const auto after = colours();
        QVERIFY(after.size() < before.size());
        int kept = 0;
        for (const auto& [label, colour] : after) {
            QVERIFY(before.count(label));
            QCOMPARE(QColor(colour).name(), QColor(before.at(label)).name());
            kept += label.startsWith("MI355X");
        }
        QVERIFY(kept > 0);
        gb300->setCheckState(Qt::Checked);
        QVERIFY(waitShown());
        // the engines of B200 share its colour and differ in marker; two hardware differ in colour
        std::set<QRgb> b200;
        std::set<MarkerShape> b200Shapes;
        FrontierChart* chart = m_window->chartPanel()->chart();
        for (std::size_t i = 0; i < chart->groupCount(); ++i)
            if (chart->chartData().series[i].key.hardware == "b200") {
                b200.insert(chart->groupColour(i).rgb());
                b200Shapes.insert(chart->groupShape(i));
            }
        QCOMPARE(b200.size(), std::size_t(1));
        QVERIFY2(b200Shapes.size() > 1, "the engines of B200 are told apart");
        QVERIFY(!before.empty());
    }

    // A linear y fits the measured runs; the speed of light, far above them, widens a log y only, and the chart says
    // where the bound went (the y axis ran to 50,000 over data that peaks near 18,000).
    void linearAxesFitTheMeasuredRuns()
    {
        QVERIFY(show("dsr1", 8192, 1024));
        ChartPanel* panel = m_window->chartPanel();
        auto measuredTop = [&] {
            double top = 0;
            for (const ChartSeries& s : panel->chart()->chartData().series) {
                for (const Point& p : s.runs)
                    top = std::max(top, p.y);
                for (const Point& p : s.frontier)
                    top = std::max(top, p.y);
            }
            return top;
        };
        auto setLogY = [&](bool on) {
            ChartState st = panel->state();
            st.request.logY = on;
            panel->setState(st);
        };
        setLogY(false);
        const ChartData& linear = panel->chart()->chartData();
        QVERIFY(!linear.speedOfLight.empty());
        QCOMPARE(linear.yMax, measuredTop());
        QLabel* note = nullptr;
        for (QLabel* l : panel->findChildren<QLabel*>())
            if (l->text().contains("speed of light above the view"))
                note = l;
        QVERIFY2(note, "the chart says the bound is above a linear view");
        setLogY(true);
        const ChartData& logY = panel->chart()->chartData();
        QVERIFY(logY.yMax > 2 * measuredTop());
        setLogY(false);
    }

    // The legend beside the chart lists every group and bound, scrolls where they do not fit, and switches them:
    // the chart's own legend showed 18 of 24 entries at 1366x768, the rest out of reach.
    void legendListsAndSwitchesEveryGroup()
    {
        QVERIFY(show("dsr1", 1024, 1024));
        ChartPanel* panel = m_window->chartPanel();
        FrontierChart* chart = panel->chart();
        ChartLegend* legend = panel->legend();
        QVERIFY(!chart->legend()->isVisible());
        QCOMPARE(std::size_t(legend->count()), chart->groupCount() + chart->speedOfLightLines().size());
        QVERIFY(chart->groupCount() > 12);
        for (std::size_t i = 0; i < chart->groupCount(); ++i)
            QCOMPARE(legend->item(int(i))->text(), chart->groupName(i));
        // the last entry can be scrolled into view and clicked like the first
        QListWidgetItem* last = legend->item(int(chart->groupCount()) - 1);
        legend->scrollToItem(last);
        const QRect r = legend->visualItemRect(last);
        QVERIFY(legend->viewport()->rect().contains(r.center()));
        QSignalSpy toggled(chart, &FrontierChart::groupToggled);
        QTest::mouseClick(legend->viewport(), Qt::LeftButton, {}, r.center());
        QCOMPARE(toggled.count(), 1);
        QVERIFY(!chart->groupVisible(chart->groupCount() - 1));
        QCOMPARE(last->checkState(), Qt::Unchecked);
        // the hidden group is remembered: the next rebuild keeps it off
        QVERIFY(panel->state().hidden.count(groupLabel(chart->chartData().series.back().key)));
        QTest::mouseClick(legend->viewport(), Qt::LeftButton, {}, legend->visualItemRect(last).center());
        QVERIFY(chart->groupVisible(chart->groupCount() - 1));
        QCOMPARE(last->checkState(), Qt::Checked);
    }

    // At 1366x768 the chart gets the room (it was 50 to 80 px tall) and the readout shows its columns without
    // scrolling (the ratio to the baseline gives way to the sentence under the table).
    void smallScreenGivesTheChartRoom()
    {
        QVERIFY(show("dsr1", 1024, 1024));
        QCOMPARE(m_window->size(), QSize(1366, 768));
        QTest::qWait(50);
        FrontierView* view = m_window->chartPanel()->view();
        QVERIFY2(view->height() >= 300 && view->width() >= 400,
            qPrintable(QStringLiteral("%1x%2").arg(view->width()).arg(view->height())));
        QTableView* table = m_window->readout()->findChild<QTableView*>();
        QVERIFY(table);
        QVERIFY2(table->horizontalScrollBar()->maximum() == 0,
            qPrintable(QStringLiteral("panel %1, needs %2 (%3 with the ratio), viewport %4, columns %5, ratio %6")
                           .arg(m_window->readout()->width())
                           .arg(m_window->readout()->neededWidth(false))
                           .arg(m_window->readout()->neededWidth(true))
                           .arg(table->viewport()->width())
                           .arg(table->horizontalHeader()->length())
                           .arg(table->isColumnHidden(ReadoutModel::VsBaseline) ? "hidden" : "shown")));
        QVERIFY(!table->isColumnHidden(ReadoutModel::SpeedOfLight));
        QVERIFY(!table->isColumnHidden(ReadoutModel::CostPerMTok));
        QVERIFY2(!m_window->readout()->comparison().isEmpty(), "the ratio is said under the table");
        // whatever the target, the columns shown fit (the ratio came back at 200 and pushed the share off)
        for (double target : { 30.0, 75.0, 200.0, 5000.0, 50.0 }) {
            m_window->readout()->setTarget(target);
            QCoreApplication::processEvents();
            QVERIFY2(table->horizontalScrollBar()->maximum() == 0,
                qPrintable(QStringLiteral("%1: panel %2, needs %3 (%4 with the ratio), table %5, columns %6")
                               .arg(target)
                               .arg(m_window->readout()->width())
                               .arg(m_window->readout()->neededWidth(false))
                               .arg(m_window->readout()->neededWidth(true))
                               .arg(table->viewport()->width())
                               .arg(table->horizontalHeader()->length())));
        }
    }

    // The bounds are cut at the plot's edges (an SVG does not clip, so the speed of light ran over the legend), and
    // an exported chart carries its title and source line.
    void exportsAreClippedAndCaptioned()
    {
        // a segment from (10, 100) to (1000, 1) on log-log axes, cut to [20, 500] x [1, 50]: straight in log space,
        // y = 100 * (x / 10)^-1, so it enters at x = 20 (y = 50) and leaves at x = 500 (y = 2)
        const auto cut = clipPolyline({ { 10, 100, 0 }, { 1000, 1, 0 } }, 20, 500, 1, 50, true, true);
        QCOMPARE(int(cut.size()), 2);
        QVERIFY(std::abs(cut[0].x - 20) < 1e-9 && std::abs(cut[0].y - 50) < 1e-9);
        QVERIFY(std::abs(cut[1].x - 500) < 1e-9 && std::abs(cut[1].y - 2) < 1e-9);
        // linear: (0, 0) to (10, 10) in [0, 4] x [0, 10] leaves at (4, 4)
        const auto lin = clipPolyline({ { 0, 0, 0 }, { 10, 10, 0 } }, 0, 4, 0, 10, false, false);
        QCOMPARE(int(lin.size()), 2);
        QCOMPARE(lin[1].x, 4.0);
        QCOMPARE(lin[1].y, 4.0);
        QVERIFY(clipPolyline({ { 0, 20, 0 }, { 10, 30, 0 } }, 0, 10, 0, 10, false, false).empty());

        QVERIFY(show("dsr1", 8192, 1024));
        ChartPanel* panel = m_window->chartPanel();
        ChartState st = panel->state();
        st.request.logY = false;
        panel->setState(st);
        FrontierChart* chart = panel->chart();
        auto* ay = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).front());
        QVERIFY(ay);
        QVERIFY(!chart->speedOfLightLines().empty());
        for (QLineSeries* sol : chart->speedOfLightLines())
            for (const QPointF& p : sol->points())
                QVERIFY2(p.y() <= ay->max() * (1 + 1e-9), qPrintable(QString::number(p.y())));

        const QString svg = m_dir.filePath("captioned.svg");
        QVERIFY(m_window->exportChartSvg(svg, QSize(900, 560)).ok());
        const QString text = QString::fromUtf8(readAll(svg));
        QVERIFY2(text.contains("<title>dsr1 · ISL 8192 / OSL 1024"), qPrintable(text.left(600)));
        const QString runs = QLocale(QLocale::English).toString(qulonglong(m_window->scopeData()->runCount));
        QVERIFY2(text.contains("Paretoscope · " + runs + " runs from store.sqlite"), "the source line is drawn");
        QVERIFY(text.contains(QDate::currentDate().toString(Qt::ISODate)));
        // every group shown and every bound is in the exported legend, at the window's small size too (Qt Charts'
        // legend cut the list short)
        QVERIFY(m_window->exportChartPng(m_dir.filePath("small.png"), QSize(713, 508), 2).ok());
        if (const QString keep = qEnvironmentVariable("PARETOSCOPE_KEEP_EXPORTS"); !keep.isEmpty())
            QFile::copy(m_dir.filePath("small.png"), QDir(keep).filePath("export-713x508@2.png")); // to look at
        QVERIFY(m_window->exportChartSvg(svg, QSize(713, 508)).ok());
        const QString small = QString::fromUtf8(readAll(svg));
        FrontierChart* shown = panel->chart();
        for (std::size_t i = 0; i < shown->groupCount(); ++i)
            QVERIFY2(small.contains(shown->groupName(i).toHtmlEscaped()), qPrintable(shown->groupName(i)));
        for (std::size_t i = 0; i < shown->speedOfLightLines().size(); ++i)
            QVERIFY2(small.contains(shown->speedOfLightName(i)), qPrintable(shown->speedOfLightName(i)));
        st.request.logY = true;
        panel->setState(st);
    }

    // The Runs tab filters by every word in any column, and its count says how many match (it stayed "195 runs").
    void runsFilterMatchesEveryWordAndCounts()
    {
        QVERIFY(show("dsr1", 1024, 1024));
        filterItem("FP8")->setCheckState(Qt::Checked);
        QVERIFY(waitShown());
        RunsPanel* runs = m_window->runs();
        QSignalSpy page(runs->model(), &RunsModel::pageLoaded);
        m_window->findChild<QTabWidget*>()->setCurrentWidget(runs);
        if (runs->model()->loading()) // read on the store worker: one page holds this scope's runs
            QVERIFY(page.wait(10000));
        QVERIFY(!runs->model()->loading());
        const int all = runs->model()->rowCount();
        QCOMPARE(runs->model()->total(), static_cast<long long>(all));
        QVERIFY(all > 0);
        QCOMPARE(runs->countText(), QStringLiteral("%1 runs").arg(QLocale(QLocale::English).toString(all)));
        // counted here on their own: rows whose some cell holds "mi355x" and some cell "mtp"
        auto holds = [&](int row, const QString& word) {
            for (int c = 0; c < runs->model()->columnCount(); ++c)
                if (runs->model()->index(row, c).data().toString().contains(word, Qt::CaseInsensitive))
                    return true;
            return false;
        };
        int expected = 0;
        for (int r = 0; r < all; ++r)
            expected += holds(r, "mi355x") && holds(r, "mtp");
        QVERIFY(expected > 0 && expected < all);
        runs->setFilterText("mi355x  MTP");
        QCOMPARE(runs->proxy()->rowCount(), expected);
        QCOMPARE(runs->countText(),
            QStringLiteral("%1 of %2 runs match").arg(expected).arg(QLocale(QLocale::English).toString(all)));
        runs->setFilterText("mi355x nosuchword");
        QCOMPARE(runs->proxy()->rowCount(), 0);
        runs->setFilterText(QString());
        QCOMPARE(runs->proxy()->rowCount(), all);
        filterItem("FP8")->setCheckState(Qt::Unchecked);
        QVERIFY(waitShown());
    }

    // A vLLM sweep of eight files from one folder asks once (it asked eight times), with the model taken from the
    // files' model_id (a Hugging Face cache path) and only the GPU counts that apply shown.
    void benchSweepAsksOncePerFolder()
    {
        QCOMPARE(modelName("/models/models--openai--gpt-oss-120b/snapshots/b5c939de8f754692c1647ca79fbf85e8c1e70f8a/"),
            QStringLiteral("gpt-oss-120b"));
        QCOMPARE(modelName("MiniMax-M2.5"), QStringLiteral("MiniMax-M2.5"));
        QCOMPARE(modelName("/data/llama-3-70b"), QStringLiteral("llama-3-70b"));
        const QDir folder(fixture("inferencex-raw-bench-serving/gpt-oss-120b"));
        QStringList paths;
        for (const QString& f : folder.entryList({ "*.json" }, QDir::Files))
            paths << folder.filePath(f);
        QCOMPARE(paths.size(), 8);
        int asked = 0;
        QString offered, model;
        bool gpusShown = false, prefillShown = false;
        QObject answering; // the answers still due when the test ends go with it (they refer to its locals)
        std::function<void()> answer = [&] {
            CallerFieldsDialog* dialog = nullptr;
            for (QWidget* w : QApplication::topLevelWidgets())
                if (auto* d = qobject_cast<CallerFieldsDialog*>(w); d && d->isVisible())
                    dialog = d;
            if (!dialog) {
                QTimer::singleShot(20, &answering, answer);
                return;
            }
            ++asked;
            for (QCheckBox* c : dialog->findChildren<QCheckBox*>())
                if (c->isVisible())
                    offered = c->text();
            for (QLineEdit* e : dialog->findChildren<QLineEdit*>())
                if (e->placeholderText().startsWith("e.g. b300"))
                    e->setText("b200");
                else if (e->placeholderText().startsWith("e.g. DeepSeek"))
                    model = e->text();
            for (QSpinBox* sb : dialog->findChildren<QSpinBox*>())
                if (sb->value() == 8 && sb->isVisible()) {
                    gpusShown = true;
                    sb->setValue(16);
                }
            prefillShown = false;
            for (QSpinBox* sb : dialog->findChildren<QSpinBox*>())
                prefillShown = prefillShown || (sb->minimum() == 1 && sb->isVisible());
            dialog->accept();
            if (asked < 10) // a dialog per file would be answered too, and counted
                QTimer::singleShot(20, &answering, answer);
        };
        QTimer::singleShot(0, &answering, answer);
        QSignalSpy done(m_window.get(), &MainWindow::importFinished);
        m_window->importPaths(paths);
        QVERIFY(done.count() || done.wait(30000));
        QCOMPARE(asked, 1);
        QVERIFY2(offered.contains("other 7 vllm-bench files from"), qPrintable(offered));
        QCOMPARE(model, QStringLiteral("gpt-oss-120b"));
        QVERIFY(gpusShown);
        QVERIFY2(!prefillShown, "aggregated serving shows one GPU count");
        const QList<ImportResultLine> results = m_window->lastImportResults();
        QCOMPARE(results.size(), 8);
        for (const ImportResultLine& r : results)
            QVERIFY2(r.ok && r.message.startsWith("1 run imported (vllm-bench)"), qPrintable(r.message));
        // the results read whole: a long result wraps, its notes under it
        ImportResultLine noted { "agg.json", true, "3 runs imported (inferencex-agg), 0 already stored",
            { "agg.json: 1 record (2): field 'input_tput_per_gpu' is 0, left out" } };
        ImportResultsDialog dialog({ noted });
        QTreeWidgetItem* item = dialog.list()->topLevelItem(0);
        QVERIFY(item->text(1).contains("left out"));
        QVERIFY(dialog.list()->wordWrap());
        QCOMPARE(dialog.list()->header()->sectionResizeMode(0), QHeaderView::Interactive);
    }

    // Smaller things a planner met: Ctrl+E reaches the window from a text box; the arrow keys move the target by one
    // tok/s/user; the custom price and the live-session dialog's fields outlive the window; the latency view marks the
    // target; a reading with no value says why.
    void smallerThings()
    {
        QVERIFY(show("dsr1", 1024, 1024));
        // a line edit takes Ctrl+E as "end of line" unless the window keeps its shortcut
        QLineEdit* box = m_window->findChild<RunsPanel*>()->findChild<QLineEdit*>();
        QVERIFY(box);
        QKeyEvent ctrlE(QEvent::ShortcutOverride, Qt::Key_E, Qt::ControlModifier);
        QApplication::sendEvent(box, &ctrlE);
        QVERIFY2(!ctrlE.isAccepted(), "the text box does not take the window's Ctrl+E");
        QKeyEvent ctrlC(QEvent::ShortcutOverride, Qt::Key_C, Qt::ControlModifier);
        QApplication::sendEvent(box, &ctrlC);
        QVERIFY2(ctrlC.isAccepted(), "copy stays the text box's");

        m_window->readout()->setTarget(50);
        QSlider* slider = m_window->readout()->findChild<QSlider*>();
        QTest::keyClick(slider, Qt::Key_Right);
        QCOMPARE(m_window->readout()->target(), 51.0);
        QTest::keyClick(slider, Qt::Key_Left);
        QTest::keyClick(slider, Qt::Key_Left);
        QCOMPARE(m_window->readout()->target(), 49.0);
        m_window->readout()->setTarget(50);

        // the custom price is kept though a tier is chosen when the window closes
        m_window->readout()->setPrice(QString(), 3.75);
        m_window->readout()->setPrice("retail", 3.75);
        QVERIFY(m_window->close());
        QCOMPARE(QSettings().value("readout/customPrice").toDouble(), 3.75);
        m_window->show();

        {
            SessionDialog first(QString(), m_window.get());
            for (QLineEdit* e : first.findChildren<QLineEdit*>())
                if (e->objectName() == "concurrency")
                    e->setText("2,8,32");
            first.accept(); // starts nothing here: the dialog only remembers what a started session asked
        }
        SessionDialog second(QString(), m_window.get());
        QLineEdit* levels = nullptr;
        for (QLineEdit* e : second.findChildren<QLineEdit*>())
            if (e->objectName() == "concurrency")
                levels = e;
        QVERIFY(levels);
        QCOMPARE(levels->text(), QStringLiteral("2,8,32"));
        for (const QString& key : QSettings().allKeys())
            QVERIFY2(!key.contains("apiKey", Qt::CaseInsensitive), qPrintable(key));

        ChartPanel* panel = m_window->chartPanel();
        ChartState st = panel->state();
        st.request.x = ChartX::Latency;
        panel->setState(st);
        const TargetMarker& marker = panel->chart()->marker();
        QVERIFY(marker.isVisible());
        QCOMPARE(marker.x(), 1024.0 / 50);
        QVERIFY2(
            marker.caption().contains("50 tok/s/user:\n20.5 s for 1,024 output tokens"), qPrintable(marker.caption()));
        st.request.x = ChartX::Interactivity;
        panel->setState(st);

        // the ladder's cost headers name the tiers as the pricing box does, not by their keys
        LadderModel* ladder = m_window->ladder()->model();
        QStringList headers;
        for (int c = LadderModel::FirstTier; c < ladder->columnCount(); ++c)
            headers << ladder->headerData(c, Qt::Horizontal).toString().simplified();
        QVERIFY2(headers.join('|').contains("Owning at Large Hyperscaler Volume")
                && headers.join('|').contains("Neocloud (mid-2026)") && !headers.join('|').contains("mid2026-"),
            qPrintable(headers.join('|')));

        m_window->readout()->setTarget(5000);
        const QModelIndex none = m_window->readout()->model()->index(0, ReadoutModel::TputPerGpu);
        QCOMPARE(none.data().toString(), QStringLiteral("above range"));
        QVERIFY(none.data(Qt::ToolTipRole).toString().contains("above the measured range"));
        const int rows = m_window->readout()->model()->rowCount();
        m_window->readout()->setTarget(50);
        QCOMPARE(m_window->readout()->model()->rowCount(), rows); // the rows stay, whatever the target
    }

    // Another process writes runs of a new model into the store the window shows (here another connection, as the
    // CLI or a cluster collect has): the window notices within a few seconds and lists the model, and shows its runs.
    void runsWrittenElsewhereAppear()
    {
        auto other = openStore(m_dir.filePath("store.sqlite").toStdString(), true);
        QVERIFY(other.ok());
        const std::string json
            = recordsJson(sweepRecords("written-elsewhere", "b300", "vllm", "fp4", { 1, 8 }, 200, 900));
        QVERIFY(writeFile(m_dir.filePath("elsewhere.json"), QByteArray::fromStdString(json)));
        QVERIFY(importPath(**other, m_dir.filePath("elsewhere.json").toStdString(), {})[0].result.ok());
        QTRY_VERIFY_WITH_TIMEOUT(m_window->filters()->selectScope("written-elsewhere", {}, 1024, 1024), 10000);
        QVERIFY(show("written-elsewhere", 1024, 1024));
        QCOMPARE(int(m_window->scopeData()->runCount), 2);
    }

    void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestExplorer)
#include "tst_explorer.moc"
