// The explorer's readings as a planner meets them on the bundled dataset and the InferenceX fixture (offscreen): the
// summary that follows the target and the tier, readings across wide gaps hatched and hideable, the ladder CSV's share
// of the speed of light, and smaller things (shortcuts, the arrow keys, remembered fields, the latency view's marker).
#include <QtTest>

#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QSettings>
#include <QSlider>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <map>

#include "core/analysis/pricing.h"
#include "tests/support/explorerfixture.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"
#include "widgets/chart/chartpanel.h"
#include "widgets/chart/targetmarker.h"
#include "widgets/readout/laddermodel.h"
#include "widgets/readout/readoutmodel.h"
#include "widgets/runs/runspanel.h"
#include "widgets/session/sessiondialog.h"
#include "widgets/window/mainwindow.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;

class TestExplorerReadout : public ExplorerFixture {
    Q_OBJECT
private slots:
    void initTestCase() { openExplorer("tst_explorerreadout"); }

    // The panels' edges stay where they are as scopes and targets change: the readout grows for readings that need
    // more room, taking it from the chart (the filters give only what the chart at its minimum cannot), and keeps its
    // width when later readings need less. The splitter took from every panel alike and gave it back, so the
    // filters' and the chart's edges moved with each scope (sizes 200, 711, 447, then 189, 665, 504, then 200, 708,
    // 450 at 1366x768).
    void panelsKeepTheirEdgesAcrossScopesAndTargets()
    {
        QVERIFY(show(QStringLiteral("fp8-only-model"), 1024, 1024));
        // the Explore page: the chart, then the column of the readout over the ladder
        auto* splitter = m_window->findChild<QSplitter*>(QStringLiteral("explore"));
        QVERIFY(splitter && splitter->count() == 2);
        QVERIFY(splitter->widget(1)->isAncestorOf(m_window->readout()));
        const QList<int> before = splitter->sizes();
        QVERIFY(show(QStringLiteral("dsr1"), 1024, 1024));
        const QList<int> after = splitter->sizes();
        QCOMPARE(after[0] + after[1], before[0] + before[1]);
        QVERIFY(after[1] >= before[1]);
        QVERIFY(m_window->readout()->width() >= m_window->readout()->minimumWidth());
        for (const auto& step : { std::pair<QString, double>(QStringLiteral("fp8-only-model"), 50),
                 { QStringLiteral("dsr1"), 137 }, { QStringLiteral("dsr1"), 20 },
                 { QStringLiteral("fp8-only-model"), 100 }, { QStringLiteral("dsr1"), 50 } }) {
            QVERIFY(show(step.first, 1024, 1024));
            m_window->readout()->setTarget(step.second);
            QTest::qWait(50); // the splitter lays out a changed minimum on its next turn
            QCOMPARE(splitter->sizes(), after);
        }
    }

    // The baseline chosen on a scope comes back with the scope: it was reset to none after a scope switch and back.
    void theBaselineIsKeptPerScope()
    {
        QVERIFY(show(QStringLiteral("dsr1"), 1024, 1024));
        m_window->readout()->setBaseline(QStringLiteral("b200"));
        QCOMPARE(m_window->readout()->baseline(), QStringLiteral("b200"));
        QVERIFY(show(QStringLiteral("fp8-only-model"), 1024, 1024)); // h200 only: no B200 to compare with
        QVERIFY(m_window->readout()->baseline() != QStringLiteral("b200"));
        QVERIFY(show(QStringLiteral("dsr1"), 1024, 1024));
        QCOMPARE(m_window->readout()->baseline(), QStringLiteral("b200"));
        QVERIFY(m_window->readout()->comparison().contains(QStringLiteral("B200")));
        m_window->readout()->setBaseline(QString()); // none, chosen: kept too
        QVERIFY(show(QStringLiteral("fp8-only-model"), 1024, 1024));
        QVERIFY(show(QStringLiteral("dsr1"), 1024, 1024));
        QCOMPARE(m_window->readout()->baseline(), QString());
    }

    void everyShownColumnIsAsWideAsItsTitle()
    {
        // the readout made narrow enough to hide J/token, then wider a few pixels at a time: when the column comes
        // back it is as wide as its title (it was measured hidden, when Qt's header gives a hidden section no width,
        // and shown at its cells' width: "ok (all-i")
        QVERIFY(show(QStringLiteral("dsr1"), 8192, 1024));
        const Qt::WindowStates state = m_window->windowState();
        const QSize size = m_window->size();
        m_window->setWindowState(Qt::WindowNoState); // room for the readout to grow into (offscreen it is maximized)
        m_window->resize(1920, 1080);
        QTest::qWait(10);
        auto* splitter = m_window->findChild<QSplitter*>(QStringLiteral("explore")); // the chart | the readout
        QVERIFY(splitter);
        const QList<int> before = splitter->sizes();
        auto* table = m_window->readout()->findChild<QTableView*>();
        QHeaderView* header = table->horizontalHeader();
        const auto titleWidth = [&](int c) {
            int widest = 0;
            for (const QString& line : table->model()->headerData(c, Qt::Horizontal).toString().split(u'\n'))
                widest = std::max(widest, header->fontMetrics().horizontalAdvance(line));
            return widest;
        };
        bool hidden = false, shownAgain = false;
        for (int more = 0; more <= 300; more += 10) {
            QList<int> sizes = before;
            const int narrowest = m_window->readout()->minimumWidth();
            sizes[0] += sizes[1] - (narrowest + more);
            sizes[1] = narrowest + more;
            splitter->setSizes(sizes);
            QTest::qWait(10);
            const bool energy = !table->isColumnHidden(ReadoutModel::AllInJoulesPerToken);
            hidden = hidden || !energy;
            shownAgain = shownAgain || (hidden && energy);
            for (int c = 0; c < ReadoutModel::ColumnCount; ++c)
                if (!table->isColumnHidden(c))
                    QVERIFY2(header->sectionSize(c) >= titleWidth(c),
                        qPrintable(QStringLiteral("column %1 is %2 px, its title %3 px, the readout %4 px")
                                       .arg(c)
                                       .arg(header->sectionSize(c))
                                       .arg(titleWidth(c))
                                       .arg(m_window->readout()->width())));
        }
        QVERIFY2(hidden && shownAgain, "J/token hidden, then shown again");
        splitter->setSizes(before);
        m_window->resize(size);
        m_window->setWindowState(state);
        QTest::qWait(10);
    }

    // The summary speaks of the target and the tier in view, and says in words why a hardware has no reading.
    void summaryFollowsTheTargetAndTheTier()
    {
        QVERIFY(show(QStringLiteral("DeepSeek-V4.1-Flash"), 0, 0));
        m_window->readout()->setTarget(75);
        const PricingTier& retail = *bundledPricing().find("retail");
        m_window->readout()->setPrice(QString::fromStdString(retail.key), 0);
        const QString md = m_window->summary()->markdown();
        QVERIFY2(md.contains(QStringLiteral("at 75 tok/s/user")) && md.contains(QString::fromStdString(retail.label)),
            qPrintable(md));
        // the published B300 reading at 75 and its retail price: 4.25 / (249,248 x 3600) x 1e6 = $0.005
        QVERIFY2(md.contains(QStringLiteral("249,248 (vLLM · FP4)")) && md.contains(QStringLiteral("$0.005")),
            qPrintable(md));
        // engines and precisions by the names the rest of the window gives them, not the stored keys
        QVERIFY2(md.contains(QStringLiteral("SGLang, vLLM")) && !md.contains(QLatin1String("vllm"))
                && !md.contains(QLatin1String("sglang")),
            qPrintable(md));
        m_window->readout()->setTarget(20);
        const QString below = m_window->summary()->markdown();
        QVERIFY2(below.contains(QStringLiteral("- (below the measured range)"))
                && !below.contains(QStringLiteral("below_range")),
            qPrintable(below));
        // behind another tab the summary keeps its text current (Copy as Markdown) but is laid out only when shown
        QVERIFY(m_window->showPanel(m_window->summary()));
        QVERIFY(m_window->summary()->rendered());
        QVERIFY(m_window->showPage(QStringLiteral("ladder")));
        m_window->readout()->setTarget(75);
        QVERIFY(!m_window->summary()->rendered());
        QVERIFY(m_window->summary()->markdown().contains(QStringLiteral("at 75 tok/s/user")));
        QVERIFY(m_window->showPanel(m_window->summary()));
        QVERIFY(m_window->summary()->rendered());
        const QString shown = m_window->summary()->findChild<QTextBrowser*>()->toPlainText();
        QVERIFY2(shown.contains(QStringLiteral("at 75 tok/s/user")), qPrintable(shown));
    }

    // A reading across a wide gap between measured points is hatched, says between which points, and can be hidden:
    // DeepSeek-R1 1k/1k on B200 is read from Dynamo TRT's points at 21, 74 and 309 tok/s/user only.
    void sparseReadingsAreHatchedAndCanBeHidden()
    {
        QVERIFY(show(QStringLiteral("dsr1"), 1024, 1024));
        filterItem(QStringLiteral("B200"))->setCheckState(Qt::Checked);
        LadderModel* model = m_window->ladder()->model();
        int b200 = -1;
        for (int r = 0; r < model->rowCount() && b200 < 0; ++r)
            if (model->index(r, LadderModel::Hardware).data().toString() == QStringLiteral("B200")
                && model->index(r, LadderModel::Target).data(Qt::UserRole).toDouble() == 100)
                b200 = r;
        QVERIFY(b200 >= 0);
        // by default the reading is one configuration's, Dynamo SGLang's 972 at concurrency 256 (measured there: not
        // hatched), with the frontier's beside it
        const QString one = model->index(b200, LadderModel::TputPerGpu).data().toString();
        QVERIFY2(one.startsWith(QStringLiteral("972 · frontier ")), qPrintable(one));
        QVERIFY(model->index(b200, LadderModel::TputPerGpu).data(Qt::BackgroundRole).value<QBrush>().style()
            != Qt::BDiagPattern);
        m_window->readout()->setReading(Reading::Frontier);
        const QModelIndex value = model->index(b200, LadderModel::TputPerGpu);
        QCOMPARE(value.data(Qt::BackgroundRole).value<QBrush>().style(), Qt::BDiagPattern);
        const QString sparseText = value.data().toString();
        const QString tip = value.data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("74.04 and 309.2")) && tip.contains(QStringLiteral("4.2x apart")),
            qPrintable(tip));
        // and what one configuration delivers there, as `ladder` says it: Dynamo SGLang's 972 at concurrency 256
        QVERIFY2(tip.contains(QStringLiteral("between measured points at 74.04 and 309.2 tok/s/user (4.2x apart); the "
                                             "best single configuration (Dynamo SGLang · FP4 · MTP at concurrency 256, "
                                             "run at 112.1 tok/s/user) delivers 972 (5.84x less)")),
            qPrintable(tip));
        // a measured reading is plain
        const QModelIndex dense = model->index(0, LadderModel::TputPerGpu);
        if (model->index(0, LadderModel::Hardware).data().toString() != QStringLiteral("B200"))
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
        const QString& sparseValue = sparseText;
        const QModelIndex after = model->index(b200, LadderModel::TputPerGpu);
        QVERIFY(after.data().toString() != sparseValue);
        QVERIFY(after.data(Qt::BackgroundRole).value<QBrush>().style() != Qt::BDiagPattern);
        m_window->readout()->setHideSparse(false);
        QCOMPARE(model->index(b200, LadderModel::TputPerGpu).data().toString(), sparseValue);
        QCOMPARE(b200Label(), sparseLabel);
        QVERIFY2(sparseValue.contains(QStringLiteral("(sparse) · one config 972")), qPrintable(sparseValue));
        m_window->readout()->setReading(Reading::Deployable);
    }

    // The ladder CSV carries the share of the speed of light the readout shows (it was left empty).
    void ladderCsvHasTheSpeedOfLightShare()
    {
        QVERIFY(show(QStringLiteral("dsr1"), 8192, 1024));
        m_window->readout()->setTarget(50);
        std::map<std::string, double> shown; // hardware -> the readout's share, where it has one
        for (const auto& l : m_window->readout()->model()->readings())
            if (l.rows.front().speedOfLightPct)
                shown[l.hardware] = *l.rows.front().speedOfLightPct;
        QVERIFY2(!shown.empty(), "the readout shows a share of the speed of light");
        const QString csv = m_dir.filePath(QStringLiteral("ladder.csv"));
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

    // A restart opens on the tab that was in front (it always opened on the Ladder).
    void aRestartOpensOnTheTabInFront()
    {
        m_window->showPanel(m_window->history());
        QVERIFY(m_window->close());
        {
            auto store = openStore(m_dir.filePath(QStringLiteral("store.sqlite")).toStdString(), false);
            QVERIFY(store.ok());
            MainWindow again(std::move(*store));
            QVERIFY(again.currentPanel() == again.history());
        }
        m_window->showPanel(m_window->ladder());
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    // Smaller things a planner met: Ctrl+E reaches the window from a text box; the arrow keys move the target by one
    // tok/s/user; the custom price and the live-session dialog's fields outlive the window; the latency view marks the
    // target; a reading with no value says why.
    void smallerThings()
    {
        QVERIFY(show(QStringLiteral("dsr1"), 1024, 1024));
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
        m_window->readout()->setPrice(QStringLiteral("retail"), 3.75);
        QVERIFY(m_window->close());
        QCOMPARE(QSettings().value("readout/customPrice").toDouble(), 3.75);
        m_window->show();

        {
            SessionDialog first(QString(), m_window.get());
            for (QLineEdit* e : first.findChildren<QLineEdit*>())
                if (e->objectName() == QStringLiteral("concurrency"))
                    e->setText(QStringLiteral("2,8,32"));
            first.accept(); // starts nothing here: the dialog only remembers what a started session asked
        }
        SessionDialog second(QString(), m_window.get());
        QLineEdit* levels = nullptr;
        for (QLineEdit* e : second.findChildren<QLineEdit*>())
            if (e->objectName() == QStringLiteral("concurrency"))
                levels = e;
        QVERIFY(levels);
        QCOMPARE(levels->text(), QStringLiteral("2,8,32"));
        for (const QString& key : QSettings().allKeys())
            QVERIFY2(!key.contains(QStringLiteral("apiKey"), Qt::CaseInsensitive), qPrintable(key));

        ChartPanel* panel = m_window->chartPanel();
        ChartState st = panel->state();
        st.request.x = ChartX::Latency;
        panel->setState(st);
        const TargetMarker& marker = panel->chart()->marker();
        QVERIFY(marker.isVisible());
        QCOMPARE(marker.x(), 1024.0 / 50);
        QVERIFY2(marker.caption().contains(QStringLiteral("50 tok/s/user:\n20.5 s for 1,024 output tokens")),
            qPrintable(marker.caption()));
        st.request.x = ChartX::Interactivity;
        panel->setState(st);

        // the ladder's cost headers name the tiers as the pricing box does, not by their keys
        LadderModel* ladder = m_window->ladder()->model();
        QStringList headers;
        for (int c = LadderModel::FirstTier; c < ladder->columnCount(); ++c)
            headers << ladder->headerData(c, Qt::Horizontal).toString().simplified();
        QVERIFY2(headers.join(u'|').contains(QStringLiteral("Latest: owning at large hyperscaler volume"))
                && headers.join(u'|').contains(QStringLiteral("Mid-2026 table: neocloud"))
                && !headers.join(u'|').contains(QStringLiteral("mid2026-")),
            qPrintable(headers.join(u'|')));

        m_window->readout()->setTarget(5000);
        const QModelIndex none = m_window->readout()->model()->index(0, ReadoutModel::TputPerGpu);
        QCOMPARE(none.data().toString(), QStringLiteral("above range"));
        QVERIFY(none.data(Qt::ToolTipRole).toString().contains(QStringLiteral("above the measured range")));
        const int rows = m_window->readout()->model()->rowCount();
        m_window->readout()->setTarget(50);
        QCOMPARE(m_window->readout()->model()->rowCount(), rows); // the rows stay, whatever the target
    }

    void cleanupTestCase() { m_window.reset(); }
};

PARETOSCOPE_SUITE(TestExplorerReadout)
#include "tst_explorerreadout.moc"
