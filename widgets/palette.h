#pragma once

#include <QColor>
#include <QString>

class QWidget;

#include "core/model/scope.h"

namespace paretoscope::ui {

/// One colour per hardware from the Okabe-Ito palette (distinguishable with the common colour-vision deficiencies),
/// given in the order hardware first appears; a line style per precision.
/// Each hardware's own colour, the same whatever else is shown or hidden: the hardware of InferenceX have one each
/// (twelve well-separated hues, from Paul Tol's and Okabe & Ito's palettes); another hardware gets one of them by a
/// stable hash of its key.
QColor hardwareColour(const std::string& hardware);
/// A shade of a hardware's colour for one of its engines, so that the engines of one hardware stay apart: darker or
/// lighter by a step fixed per engine key.
QColor engineShade(const QColor& hardware, const std::string& engine);
Qt::PenStyle precisionStyle(const QString& precision);
/// "B300 · vLLM · FP4" (speculative decoding added when used): what the legend and tables show for a group.
QString groupLabel(const GroupKey& key);
/// Display names: "b300" -> "B300", "vllm" -> "vLLM", "sglang" -> "SGLang", "fp4" -> "FP4".
QString hardwareName(const std::string& hardware);
QString engineName(const std::string& engine);
QString precisionName(const std::string& precision);

/// A tooltip that shows `text` as the characters it holds: Qt guesses rich text in tooltips, so text from imported
/// files or servers ("<img src=...>") is escaped and wrapped as rich text that keeps its line breaks.
QString plainToolTip(const QString& text);
/// A message box whose text is never read as markup (QMessageBox guesses rich text too).
void plainMessage(QWidget* parent, bool error, const QString& title, const QString& text);

} // namespace paretoscope::ui
