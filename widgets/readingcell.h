#pragma once

#include <QString>
#include <QVariant>

#include "core/ladderreport.h"

namespace paretoscope::ui {

/// The parts of a reading that the readout and the ladder both show.
enum class ReadingField { TputPerGpu, Engine, Precision, CostPerMTok, TokensPerDollar };

/// A reading's field as the tables print it: "328,417", "vLLM", "FP4", "$0.002"; "-" where there is none.
QString readingText(const LadderRow& row, ReadingField field);
/// The raw number behind a numeric field (Qt::UserRole), or a null QVariant.
QVariant readingValue(const LadderRow& row, ReadingField field);
/// Why a reading has no value, in words: "below the measured range" and so on.
QString statusText(LadderStatus status);

} // namespace paretoscope::ui
