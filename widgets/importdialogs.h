#pragma once

#include <QDialog>

#include "importcontroller.h"

class QComboBox;
class QLineEdit;
class QSpinBox;
class QTreeWidget;

namespace paretoscope::ui {

/// Asks for what a vLLM or SGLang result does not say: hardware, GPUs (or prefill and decode GPUs), engine,
/// precision and model, and optionally the sequence lengths.
class CallerFieldsDialog : public QDialog {
    Q_OBJECT
public:
    CallerFieldsDialog(const QString& file, const QString& format, QWidget* parent = nullptr);
    ImportOptions options() const;
    /// Pre-fills from earlier answers.
    void setOptions(const ImportOptions& options);

private:
    void validate();
    QLineEdit* m_hardware;
    QSpinBox* m_gpus;
    QSpinBox* m_prefill;
    QSpinBox* m_decode;
    QComboBox* m_engine;
    QLineEdit* m_precision;
    QLineEdit* m_model;
    QSpinBox* m_isl;
    QSpinBox* m_osl;
    class QPushButton* m_ok;
};

/// The per-source results of an import: what came in, and each error in plain words.
class ImportResultsDialog : public QDialog {
    Q_OBJECT
public:
    ImportResultsDialog(const QList<ImportResultLine>& results, QWidget* parent = nullptr);
    QTreeWidget* list() const { return m_list; }

private:
    QTreeWidget* m_list;
};

} // namespace paretoscope::ui
