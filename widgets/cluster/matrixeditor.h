#pragma once

#include <QJsonObject>
#include <QWidget>

#include "core/live/matrix.h"

class QLabel;
class QLineEdit;
class QTableWidget;

namespace paretoscope::ui {

/// Builds a sweep matrix (docs/cluster.md): one row per configuration (recipe, profile, model, tp, ep,
/// attention data parallel, GPUs per node, lengths, the concurrency list or auto, repeats, and any other field of
/// the matrix format as JSON), and the Slurm options every task shares. What it says is core's parseMatrix's word:
/// a refusal names the configuration and the field.
class MatrixEditor : public QWidget {
    Q_OBJECT
public:
    /// The table's columns; Other holds the fields without a column of their own, as a JSON object.
    enum Column {
        Name,
        Recipe,
        Profile,
        Model,
        Tp,
        Ep,
        DpAttention,
        GpusPerNode,
        Isl,
        Osl,
        Concurrency,
        Repeats,
        Other,
        ColumnCount
    };

    explicit MatrixEditor(QWidget* parent = nullptr);
    QTableWidget* table() const { return m_table; }

    /// A row with the emulator's recipe (no GPU needed) serving defaultModel(), or with the fields given (matrix
    /// format keys).
    void addConfiguration(const QJsonObject& fields = {});
    /// The model a new row serves: the emulator recipe's, or the one the last live session's emulator served.
    QString defaultModel() const { return m_defaultModel; }
    void setDefaultModel(const QString& model) { m_defaultModel = model; }
    void removeSelected();
    /// The matrix as the file format, configurations in the table's order, one a line.
    QString matrixText() const;
    /// The matrix as core reads it; the refusal is shown under the table as well.
    Result<Matrix> check();
    /// Replaces the table with a matrix file's configurations; an error (nothing changed) when it is not one.
    Status load(const QString& text, const QString& name);
    Status openFile(const QString& path);
    /// Writes the matrix to path when core accepts it.
    Status saveFile(const QString& path);

signals:
    void changed();

private:
    void setRow(int row, const QJsonObject& fields);
    QJsonObject rowObject(int row) const;
    QWidget* makeButtons();
    QWidget* makeSlurmFields();

    QTableWidget* m_table;
    QLineEdit* m_partition;
    QLineEdit* m_account;
    QLineEdit* m_time;
    QLabel* m_message;
    QString m_description;
    QString m_defaultModel;
};

} // namespace paretoscope::ui
