#pragma once

#include <QWidget>
#include <vector>

#include "core/analysis/planmix.h"

class QLabel;
class QTableWidget;

namespace paretoscope::ui {

/// The Plan tab's workload mix (docs/architecture.md section 12.10): a row per part with its input and output
/// lengths, its share of the demand in % and its own target (empty: the slider's). What is typed goes through core's
/// parseMixSpec, so the tab refuses what `--mix` refuses, with the same words, shown under the table.
class MixEditor : public QWidget {
    Q_OBJECT
public:
    explicit MixEditor(QWidget* parent = nullptr);

    /// The parts on a base scope (its model and filters), or why there are none.
    Result<std::vector<MixPart>> parts(const Scope& base) const;
    /// The mix as --mix writes it ("1024/1024:0.7,8192/1024:0.3@40"); empty where a cell is not a number.
    QString specText() const;
    /// Shows a --mix text (as specText writes it); false, changing nothing, where it does not read.
    bool setSpecText(const QString& spec);
    QTableWidget* table() const { return m_table; }
    /// Why the mix is refused; empty when it reads.
    QString refusal() const;

signals:
    /// A cell, or the rows, changed.
    void changed();

private:
    void addRow(int isl, int osl, double sharePercent, const QString& target);
    void check();

    QTableWidget* m_table;
    QLabel* m_reason;
};

} // namespace paretoscope::ui
