// Hardware colours, line styles and markers (offscreen): the palette's colours apart and readable on white, a name's
// colour fixed whatever else is in scope, and a chart of twelve hardware with one label and one colour per hardware,
// drawn.
#include <QtTest>

#include <array>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "core/analysis/numberformat.h"
#include "core/analysis/pricing.h"
#include "tests/support/suite.h"
#include "tests/support/testutil.h"
#include "widgets/chart/chartexport.h"
#include "widgets/chart/frontierchart.h"
#include "widgets/common/groupstyle.h"
#include "widgets/common/hardwarecolors.h"

using namespace paretoscope;
using namespace paretoscope::testsupport;
using namespace paretoscope::ui;

namespace {

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

class TestHardwareColors : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { isolateSettings(m_dir, "tst_hardwarecolors"); }

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
        state.groups = ChartGroups::All; // every group drawn, however many
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
            QCOMPARE(chart.groupPen(i).color(), chart.groupColour(i));
            const QRgb rgb = chart.groupColour(i).rgb();
            if (auto [it, fresh] = colourOf.emplace(key.hardware, rgb); !fresh)
                QCOMPARE(it->second, rgb); // the engines and precisions of a hardware share its colour
            colours.insert(rgb);
            QCOMPARE(chart.groupPen(i).style(), key.precision == "fp4" ? Qt::SolidLine : Qt::DashLine);
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
            QVERIFY2(pixels[rgb] > 40,
                qPrintable(QStringLiteral("%1: %2 pixels").arg(QString::fromStdString(hw)).arg(pixels[rgb])));
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
};

PARETOSCOPE_SUITE(TestHardwareColors)
#include "tst_hardwarecolors.moc"
