// The readout's model on its own: every change of readings or of the baseline tells the view which cells changed, so
// that what the table shows is never a step behind (a new baseline with the same hardware once signalled only the
// ratio column's title, and the ratios it showed stayed those of the old baseline until something else repainted).
#include <QtTest>

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QTableView>

#include "tests/support/suite.h"
#include "widgets/common/celltextdelegate.h"

#include "widgets/readout/readoutmodel.h"

using namespace paretoscope;
using namespace paretoscope::ui;

namespace {

HardwareLadder ladder(const std::string& hardware, double tputPerGpu)
{
    LadderRow row;
    row.reading = Reading::Frontier; // a frontier reading, made by hand
    row.entry.target = 50;
    row.entry.status = LadderStatus::Ok;
    row.entry.value = tputPerGpu;
    row.entry.group = GroupKey { hardware, "vllm", "fp4", "none" };
    return { hardware, { row } };
}

std::vector<HardwareLadder> readings()
{
    // B300 and MI325X at 50 tok/s/user as the seed page reads them (docs/architecture.md section 14: 18.5x)
    return { ladder("b300", 328417), ladder("mi325x", 17745) };
}

bool covers(const QSignalSpy& spy, int row, int column)
{
    for (const QList<QVariant>& args : spy) {
        const auto tl = args.at(0).toModelIndex(), br = args.at(1).toModelIndex();
        if (tl.row() <= row && row <= br.row() && tl.column() <= column && column <= br.column())
            return true;
    }
    return false;
}

} // namespace

class TestReadoutModel : public QObject {
    Q_OBJECT

private slots:
    // The note under the table: one sentence for the ratios, one for the hardware within run-to-run spread of the
    // baseline, however many hardware there are (a sentence each ran to eight lines with nine hardware).
    void theComparisonGroupsTheHardware()
    {
        ReadoutModel model;
        model.setReadings(readings(), "mi325x");
        QCOMPARE(model.comparison(50), QStringLiteral("B300 delivers 18.5x MI325X at 50 tok/s/user"));
        // reruns: a spread around each reading; B200's and H200's overlap the baseline's
        auto spread = [](HardwareLadder l, double low, double high) {
            l.rows[0].entry.low = low;
            l.rows[0].entry.high = high;
            return l;
        };
        model.setReadings({ spread(ladder("b200", 18000), 17000, 19000), spread(ladder("b300", 328417), 320000, 330000),
                              spread(ladder("h100", 8872.5), 8000, 9000), spread(ladder("h200", 17000), 16000, 18000),
                              spread(ladder("mi325x", 17745), 17500, 18000) },
            "mi325x");
        QCOMPARE(model.comparison(50),
            QStringLiteral("B300 delivers 18.5x MI325X and H100 0.5x at 50 tok/s/user; B200 and H200 are each within "
                           "run-to-run spread of MI325X at 50 tok/s/user"));
        model.setReadings(
            { spread(ladder("b200", 18000), 17000, 19000), spread(ladder("mi325x", 17745), 17500, 18000) }, "mi325x");
        QCOMPARE(
            model.comparison(75.5), QStringLiteral("B200 and MI325X are within run-to-run spread at 75.5 tok/s/user"));
    }

    // The accuracy of each reading's group (docs/evaluations.md): the task in the header, "95.8% ± 0.6" in the cell,
    // "not evaluated" for a group without one (never 0); none of it where the model has no evaluations
    // Where the two readings differ, the sentence under the readout says which one the cells give and how far apart
    // the two are, as a range over the hardware (10,762 / 4,991 = 2.156: "2.2x", B300 at 40 tok/s/user on the
    // InferenceX history, docs/architecture.md 12.2; 11,448 / 7,111 = 1.610: "1.6x"; H200's 404 / 402 is within 1%
    // and not counted); each cell gives the reading chosen, its tooltip both and why.
    void theSentenceSaysWhichReadingAndHowFarApart()
    {
        const auto withDeployable = [](const std::string& hardware, double frontier, double deployable) {
            HardwareLadder h = ladder(hardware, frontier);
            DeployableReading d;
            d.group = *h.rows.front().entry.group;
            d.value = deployable;
            h.rows.front().entry.deployable = d;
            h.rows.front().entry.knotBelow = 16.7;
            h.rows.front().entry.knotAbove = 138.2;
            h.rows.front().reading = Reading::Deployable;
            return h;
        };
        std::vector<HardwareLadder> rows { withDeployable("b200", 11448, 7111), withDeployable("b300", 10762, 4991),
            withDeployable("h200", 404, 402) };
        ReadoutModel model;
        model.setReadings(rows, "");
        const auto cell = [&](int r, int role = Qt::DisplayRole) {
            return model.index(r, ReadoutModel::TputPerGpu).data(role).toString();
        };
        QCOMPARE(cell(1), QStringLiteral("4,991"));
        QVERIFY2(cell(1, Qt::ToolTipRole).contains(QStringLiteral("The frontier reads 10,762 tok/s/GPU")),
            qPrintable(cell(1, Qt::ToolTipRole)));
        QVERIFY(cell(1, Qt::ToolTipRole).contains(QStringLiteral("delivers 4,991 (2.16x less)")));
        QCOMPARE(model.comparison(40),
            QStringLiteral("The tok/s/GPU here is one configuration's, not the frontier's: the frontier reads 1.6x "
                           "(B200) to 2.2x (B300) of it (hover a reading for both and why)"));
        // the frontier chosen: its number in the cell, the sentence says so
        for (HardwareLadder& h : rows)
            h.rows.front().reading = Reading::Frontier;
        model.setReadings(rows, "");
        QCOMPARE(cell(1), QStringLiteral("10,762"));
        QVERIFY(model.comparison(40).startsWith(
            QStringLiteral("The tok/s/GPU here is the frontier's, not one configuration's: the frontier reads 1.6x")));
        // one hardware apart: named alone
        rows.erase(rows.begin());
        model.setReadings(rows, "");
        QVERIFY2(model.comparison(40).endsWith(QStringLiteral("the frontier reads 2.2x of it for B300 (hover it for "
                                                              "both and why)")),
            qPrintable(model.comparison(40)));
        // all agree: nothing said
        rows.pop_back();
        rows.front().rows.front().entry.deployable->value = 10762;
        model.setReadings(rows, "");
        QCOMPARE(model.comparison(40), QString());
    }

    void theAccuracyColumnSaysTheGroupsAccuracy()
    {
        ReadoutModel model;
        model.setReadings(readings(), "");
        QVERIFY(!model.anyAccuracy());
        std::vector<HardwareLadder> rows = readings();
        for (HardwareLadder& l : rows)
            l.rows[0].accuracyTask = "gsm8k";
        GroupAccuracy a;
        a.accuracy = { 0.9575435936315391, 0.005553837749990046 };
        a.evaluation.questions = 1319;
        a.evaluation.date = "2026-06-14";
        a.configurations = 2;
        rows[0].rows[0].accuracy = a;
        model.setReadings(rows, "");
        QVERIFY(model.anyAccuracy());
        QCOMPARE(model.headerData(ReadoutModel::Accuracy, Qt::Horizontal).toString(), QStringLiteral("GSM8K"));
        QCOMPARE(model.index(0, ReadoutModel::Accuracy).data().toString(), QStringLiteral("95.8% \u00b1 0.6"));
        QCOMPARE(model.index(0, ReadoutModel::Accuracy).data(Qt::UserRole).toDouble(), a.accuracy.value);
        QVERIFY(
            model.index(0, ReadoutModel::Accuracy).data(Qt::ToolTipRole).toString().contains(QStringLiteral("1319")));
        QCOMPARE(model.index(1, ReadoutModel::Accuracy).data().toString(), QStringLiteral("not evaluated"));
        QVERIFY(!model.index(1, ReadoutModel::Accuracy).data(Qt::UserRole).isValid());
    }

    // Two accuracies are within error when their intervals of two standard errors each side overlap: 95.0% ± 0.6
    // against 96.0% ± 0.5 overlap (95.0 + 1.2 = 96.2 >= 96.0 - 1.0); 93.0% ± 0.5 does not (94.0 < 95.0). The
    // readout compares each with the highest here, or with the baseline's where it was evaluated, and marks the one
    // beyond the error
    void anAccuracyBeyondTheErrorIsMarked()
    {
        std::vector<HardwareLadder> rows { ladder("b300", 328417), ladder("mi325x", 17745), ladder("h100", 8872.5) };
        const double values[3][2] = { { 0.96, 0.005 }, { 0.95, 0.006 }, { 0.93, 0.005 } };
        for (std::size_t i = 0; i < rows.size(); ++i) {
            rows[i].rows[0].accuracyTask = "gsm8k";
            GroupAccuracy a;
            a.accuracy = { values[i][0], values[i][1] };
            rows[i].rows[0].accuracy = a;
        }
        ReadoutModel model;
        model.setReadings(rows, "");
        const auto tip = [&](int r) { return model.index(r, ReadoutModel::Accuracy).data(Qt::ToolTipRole).toString(); };
        const auto marked
            = [&](int r) { return model.index(r, ReadoutModel::Accuracy).data(Qt::ForegroundRole).isValid(); };
        QVERIFY(!tip(0).contains(QStringLiteral("vs "))); // the highest itself
        QVERIFY2(tip(1).contains(QStringLiteral("96.0%: -1.0 pts, within error")), qPrintable(tip(1)));
        QVERIFY2(tip(2).contains(QStringLiteral("96.0%: -3.0 pts, beyond the error")), qPrintable(tip(2)));
        QVERIFY(!marked(0) && !marked(1) && marked(2));
        // against the baseline (the second, 95.0% ± 0.6): the third is within error of it (93.0 + 1.0 >= 95.0 - 1.2)
        model.setReadings(rows, rows[1].hardware);
        QVERIFY2(tip(2).contains(QStringLiteral("95.0%: -2.0 pts, within error")), qPrintable(tip(2)));
        QVERIFY(!marked(2));
    }

    void aNewBaselineSignalsItsRatios()
    {
        ReadoutModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setReadings(readings(), "mi325x");
        const QModelIndex b300Ratio = model.index(0, ReadoutModel::VsBaseline);
        // the ratio is the readings' quotient, computed here independently of core's rule
        QCOMPARE(b300Ratio.data(Qt::UserRole).toDouble(), 328417.0 / 17745.0);
        QVERIFY(b300Ratio.data().toString().startsWith(QLatin1String("18.5")));

        QSignalSpy data(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy header(&model, &QAbstractItemModel::headerDataChanged);
        model.setReadings(readings(), "b300");
        QCOMPARE(header.count(), 1);
        QVERIFY2(covers(data, 1, ReadoutModel::VsBaseline), "the MI325X row's ratio changed with the baseline");
        QCOMPARE(model.index(1, ReadoutModel::VsBaseline).data(Qt::UserRole).toDouble(), 17745.0 / 328417.0);
    }

    void aSliderStepSignalsEveryReading()
    {
        ReadoutModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setReadings(readings(), "mi325x");
        QSignalSpy data(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        auto next = readings();
        next[0].rows[0].entry.value = 300000;
        model.setReadings(next, "mi325x");
        QCOMPARE(reset.count(), 0); // the same hardware: the rows stay, only their cells change
        QVERIFY(covers(data, 0, ReadoutModel::TputPerGpu));
        QCOMPARE(model.index(0, ReadoutModel::TputPerGpu).data(Qt::UserRole).toDouble(), 300000.0);
        // one hardware fewer: the rows change, the model is reset
        next.pop_back();
        model.setReadings(next, "mi325x");
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), 1);
    }

    // The readout paints its cells from text laid out once (CellTextDelegate, for the slider's sake): what a reader
    // sees and the widths the columns are fitted to are the style's own, checked against Qt's delegate
    void cellsLookAsTheStylePaintsThem()
    {
        ReadoutModel model;
        auto rows = readings();
        rows[1].rows[0].entry.status = LadderStatus::BelowRange; // a grey "below range" cell too
        rows[1].rows[0].entry.value.reset();
        rows[0].rows[0].entry.sparse = true; // read across a wide gap: its cells hatched (BackgroundRole)
        rows[0].rows[0].entry.knotBelow = 20;
        rows[0].rows[0].entry.knotAbove = 80;
        model.setReadings(rows, "mi325x");
        QVERIFY(
            model.index(0, ReadoutModel::TputPerGpu).data(Qt::BackgroundRole).value<QBrush>().style() != Qt::NoBrush);
        auto render = [&](bool ours) {
            QTableView view;
            view.setModel(&model);
            // the view's child: setItemDelegate does not take it
            view.setItemDelegate(ours ? new CellTextDelegate(&view) : new QStyledItemDelegate(&view));
            view.setAlternatingRowColors(true);
            view.setSelectionMode(QAbstractItemView::NoSelection);
            view.verticalHeader()->hide();
            view.resize(1400, 120);
            for (int c = 0; c < model.columnCount(); ++c) // wide enough for "328,417 (sparse)": nothing elided
                view.setColumnWidth(c, 130);
            std::vector<int> widths;
            for (int c = 0; c < model.columnCount(); ++c)
                widths.push_back(static_cast<const QAbstractItemView&>(view).sizeHintForColumn(c)); // public there
            return std::make_pair(view.grab().toImage(), widths);
        };
        const auto [theirs, theirWidths] = render(false);
        const auto [ours, ourWidths] = render(true);
        for (int c = 0; c < model.columnCount(); ++c) // the columns fit the same text: within 2 px of the style's
            QVERIFY2(std::abs(theirWidths[std::size_t(c)] - ourWidths[std::size_t(c)]) <= 2,
                qPrintable(QStringLiteral("column %1: %2 px, the style's %3 px")
                               .arg(c)
                               .arg(ourWidths[std::size_t(c)])
                               .arg(theirWidths[std::size_t(c)])));
        QCOMPARE(ours.size(), theirs.size());
        long long differ = 0, inked = 0;
        for (int y = 0; y < ours.height(); ++y)
            for (int x = 0; x < ours.width(); ++x) {
                differ += ours.pixel(x, y) != theirs.pixel(x, y);
                inked += qGray(theirs.pixel(x, y)) < 128;
            }
        QVERIFY(inked > 200); // there is text to compare
        // the same glyphs at the same places (pixel for pixel on Debian 12's DejaVu; a few glyph edges allowed)
        QVERIFY2(differ <= inked / 50, qPrintable(QStringLiteral("%1 pixels differ, %2 inked").arg(differ).arg(inked)));
    }
};

PARETOSCOPE_SUITE(TestReadoutModel)
#include "tst_readoutmodel.moc"
