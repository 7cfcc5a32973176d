#include "importdialogs.h"

#include "palette.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace paretoscope::ui {

CallerFieldsDialog::CallerFieldsDialog(const QString& file, const QString& format, QWidget* parent)
    : QDialog(parent)
    , m_hardware(new QLineEdit(this))
    , m_gpus(new QSpinBox(this))
    , m_prefill(new QSpinBox(this))
    , m_decode(new QSpinBox(this))
    , m_engine(new QComboBox(this))
    , m_precision(new QLineEdit(this))
    , m_model(new QLineEdit(this))
    , m_isl(new QSpinBox(this))
    , m_osl(new QSpinBox(this))
{
    setWindowTitle(tr("What did this run on?"));
    auto* intro = new QLabel(tr("%1 is a %2 result. It does not say what it ran on; give the fields below.")
                                 .arg(QFileInfo(file).fileName(), format),
        this);
    intro->setTextFormat(Qt::PlainText);
    intro->setWordWrap(true);
    m_hardware->setPlaceholderText(tr("e.g. b300, mi325x"));
    for (QSpinBox* s : { m_gpus, m_prefill, m_decode })
        s->setRange(0, 4096);
    m_gpus->setValue(8);
    m_prefill->setSpecialValueText(tr("(not disaggregated)"));
    m_decode->setSpecialValueText(tr("(not disaggregated)"));
    m_engine->setEditable(true);
    m_engine->addItems({ QStringLiteral("vllm"), QStringLiteral("sglang") });
    if (format.contains(QLatin1String("sglang")))
        m_engine->setCurrentText(QStringLiteral("sglang"));
    m_precision->setText(QStringLiteral("fp4"));
    m_model->setPlaceholderText(tr("e.g. DeepSeek-R1-0528"));
    for (QSpinBox* s : { m_isl, m_osl }) {
        s->setRange(0, 10000000);
        s->setSpecialValueText(tr("(from the file)"));
    }
    auto* form = new QFormLayout;
    form->addRow(tr("Hardware"), m_hardware);
    form->addRow(tr("GPUs"), m_gpus);
    form->addRow(tr("Prefill GPUs"), m_prefill);
    form->addRow(tr("Decode GPUs"), m_decode);
    form->addRow(tr("Engine"), m_engine);
    form->addRow(tr("Precision"), m_precision);
    form->addRow(tr("Model"), m_model);
    form->addRow(tr("Input length (ISL)"), m_isl);
    form->addRow(tr("Output length (OSL)"), m_osl);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Import"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(buttons);
    for (QLineEdit* e : { m_hardware, m_precision, m_model })
        connect(e, &QLineEdit::textChanged, this, &CallerFieldsDialog::validate);
    for (QSpinBox* s : { m_gpus, m_prefill, m_decode })
        connect(s, &QSpinBox::valueChanged, this, &CallerFieldsDialog::validate);
    connect(m_engine, &QComboBox::currentTextChanged, this, &CallerFieldsDialog::validate);
    validate();
}

ImportOptions CallerFieldsDialog::options() const
{
    ImportOptions o;
    o.hardware = m_hardware->text().trimmed().toLower().toStdString();
    const bool split = m_prefill->value() > 0 || m_decode->value() > 0;
    if (split) {
        o.prefillGpus = m_prefill->value();
        o.decodeGpus = m_decode->value();
    } else {
        o.gpus = m_gpus->value();
    }
    o.engine = m_engine->currentText().trimmed().toLower().toStdString();
    o.precision = m_precision->text().trimmed().toLower().toStdString();
    o.model = m_model->text().trimmed().toStdString();
    o.isl = m_isl->value();
    o.osl = m_osl->value();
    return o;
}

void CallerFieldsDialog::setOptions(const ImportOptions& o)
{
    m_hardware->setText(QString::fromStdString(o.hardware));
    if (o.gpus > 0)
        m_gpus->setValue(o.gpus);
    m_prefill->setValue(o.prefillGpus);
    m_decode->setValue(o.decodeGpus);
    if (!o.engine.empty())
        m_engine->setCurrentText(QString::fromStdString(o.engine));
    if (!o.precision.empty())
        m_precision->setText(QString::fromStdString(o.precision));
    m_model->setText(QString::fromStdString(o.model));
}

void CallerFieldsDialog::validate()
{
    const std::string missing = missingCallerFields(options());
    m_ok->setEnabled(missing.empty());
    m_ok->setToolTip(missing.empty() ? QString() : tr("Still needed: %1").arg(QString::fromStdString(missing)));
}

ImportResultsDialog::ImportResultsDialog(const QList<ImportResultLine>& results, QWidget* parent)
    : QDialog(parent)
    , m_list(new QTreeWidget(this))
{
    setWindowTitle(tr("Import results"));
    m_list->setColumnCount(2);
    m_list->setHeaderLabels({ tr("Source"), tr("Result") });
    m_list->setRootIsDecorated(false);
    m_list->setWordWrap(true);
    int failed = 0;
    for (const ImportResultLine& r : results) {
        auto* item = new QTreeWidgetItem(m_list, { r.source, r.message });
        item->setIcon(0, style()->standardIcon(r.ok ? QStyle::SP_DialogApplyButton : QStyle::SP_MessageBoxWarning));
        item->setToolTip(0, plainToolTip(r.source));
        item->setToolTip(1, plainToolTip(r.message));
        if (!r.ok) {
            item->setForeground(1, QColor(176, 0, 32));
            ++failed;
        }
    }
    m_list->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    auto* summary
        = new QLabel(failed ? tr("%n source(s) failed and imported nothing; the others are stored.", nullptr, failed)
                            : tr("Every source was imported."),
            this);
    summary->setTextFormat(Qt::PlainText);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::accept);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary);
    layout->addWidget(m_list, 1);
    layout->addWidget(buttons);
    resize(900, 360);
}

} // namespace paretoscope::ui
