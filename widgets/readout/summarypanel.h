#pragma once

#include <QWidget>

#include "core/analysis/summary.h"

class QTextBrowser;

namespace paretoscope::ui {

/// The quick answer for the hardware in view, computed by core from the store, shown as rendered Markdown (no HTML:
/// imported names stay text) with Copy and Save as Markdown.
class SummaryPanel : public QWidget {
    Q_OBJECT
public:
    explicit SummaryPanel(QWidget* parent = nullptr);
    void setReport(const Result<SummaryReport>& report);
    QString markdown() const { return m_markdown; }
    void copy() const;
    /// Whether the view shows the latest report (a hidden panel renders it when it is shown).
    bool rendered() const { return !m_stale; }

protected:
    void showEvent(QShowEvent* event) override;

private:
    /// Lays the Markdown out in the view. Laying out its table costs hundreds of milliseconds beside a large scope's
    /// chart, so a hidden panel (another tab in front) only keeps the text and renders it when shown: a slider step
    /// behind another tab costs nothing here.
    void render();

    QString m_markdown;
    bool m_stale = false; ///< m_markdown is newer than what the view shows
    QTextBrowser* m_view;
};

} // namespace paretoscope::ui
