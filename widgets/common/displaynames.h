#pragma once

#include <QString>

#include "core/analysis/ladder.h"
#include "core/analysis/pricing.h"
#include "core/model/scope.h"

class QWidget;

namespace paretoscope::ui {

/// "B300 · vLLM · FP4" (speculative decoding added when used): what the legend and tables show for a group.
QString groupLabel(const GroupKey& key);
/// Display names: "b300" -> "B300", "vllm" -> "vLLM", "sglang" -> "SGLang", "fp4" -> "FP4".
QString hardwareName(const std::string& hardware);
QString engineName(const std::string& engine);
QString precisionName(const std::string& precision);
/// The price readings are made at, as a caption names it: "$2.50/GPU/hr" for a price of one's own, else the tier's
/// label (the catalogue's default tier where none is named).
QString priceChoiceLabel(const PriceChoice& price, const PricingCatalog& pricing);
/// A number as the tables show it: 328417 -> "328,417" (core's withThousands); "-" for NaN and infinities.
QString thousandsText(double v, int decimals = 0);
/// A run date (days since 1970-01-01) as yyyy-mm-dd (core's dayText).
QString dayLabel(int day);

/// A tooltip that shows `text` as the characters it holds: Qt guesses rich text in tooltips, so text from imported
/// files or servers ("<img src=...>") is escaped and wrapped as rich text that keeps its line breaks.
QString plainToolTip(const QString& text);
/// A message box whose text is never read as markup (QMessageBox guesses rich text too).
void plainMessage(QWidget* parent, bool error, const QString& title, const QString& text);

} // namespace paretoscope::ui
