#pragma once

#include <QDialog>

#include "widgets/session/sessioncontroller.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;
class QStackedWidget;

namespace paretoscope::ui {

/// Sets up a live session: a recipe to launch (model, TP, EP, DP attention, port, GPUs) or a running endpoint (URL, API
/// key, hardware, engine, GPUs); model, precision, workload with its lengths, the concurrency list and the SLOs. It
/// lists the GPUs this machine has. Accept only with a configuration core accepts; the reason shows otherwise.
class SessionDialog : public QDialog {
    Q_OBJECT
public:
    explicit SessionDialog(const QString& devicesText, QWidget* parent = nullptr);
    /// What was set up (valid after accept()).
    SessionRequest request() const { return m_request; }
    /// Fills the endpoint fields (for tests and for "run again").
    void setEndpoint(const QString& url, const QString& hardware, const QString& engine, int gpus);
    void setConcurrency(const QString& list);
    void setLengths(int isl, int osl);
    /// What a recipe's session is stored as, said on its page: "Runs are stored as hardware b300-sim, engine
    /// engine-sim (the recipe's)", and, where the endpoint page holds another hardware or engine, that those are not
    /// used.
    QString identityNote() const;
    /// Reads the form into a request; false with the reason shown under the form.
    bool build();

    void accept() override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    QWidget* makeRecipePage();
    QWidget* makeEndpointPage();
    QWidget* makeWorkloadBox();
    void recipeChanged();
    void workloadChanged();
    void updateIdentity();
    void fitNotes();

    QRadioButton* m_useRecipe;
    QRadioButton* m_useEndpoint;
    QStackedWidget* m_source;
    QComboBox* m_recipe;
    QLabel* m_recipeText;
    QLabel* m_identity;
    QLineEdit* m_recipeModel;
    QSpinBox* m_tp;
    QSpinBox* m_ep;
    QCheckBox* m_dpAttention;
    QSpinBox* m_port;
    QLineEdit* m_devices;
    QLineEdit* m_url;
    QLineEdit* m_apiKey;
    QComboBox* m_hardware;
    QComboBox* m_engine;
    QSpinBox* m_gpus;
    QLineEdit* m_model;
    QComboBox* m_precision;
    QComboBox* m_workload;
    QLabel* m_islLabel;
    QLabel* m_oslLabel;
    QSpinBox* m_isl;
    QSpinBox* m_osl;
    QLineEdit* m_concurrency;
    QSpinBox* m_sloTtft;
    QSpinBox* m_sloTpot;
    QLabel* m_error;
    SessionRequest m_request;
    /// The last started session's fields, kept in the settings (the API key never).
    void restoreFields();
    void rememberFields() const;
};

} // namespace paretoscope::ui
