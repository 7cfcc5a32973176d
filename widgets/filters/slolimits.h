#pragma once

#include <QWidget>
#include <optional>

#include "core/model/scope.h"
#include "widgets/common/numberbox.h"

class QComboBox;

namespace paretoscope::ui {

/// The service-level limits of a scope (Scope::ttftMax on the median or p99 TTFT, Scope::tpotMax), in seconds; 0
/// shows "no limit". Part of the filter panel.
class SloLimits : public QWidget {
    Q_OBJECT
public:
    explicit SloLimits(QWidget* parent = nullptr);
    /// Writes the limits into a scope (unset where there is no limit; the statistic only with a TTFT limit).
    void applyTo(Scope& scope) const;
    /// Shows a scope's limits. Emits nothing.
    void setFrom(const Scope& scope);
    /// No limit at all. Emits nothing.
    void clear();
    NumberBox* ttftBox() const { return m_ttft; }
    QComboBox* ttftStatBox() const { return m_stat; }
    NumberBox* tpotBox() const { return m_tpot; }

signals:
    void changed();

private:
    NumberBox* m_ttft;
    QComboBox* m_stat;
    NumberBox* m_tpot;
};

} // namespace paretoscope::ui
