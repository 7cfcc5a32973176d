#pragma once

// How one reading fills a table cell (text, sort value, background, tooltip) in the readout and the ladder alike:
// the name says what it holds.

#include <QString>
#include <QVariant>

#include "core/analysis/ladder.h"

namespace paretoscope::ui {

/// The parts of a reading that the readout and the ladder both show.
/// The energy fields carry their basis (docs/architecture.md section 11.3): all-in provisioned, or measured GPU
/// power only.
enum class ReadingField {
    TputPerGpu, ///< the reading chosen (the readout: its hatch, tooltip and sentence say where it is sparse)
    TputPerGpuBoth, ///< the same, "(sparse)", and the other reading where the two differ: "972 · frontier 5,676"
    Engine,
    Precision,
    CostPerMTok,
    TokensPerDollar,
    AllInJoulesPerToken,
    TokensPerMegawatt,
    MeasuredJoulesPerToken
};

/// A reading's field as the tables print it: "328,417", "vLLM", "FP4", "$0.002"; "-" where there is none.
QString readingText(const LadderRow& row, ReadingField field);
/// Why an energy field has no value where the reading has one: "no power figure" for a hardware the power registry
/// lacks, "no measured power" where its runs carry none; empty otherwise.
QString energyGap(const std::string& hardware, const LadderRow& row, ReadingField field);
/// The raw number behind a numeric field (Qt::UserRole), or a null QVariant.
QVariant readingValue(const LadderRow& row, ReadingField field);
/// Why a reading has no value in a word or two, for its cell: "below range" and so on.
QString statusShort(LadderStatus status);
/// Why a reading has no value, in words: "below the measured range" and so on.
QString statusText(LadderStatus status);
/// The accuracy that comes with a reading's group, for its cell: "95.8% ± 0.6" (the task is in the header), "not
/// evaluated" (a state, never 0), or "-" where there is no reading.
QString accuracyCell(const LadderRow& row);
/// What the accuracy cell stands on: the task, questions, date and the configuration evaluated; or why there is none.
QString accuracyTip(const LadderRow& row);
/// The header of an accuracy column: the task of the readings ("GSM8K"), or "Accuracy".
QString accuracyHeader(const std::string& task);

/// A reading read across a wide gap between measured points (LadderEntry::sparse): a hatched cell background, and
/// what the tooltip says of it; null and empty for any other reading.
QVariant sparseBackground(const LadderRow& row);
QString sparseNote(const LadderRow& row);

} // namespace paretoscope::ui
