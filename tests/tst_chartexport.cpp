// The explorer's chart exported, on the InferenceX fixture (offscreen): bounds cut at the plot's edges and a caption
// in the SVG; the size offered for the chart as on screen; slide sizes, PNG, SVG and a vector PDF with every value
// label inside the plot; the export dialog and its kept choice.
#include <QtTest>

#include <QDir>
#include <QLogValueAxis>
#include <QValueAxis>

#include "core/analysis/chartdata.h"
#include "tests/support/explorerfixture.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"
#include "widgets/chart/chartaxes.h"
#include "widgets/chart/chartexport.h"
#include "widgets/chart/chartpanel.h"
#include "widgets/chart/exportchartdialog.h"
#include "widgets/window/mainwindow.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;

class TestChartExport : public ExplorerFixture {
    Q_OBJECT
private slots:
    void initTestCase() { openExplorer("tst_chartexport"); }

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

        QVERIFY(show(QStringLiteral("dsr1"), 8192, 1024));
        ChartPanel* panel = m_window->chartPanel();
        ChartState st = panel->state();
        st.request.logY = false;
        panel->setState(st);
        FrontierChart* chart = panel->chart();
        auto* ay = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).front());
        QVERIFY(ay);
        QVERIFY(chart->speedOfLightCount() > 0);
        const auto& lines = chart->layer()->content().lines;
        for (std::size_t i = chart->groupCount(); i < lines.size(); ++i)
            for (const Point& p : lines[i].points)
                QVERIFY2(p.y <= ay->max() * (1 + 1e-9), qPrintable(QString::number(p.y)));

        const QString svg = m_dir.filePath(QStringLiteral("captioned.svg"));
        QVERIFY(m_window->exportChartSvg(svg, QSize(900, 560)).ok());
        const QString text = QString::fromUtf8(readAll(svg));
        // the model as the InferenceX site names it (dsr1 in the store)
        QVERIFY2(
            text.contains(QStringLiteral("<title>DeepSeek-R1-0528 · ISL 8192 / OSL 1024")), qPrintable(text.left(600)));
        // the frontiers are drawn as lines, not as a picture: the run cloud is the one image
        QCOMPARE(text.count(QStringLiteral("<image")), qsizetype(1));
        QVERIFY(text.count(QStringLiteral("<polyline")) >= qsizetype(chart->groupCount()));
        const QString runs = QLocale(QLocale::English).toString(qulonglong(m_window->scopeData()->runCount));
        QVERIFY2(text.contains(QStringLiteral("Paretoscope · ") + runs + QStringLiteral(" runs from store.sqlite")),
            "the source line is drawn");
        QVERIFY(text.contains(QDate::currentDate().toString(Qt::ISODate)));
        // every group shown and every bound is in the exported legend, at the window's small size too (Qt Charts'
        // legend cut the list short)
        QVERIFY(m_window->exportChartPng(m_dir.filePath(QStringLiteral("small.png")), QSize(713, 508), 2).ok());
        if (const QString keep = qEnvironmentVariable("PARETOSCOPE_KEEP_EXPORTS"); !keep.isEmpty())
            QFile::copy(m_dir.filePath(QStringLiteral("small.png")),
                QDir(keep).filePath(QStringLiteral("export-713x508@2.png"))); // to look at
        QVERIFY(m_window->exportChartSvg(svg, QSize(713, 508)).ok());
        const QString small = QString::fromUtf8(readAll(svg));
        FrontierChart* shown = panel->chart();
        for (std::size_t i = 0; i < shown->groupCount(); ++i)
            if (shown->groupVisible(i))
                QVERIFY2(small.contains(shown->groupName(i).toHtmlEscaped()), qPrintable(shown->groupName(i)));
        for (std::size_t i = 0; i < shown->speedOfLightCount(); ++i)
            QVERIFY2(small.contains(shown->speedOfLightName(i)), qPrintable(shown->speedOfLightName(i)));
        st.request.logY = true;
        panel->setState(st);
    }

    // The PNG and SVG dialogs offer a size whose plot is as tall as the one on screen: at the window's view size,
    // DeepSeek-R1 1k/1k (two dozen groups and five bounds) at 1366x768 came out a strip of plot over its legend
    // (when the view was a strip of the window; the Explore page gives it the room now).
    void exportIsOfferedAtASizeThatKeepsThePlot()
    {
        QVERIFY(show(QStringLiteral("dsr1"), 1024, 1024));
        ChartPanel* panel = m_window->chartPanel();
        QVERIFY(panel->chart()->groupCount() >= 20);
        const qreal onScreen = panel->chart()->plotArea().height();
        const QSize view = panel->view()->size();
        auto plotAt = [&](QSize size) {
            return exportedPlotArea(
                m_window->scopeData(), panel->state(), bundledPricing(), size, m_window->chartCaption());
        };
        const QSize offered = m_window->chartExportSize();
        QCOMPARE(offered.width(), view.width());
        const QRectF plot = plotAt(offered);
        QVERIFY2(plot.height() >= onScreen - 1 && plot.height() < onScreen + 40,
            qPrintable(QStringLiteral("%1 on screen, %2 exported at %3x%4")
                           .arg(onScreen)
                           .arg(plot.height())
                           .arg(offered.width())
                           .arg(offered.height())));
        // an export at that size is written at that size
        QVERIFY(m_window->exportChartPng(m_dir.filePath(QStringLiteral("offered.png")), offered, 1).ok());
        const QImage image(m_dir.filePath(QStringLiteral("offered.png")));
        QCOMPARE(image.size(), offered);
        // one of more pixels than an image holds says so, and writes nothing ("cannot write the PNG: Unknown error")
        const Status huge
            = m_window->exportChartPng(m_dir.filePath(QStringLiteral("huge.png")), QSize(20000, 20000), 4);
        QVERIFY(!huge.ok());
        QVERIFY2(
            QString::fromStdString(huge.error()).contains(QStringLiteral("80000 x 80000 pixels (20000 x 20000 at 4x)")),
            huge.error().c_str());
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("huge.png"))));
    }

    // A chart for a slide (issue 42): offered at 16:9 (1920 x 1080) and 4:3, written at exactly those pixels, as PNG,
    // SVG or a vector PDF; every value label at the target inside the plot (H200, H100, MI325X and MI300X read low
    // and their labels fell under the x axis: cut from the PNG, over the axis title in the SVG); a title that says
    // the precision, the target, the tier and the run dates; dollars on a cost axis.
    void aSlideExportHasEveryLabelInsideItsPlot()
    {
        QVERIFY(show(QStringLiteral("dsr1"), 1024, 1024));
        ChartPanel* panel = m_window->chartPanel();
        ChartState all = panel->state();
        all.groups = ChartGroups::All; // every hardware's best read at the target, each with its label
        panel->setState(all);
        m_window->readout()->setTarget(50);
        const std::vector<ExportSize> sizes = m_window->chartExportSizes();
        QVERIFY(sizes.size() >= 3);
        QCOMPARE(sizes[0].pixels, QSize(1920, 1080));
        QCOMPARE(sizes[1].pixels, QSize(1440, 1080));
        QCOMPARE(sizes[0].layout(), QSize(1280, 720));
        for (const ExportSize& size : { sizes[0], sizes[1], ExportSize { QString(), QSize(713, 508), 1 } }) {
            const QRectF plot = exportedPlotArea(
                m_window->scopeData(), panel->state(), bundledPricing(), size.layout(), m_window->chartCaption());
            const std::vector<QRectF> labels = exportedLabelBoxes(
                m_window->scopeData(), panel->state(), bundledPricing(), size.layout(), m_window->chartCaption());
            QVERIFY2(labels.size() >= 4, qPrintable(QString::number(labels.size())));
            for (const QRectF& box : labels)
                QVERIFY2(plot.adjusted(-0.5, -0.5, 0.5, 0.5).contains(box),
                    qPrintable(QStringLiteral("label at %1,%2 %3x%4 outside the plot %5,%6 %7x%8 at %9x%10")
                                   .arg(box.x())
                                   .arg(box.y())
                                   .arg(box.width())
                                   .arg(box.height())
                                   .arg(plot.x())
                                   .arg(plot.y())
                                   .arg(plot.width())
                                   .arg(plot.height())
                                   .arg(size.layout().width())
                                   .arg(size.layout().height())));
            for (std::size_t i = 1; i < labels.size(); ++i)
                for (std::size_t j = 0; j < i; ++j)
                    QVERIFY2(!labels[i].intersects(labels[j]),
                        qPrintable(QStringLiteral("value labels overlap at %1x%2: %3,%4 %5x%6 and %7,%8 %9x%10")
                                       .arg(size.layout().width())
                                       .arg(size.layout().height())
                                       .arg(labels[i].x())
                                       .arg(labels[i].y())
                                       .arg(labels[i].width())
                                       .arg(labels[i].height())
                                       .arg(labels[j].x())
                                       .arg(labels[j].y())
                                       .arg(labels[j].width())
                                       .arg(labels[j].height())));
        }
        const QString png = m_dir.filePath(QStringLiteral("slide.png"));
        QVERIFY(m_window->exportChart(png, ChartFormat::Png, sizes[0]).ok());
        QCOMPARE(QImage(png).size(), QSize(1920, 1080));
        QVERIFY(m_window->exportChart(png, ChartFormat::Png, sizes[1]).ok());
        QCOMPARE(QImage(png).size(), QSize(1440, 1080));
        if (const QString keep = qEnvironmentVariable("PARETOSCOPE_KEEP_EXPORTS"); !keep.isEmpty()) {
            QVERIFY(
                m_window->exportChart(QDir(keep).filePath(QStringLiteral("slide-16x9.png")), ChartFormat::Png, sizes[0])
                    .ok());
            QVERIFY(
                m_window->exportChart(QDir(keep).filePath(QStringLiteral("slide-4x3.png")), ChartFormat::Png, sizes[1])
                    .ok());
        }
        // a vector PDF: one page of the layout's size in points, the run cloud its one image
        const QString pdf = m_dir.filePath(QStringLiteral("slide.pdf"));
        QVERIFY(m_window->exportChart(pdf, ChartFormat::Pdf, sizes[0]).ok());
        if (const QString keep = qEnvironmentVariable("PARETOSCOPE_KEEP_EXPORTS"); !keep.isEmpty())
            QFile::copy(pdf, QDir(keep).filePath(QStringLiteral("slide-16x9.pdf")));
        const QByteArray bytes = readAll(pdf);
        QVERIFY(bytes.startsWith("%PDF-"));
        const qsizetype box = bytes.indexOf("/MediaBox");
        QVERIFY(box >= 0);
        static const QRegularExpression mediaBox(QStringLiteral("^/MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)\\]"));
        const QRegularExpressionMatch page = mediaBox.match(QString::fromLatin1(bytes.mid(box, 60)));
        QVERIFY2(page.hasMatch(), bytes.mid(box, 60).constData());
        QVERIFY2(std::abs(page.captured(1).toDouble() - 1280) < 1 && std::abs(page.captured(2).toDouble() - 720) < 1,
            bytes.mid(box, 60).constData());
        // (an image with alpha is written as two: its colours and its mask)
        static const QRegularExpression masked(QStringLiteral("/SMask \\d+ 0 R"));
        QCOMPARE(bytes.count("/Subtype /Image") - QString::fromLatin1(bytes).count(masked), qsizetype(1));
        // the caption: precision in the title; target, tier and the runs' dates under it
        const ChartCaption caption = m_window->chartCaption();
        QVERIFY2(caption.title.contains(QStringLiteral("FP")), qPrintable(caption.title));
        QVERIFY2(caption.subtitle.contains(QStringLiteral("target 50 tok/s/user")), qPrintable(caption.subtitle));
        QVERIFY2(caption.subtitle.contains(
                     QString::fromStdString(bundledPricing().find(m_window->readout()->price().tierKey)->label)),
            qPrintable(caption.subtitle));
        static const QRegularExpression dates(QStringLiteral("runs (of )?20\\d\\d-\\d\\d-\\d\\d"));
        QVERIFY2(caption.subtitle.contains(dates), qPrintable(caption.subtitle));
        // dollars on a cost axis, thousands separated on a throughput axis
        ChartState st = panel->state();
        st.request.y = ChartY::Cost;
        panel->setState(st);
        auto* cost = panel->chart()->axes(Qt::Vertical).front();
        QVERIFY2(cost->property(kLabelPrefix).toString() == QStringLiteral("$"), "a cost axis writes $");
        if (auto* v = qobject_cast<QValueAxis*>(cost))
            QVERIFY(v->labelFormat().startsWith(QLatin1Char('$')));
        if (auto* l = qobject_cast<QLogValueAxis*>(cost))
            QVERIFY(l->labelFormat().startsWith(QLatin1Char('$')));
        st.request.y = ChartY::Throughput;
        panel->setState(st);
        QVERIFY(panel->chart()->localizeNumbers());
        QCOMPARE(panel->chart()->locale().groupSeparator(), QStringLiteral(","));
    }

    // The export dialog: a 16:9 slide by default, the 4:3 one and a size of one's own, the pixels said before the
    // file is written, the choice kept (and a garbled setting ignored).
    void theExportDialogOffersSlidesAndKeepsTheChoice()
    {
        const std::vector<ExportSize> sizes = exportSizes(QSize(1366, 768), QSize(900, 700));
        QCOMPARE(sizes.size(), std::size_t(4));
        ExportChartDialog dialog(sizes);
        QCOMPARE(dialog.format(), ChartFormat::Png);
        QCOMPARE(dialog.size().pixels, QSize(1920, 1080));
        QCOMPARE(dialog.size().scale, 1.5);
        QVERIFY2(dialog.summary().contains(QStringLiteral("1920 x 1080 pixels, laid out as 1280 x 720")),
            qPrintable(dialog.summary()));
        dialog.choose(QStringLiteral("Slide 4:3"));
        QCOMPARE(dialog.size().pixels, QSize(1440, 1080));
        dialog.choose(QStringLiteral("This screen"));
        QCOMPARE(dialog.size().pixels, QSize(1366, 768));
        QCOMPARE(dialog.size().scale, 1.0);
        dialog.choose(QStringLiteral("As on screen, every legend entry"));
        QCOMPARE(dialog.size().pixels, QSize(1800, 1400));
        QCOMPARE(dialog.size().layout(), QSize(900, 700));
        dialog.setFormat(ChartFormat::Pdf);
        dialog.setCustom(QSize(1000, 800), 2);
        QCOMPARE(dialog.size().layout(), QSize(500, 400));
        QVERIFY2(dialog.summary().contains(QStringLiteral("vector")), qPrintable(dialog.summary()));
        const QString saved = dialog.saved();
        QCOMPARE(saved, QStringLiteral("pdf|custom|1000|800|2"));
        ExportChartDialog again(sizes);
        again.restore(saved);
        QCOMPARE(again.format(), ChartFormat::Pdf);
        QCOMPARE(again.size().pixels, QSize(1000, 800));
        again.restore(QStringLiteral("svg|Slide 4:3|0|0|1"));
        QCOMPARE(again.format(), ChartFormat::Svg);
        QCOMPARE(again.size().pixels, QSize(1440, 1080));
        ExportChartDialog garbled(sizes);
        garbled.restore(QStringLiteral("png|custom|99999|-3|x"));
        garbled.restore(QStringLiteral("nonsense"));
        QCOMPARE(garbled.size().pixels, QSize(1920, 1080));
    }

    void cleanupTestCase() { m_window.reset(); }
};

PARETOSCOPE_SUITE(TestChartExport)
#include "tst_chartexport.moc"
