#pragma once

#include <QDialog>

#include "widgets/imports/importcontroller.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
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
    /// Pre-fills from earlier answers (the file's own model_id wins).
    void setOptions(const ImportOptions& options);
    /// Offers to answer once for the other files of this kind from the same folder (ticked by default).
    void offerForRest(int count, const QString& folder);
    bool applyToRest() const;

private:
    void validate();
    void showServing();
    QString m_format;
    QString m_fileModel;
    QFormLayout* m_form = nullptr;
    QLineEdit* m_hardware;
    QSpinBox* m_gpus;
    QSpinBox* m_prefill;
    QSpinBox* m_decode;
    QComboBox* m_engine;
    QLineEdit* m_precision;
    QLineEdit* m_model;
    QSpinBox* m_isl;
    QSpinBox* m_osl;
    QComboBox* m_serving;
    QCheckBox* m_applyToRest;
    class QPushButton* m_ok;
};

/// The model a bench result names (model_id, else model), empty when it names none.
QString modelInFile(const QString& path);
/// A model's name from what a result calls it: "gpt-oss-120b" from a Hugging Face cache path, "org/name" as
/// written.
QString modelName(const QString& modelId);

/// The per-source results of an import: what came in, and each error in plain words.
class ImportResultsDialog : public QDialog {
    Q_OBJECT
public:
    ImportResultsDialog(const QList<ImportResultLine>& results, QWidget* parent = nullptr);
    QTreeWidget* list() const { return m_list; }
    /// The sentence over the list: how many sources failed, of how many.
    QString summary() const;

private:
    QTreeWidget* m_list;
    QLabel* m_summary;
};

} // namespace paretoscope::ui
