#include "palette.h"

#include <QMessageBox>
#include <algorithm>
#include <array>

namespace paretoscope::ui {

namespace {

// Twelve hues that stay apart as thin lines on white: Okabe & Ito (2008) without black and yellow, and Paul Tol's
// muted and bright schemes.
const std::array<QColor, 12> kPalette { QColor(0, 114, 178), QColor(213, 94, 0), QColor(0, 158, 115),
    QColor(204, 121, 167), QColor(230, 159, 0), QColor(136, 34, 85), QColor(68, 170, 153), QColor(153, 153, 51),
    QColor(51, 34, 136), QColor(170, 68, 153), QColor(102, 102, 102), QColor(17, 119, 51) };

std::size_t stableHash(const std::string& s)
{
    std::size_t h = 1469598103934665603ull; // FNV-1a: the same on every run and machine, unlike std::hash
    for (unsigned char c : s)
        h = (h ^ c) * 1099511628211ull;
    return h;
}

} // namespace

QColor hardwareColour(const std::string& hardware)
{
    // the emulator's results take the colour of the hardware they stand in for
    std::string key = hardware;
    if (key.size() > 4 && key.compare(key.size() - 4, 4, "-sim") == 0)
        key.resize(key.size() - 4);
    static const std::array<std::pair<const char*, int>, 10> fixed { { { "b300", 0 }, { "mi325x", 1 }, { "b200", 2 },
        { "gb200", 3 }, { "mi300x", 4 }, { "gb300", 5 }, { "h200", 6 }, { "h100", 7 }, { "mi355x", 8 },
        { "b100", 11 } } };
    for (const auto& [name, index] : fixed)
        if (key == name)
            return kPalette[static_cast<std::size_t>(index)];
    return kPalette[stableHash(key) % kPalette.size()];
}

QColor engineShade(const QColor& hardware, const std::string& engine)
{
    // steps of lightness (HSL) around the hardware's own colour, kept where a thin line on white stays visible and
    // the hue still reads
    static const std::array<double, 6> steps { 0, -0.13, 0.11, -0.24, 0.2, -0.06 };
    static const std::array<std::pair<const char*, int>, 6> fixed { { { "vllm", 0 }, { "sglang", 1 },
        { "dynamo-trt", 2 }, { "trt", 3 }, { "dynamo-sglang", 4 }, { "atom", 5 } } };
    std::size_t step = stableHash(engine) % steps.size();
    for (const auto& [name, index] : fixed)
        if (engine == name)
            step = static_cast<std::size_t>(index);
    float h = 0, s = 0, l = 0, a = 1;
    hardware.getHslF(&h, &s, &l, &a);
    const double shaded = std::clamp(double(l) + steps[step], 0.2, 0.68);
    return QColor::fromHslF(h, s, float(shaded), a);
}

Qt::PenStyle precisionStyle(const QString& precision)
{
    const QString p = precision.toLower();
    if (p == "fp4" || p == "mxfp4" || p == "nvfp4")
        return Qt::SolidLine;
    if (p == "fp8")
        return Qt::DashLine;
    if (p == "bf16" || p == "fp16")
        return Qt::DotLine;
    return Qt::DashDotLine;
}

QString hardwareName(const std::string& hardware)
{
    // results of paretoscope-engine-sim say so wherever they are named
    QString h = QString::fromStdString(hardware);
    if (h == QLatin1String("sim-fixed"))
        return QStringLiteral("Emulator (fixed timing, simulated)");
    if (h.endsWith(QLatin1String("-sim")))
        return h.chopped(4).toUpper() + QStringLiteral(" (simulated)");
    return h.toUpper();
}

QString engineName(const std::string& engine)
{
    const QString e = QString::fromStdString(engine);
    static const std::array<std::pair<const char*, const char*>, 7> known { { { "vllm", "vLLM" }, { "engine-sim", "engine emulator" },
        { "sglang", "SGLang" }, { "trt", "TensorRT-LLM" }, { "dynamo-trt", "Dynamo TRT" },
        { "dynamo-sglang", "Dynamo SGLang" }, { "atom", "ATOM" } } };
    for (const auto& [key, name] : known)
        if (e == QLatin1String(key))
            return QString::fromLatin1(name);
    return e;
}

QString precisionName(const std::string& precision)
{
    return QString::fromStdString(precision).toUpper();
}

QString groupLabel(const GroupKey& key)
{
    QString s = hardwareName(key.hardware) + QStringLiteral(" · ") + engineName(key.engine) + QStringLiteral(" · ")
        + precisionName(key.precision);
    if (!key.specDecoding.empty() && key.specDecoding != "none")
        s += QStringLiteral(" · ") + QString::fromStdString(key.specDecoding).toUpper();
    return s;
}

QString plainToolTip(const QString& text)
{
    if (text.isEmpty())
        return text;
    return QStringLiteral("<p style='white-space:pre'>") + text.toHtmlEscaped().replace('\n', QStringLiteral("<br>"))
        + QStringLiteral("</p>");
}

void plainMessage(QWidget* parent, bool error, const QString& title, const QString& text)
{
    QMessageBox box(error ? QMessageBox::Critical : QMessageBox::Warning, title, text, QMessageBox::Ok, parent);
    box.setTextFormat(Qt::PlainText);
    box.exec();
}

} // namespace paretoscope::ui
