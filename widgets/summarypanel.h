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

private:
    QString m_markdown;
    QTextBrowser* m_view;
};

} // namespace paretoscope::ui
