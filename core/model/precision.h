#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace paretoscope {

/// The precision Paretoscope prefers: the published readings compare hardware at FP4, so a view with several
/// precisions shows FP4 first, and a live session or an import the user names no precision for is labelled FP4.
inline constexpr std::string_view kDefaultPrecision = "fp4";

/// The one precision a view keeps by default when its series have several: FP4 where present, else the first by
/// name; empty when there are fewer than two (nothing to choose, every precision stays).
std::optional<std::string> defaultViewPrecision(const std::set<std::string>& precisions);

} // namespace paretoscope
