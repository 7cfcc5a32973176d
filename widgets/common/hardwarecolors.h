#pragma once

#include <array>
#include <cstdint>
#include <string_view>

// The rule of how a group is drawn, kept free of Qt so that it reads as a table: a colour per hardware, a line style
// per precision, a marker shape per engine. groupstyle.h turns it into pens, brushes and marker pictures.

namespace paretoscope::ui {

struct Rgb {
    std::uint8_t r = 0, g = 0, b = 0;
    friend bool operator==(const Rgb&, const Rgb&) = default;
};

/// Fourteen colours for thin lines on white, each at least 3:1 against it (WCAG's figure for graphics): Okabe & Ito's
/// eight (2008; orange, sky blue and yellow darkened to reach 3:1, black softened), then red, green, brown, purple,
/// teal and grey in the manner of Tableau 10. No two are closer than 22 in CIELAB for normal vision; where a colour
/// vision deficiency merges two, the line style and the marker still keep the groups apart.
constexpr std::size_t kHardwareColourCount = 14;
const std::array<Rgb, kHardwareColourCount>& hardwarePalette();

/// Each hardware's colour (from the colour-blind-safe palette where it is chosen), the same in every session and
/// whatever else is in scope: the known hardware have a colour
/// of their own from a fixed table; any other name is hashed (FNV-1a, the same on every machine) into the colours the
/// table leaves free. The emulator's "<hw>-sim" takes the colour of the hardware it stands in for.
Rgb hardwareRgb(std::string_view hardware);
/// The colour-blind-safe choice (View > Colour-blind-safe palette): the nine hardware of InferenceX on nine colours
/// that stay at least 15 apart in CIELAB for normal vision and under simulated protanopia, deuteranopia and
/// tritanopia (Machado et al. 2009, full severity), each at least 3:1 against white; other hardware hashed among
/// them. Off by default. Read by the drawing threads: set it from the GUI thread before charts are built.
void setColourBlindPalette(bool on);
bool colourBlindPalette();
constexpr std::size_t kColourBlindCount = 9;
const std::array<Rgb, kColourBlindCount>& colourBlindPaletteColours();

/// The palette index of a hardware's colour (hardwarePalette()[index] == hardwareRgb(hardware)).
std::size_t hardwareColourIndex(std::string_view hardware);

/// A line style per precision, so that the precisions of one hardware stay apart in print: FP4 solid, FP8 dashed,
/// BF16/FP16 dotted, anything else dash-dotted.
enum class LineStyle { Solid, Dash, Dot, DashDot };
LineStyle precisionLine(std::string_view precision);

/// A marker shape per engine on a frontier's knots: vLLM circle, SGLang square, TensorRT-LLM triangle, Dynamo TRT
/// triangle pointing down, Dynamo SGLang diamond, ATOM pentagon, MoRI SGLang star, the emulator a cross; another
/// engine one of them by a stable hash of its name.
enum class MarkerShape { Circle, Square, Triangle, TriangleDown, Diamond, Pentagon, Star, Cross };
constexpr std::size_t kMarkerShapeCount = 8;
MarkerShape engineMarker(std::string_view engine);

} // namespace paretoscope::ui
