#include "widgets/common/hardwarecolors.h"

#include <atomic>
#include <string>
#include <utility>

namespace paretoscope::ui {

namespace {

std::uint64_t stableHash(std::string_view s)
{
    std::uint64_t h = 1469598103934665603ull; // FNV-1a: the same on every run and machine, unlike std::hash
    for (unsigned char c : s)
        h = (h ^ c) * 1099511628211ull;
    return h;
}

// The known hardware and their colours (indices into hardwarePalette()). The nine of InferenceX take the Okabe-Ito
// colours and red; hardware often compared (a generation and its successor) stand on well-separated hues.
constexpr std::array<std::pair<std::string_view, std::size_t>, 11> kKnown { {
    { "b200", 0 }, // blue
    { "b300", 1 }, // vermillion
    { "gb200", 2 }, // bluish green
    { "gb300", 3 }, // reddish purple
    { "h200", 4 }, // orange
    { "h100", 5 }, // sky blue
    { "mi300x", 7 }, // black
    { "mi355x", 8 }, // red
    { "mi325x", 11 }, // purple
    { "mi350x", 12 }, // teal
    { "b100", 9 }, // green
} };

constexpr bool taken(std::size_t index)
{
    for (const auto& [name, i] : kKnown)
        if (i == index)
            return true;
    return false;
}

// the colours no known hardware holds, where unknown names are hashed
constexpr std::array<std::size_t, kHardwareColourCount - kKnown.size()> kFree = [] {
    std::array<std::size_t, kHardwareColourCount - kKnown.size()> free {};
    std::size_t n = 0;
    for (std::size_t i = 0; i < kHardwareColourCount; ++i)
        if (!taken(i))
            free[n++] = i;
    return free;
}();

std::atomic<bool> g_colourBlind { false };

// The nine of InferenceX on the colour-blind-safe palette (indices into colourBlindPaletteColours()): the pairs most
// often compared (B300 and GB300, B200 and H100, MI325X and MI355X) on colours of different hues, not two reds or
// two purples
constexpr std::array<std::pair<std::string_view, std::size_t>, 9> kColourBlindKnown { {
    { "b200", 0 }, // blue
    { "b300", 1 }, // dark red
    { "gb200", 2 }, // olive
    { "gb300", 7 }, // lilac
    { "h200", 3 }, // wine
    { "h100", 5 }, // sky blue
    { "mi300x", 6 }, // black
    { "mi355x", 4 }, // rose
    { "mi325x", 8 }, // indigo
} };

} // namespace

void setColourBlindPalette(bool on)
{
    g_colourBlind = on;
}

bool colourBlindPalette()
{
    return g_colourBlind;
}

const std::array<Rgb, kColourBlindCount>& colourBlindPaletteColours()
{
    // chosen from Okabe & Ito's, Tol's and Wong's colours by the smallest CIELAB distance over the four visions
    // (19.9): see the header
    static const std::array<Rgb, kColourBlindCount> palette { {
        { 0x00, 0x62, 0xa8 }, // blue
        { 0x92, 0x00, 0x00 }, // dark red
        { 0x99, 0x99, 0x33 }, // olive
        { 0x88, 0x22, 0x55 }, // wine
        { 0xcc, 0x66, 0x77 }, // rose
        { 0x3d, 0x98, 0xd3 }, // sky blue
        { 0x1f, 0x1f, 0x1f }, // black
        { 0xb6, 0x6d, 0xff }, // lilac
        { 0x49, 0x00, 0x92 }, // indigo
    } };
    return palette;
}

const std::array<Rgb, kHardwareColourCount>& hardwarePalette()
{
    static const std::array<Rgb, kHardwareColourCount> palette { {
        { 0x00, 0x62, 0xa8 }, // blue (Okabe-Ito 0072B2, darker to stand apart from sky blue)
        { 0xd5, 0x5e, 0x00 }, // vermillion
        { 0x00, 0x9e, 0x73 }, // bluish green
        { 0xc0, 0x67, 0x9a }, // reddish purple (CC79A7 darkened to 3:1)
        { 0xb8, 0x77, 0x00 }, // orange (E69F00 darkened)
        { 0x3d, 0x98, 0xd3 }, // sky blue (56B4E9 darkened)
        { 0x80, 0x75, 0x00 }, // olive (Okabe-Ito's yellow, darkened until it shows on white)
        { 0x1f, 0x1f, 0x1f }, // black
        { 0xc8, 0x32, 0x3a }, // red
        { 0x4e, 0x8c, 0x45 }, // green
        { 0x8b, 0x5e, 0x3c }, // brown
        { 0x7e, 0x4f, 0xa8 }, // purple
        { 0x2a, 0x8a, 0x8a }, // teal
        { 0x76, 0x76, 0x76 }, // grey
    } };
    return palette;
}

std::size_t hardwareColourIndex(std::string_view hardware)
{
    if (hardware.size() > 4 && hardware.substr(hardware.size() - 4) == "-sim")
        hardware.remove_suffix(4);
    for (const auto& [name, index] : kKnown)
        if (hardware == name)
            return index;
    return kFree[stableHash(hardware) % kFree.size()];
}

Rgb hardwareRgb(std::string_view hardware)
{
    if (g_colourBlind) {
        if (hardware.size() > 4 && hardware.substr(hardware.size() - 4) == "-sim")
            hardware.remove_suffix(4);
        for (const auto& [name, index] : kColourBlindKnown)
            if (hardware == name)
                return colourBlindPaletteColours()[index];
        return colourBlindPaletteColours()[stableHash(hardware) % kColourBlindCount];
    }
    return hardwarePalette()[hardwareColourIndex(hardware)];
}

LineStyle precisionLine(std::string_view precision)
{
    std::string lower(precision);
    for (char& c : lower)
        c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (lower == "fp4" || lower == "mxfp4" || lower == "nvfp4")
        return LineStyle::Solid;
    if (lower == "fp8")
        return LineStyle::Dash;
    if (lower == "bf16" || lower == "fp16")
        return LineStyle::Dot;
    return LineStyle::DashDot;
}

MarkerShape engineMarker(std::string_view engine)
{
    static constexpr std::array<std::pair<std::string_view, MarkerShape>, 8> known { {
        { "vllm", MarkerShape::Circle },
        { "sglang", MarkerShape::Square },
        { "trt", MarkerShape::Triangle },
        { "dynamo-trt", MarkerShape::TriangleDown },
        { "dynamo-sglang", MarkerShape::Diamond },
        { "atom", MarkerShape::Pentagon },
        { "mori-sglang", MarkerShape::Star },
        { "engine-sim", MarkerShape::Cross },
    } };
    for (const auto& [name, shape] : known)
        if (engine == name)
            return shape;
    return static_cast<MarkerShape>(stableHash(engine) % kMarkerShapeCount);
}

} // namespace paretoscope::ui
