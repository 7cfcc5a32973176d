#include "widgets/imports/importdialogs.h"

#include "widgets/common/displaynames.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "core/model/hardware.h"
#include "core/model/modelnames.h"
#include "core/model/precision.h"

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
    , m_serving(new QComboBox(this))
    , m_applyToRest(new QCheckBox(this))
{
    setWindowTitle(tr("What did this run on?"));
    m_format = format;
    auto* intro = new QLabel(tr("%1 is a %2 result. It does not say what it ran on; give the fields below.")
                                 .arg(QFileInfo(file).fileName(), format),
        this);
    intro->setTextFormat(Qt::PlainText);
    intro->setWordWrap(true);
    m_hardware->setPlaceholderText(tr("e.g. b300, mi325x"));
    for (QSpinBox* s : { m_gpus, m_prefill, m_decode })
        s->setRange(0, 4096);
    m_gpus->setValue(8);
    m_engine->setEditable(true);
    m_engine->addItems({ QStringLiteral("vllm"), QStringLiteral("sglang") });
    if (format.contains(QLatin1String("sglang")))
        m_engine->setCurrentText(QStringLiteral("sglang"));
    m_precision->setText(QString::fromUtf8(kDefaultPrecision));
    m_model->setPlaceholderText(tr("e.g. DeepSeek-R1-0528"));
    for (QSpinBox* s : { m_isl, m_osl }) {
        s->setRange(0, 10000000);
        s->setSpecialValueText(tr("(from the file)"));
    }
    // one pool of GPUs, or prefill and decode apart: only the counts that apply are asked for
    m_serving->addItem(tr("Aggregated: one pool of GPUs"));
    m_serving->addItem(tr("Disaggregated: prefill and decode GPUs apart"));
    m_serving->setToolTip(tr("tok/s/GPU divides the throughput by every GPU; disaggregated, input tokens are also "
                             "counted per prefill GPU and output tokens per decode GPU"));
    m_prefill->setSpecialValueText(QString());
    m_decode->setSpecialValueText(QString());
    m_prefill->setRange(1, 4096);
    m_decode->setRange(1, 4096);
    m_prefill->setValue(1);
    m_decode->setValue(1);
    const QString fromFile = modelInFile(file);
    if (!fromFile.isEmpty()) {
        m_fileModel = fromFile;
        m_model->setText(fromFile);
        m_model->setToolTip(tr("From the file's model_id; change it to file the runs under another name"));
    }
    m_form = new QFormLayout;
    auto* form = m_form;
    form->addRow(tr("Hardware"), m_hardware);
    form->addRow(tr("Serving"), m_serving);
    form->addRow(tr("GPUs"), m_gpus);
    form->addRow(tr("Prefill GPUs"), m_prefill);
    form->addRow(tr("Decode GPUs"), m_decode);
    form->addRow(tr("Engine"), m_engine);
    form->addRow(tr("Precision"), m_precision);
    form->addRow(fromFile.isEmpty() ? tr("Model") : tr("Model (from the file)"), m_model);
    form->addRow(tr("Input length (ISL)"), m_isl);
    form->addRow(tr("Output length (OSL)"), m_osl);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Import"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    m_applyToRest->setVisible(false);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_applyToRest);
    layout->addWidget(buttons);
    connect(m_serving, &QComboBox::currentIndexChanged, this, &CallerFieldsDialog::showServing);
    showServing();
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
    o.hardware = normalizedKey(m_hardware->text().toStdString());
    if (m_serving->currentIndex() == 1) {
        o.prefillGpus = m_prefill->value();
        o.decodeGpus = m_decode->value();
    } else {
        o.gpus = m_gpus->value();
    }
    o.engine = normalizedKey(m_engine->currentText().toStdString());
    o.precision = normalizedKey(m_precision->text().toStdString());
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
    m_serving->setCurrentIndex(o.prefillGpus > 0 && o.decodeGpus > 0 ? 1 : 0);
    if (o.prefillGpus > 0)
        m_prefill->setValue(o.prefillGpus);
    if (o.decodeGpus > 0)
        m_decode->setValue(o.decodeGpus);
    if (!o.engine.empty())
        m_engine->setCurrentText(QString::fromStdString(o.engine));
    if (!o.precision.empty())
        m_precision->setText(QString::fromStdString(o.precision));
    // the file's own model_id wins over an earlier file's answer
    if (m_fileModel.isEmpty())
        m_model->setText(QString::fromStdString(o.model));
}

void CallerFieldsDialog::offerForRest(int count, const QString& folder)
{
    m_applyToRest->setText((count == 1 ? tr("Use these answers for the other %3 %1 file from %2")
                                       : tr("Use these answers for the other %3 %1 files from %2"))
                               .arg(m_format, QDir::toNativeSeparators(folder), QString::number(count)));
    m_applyToRest->setChecked(true);
    m_applyToRest->setVisible(count > 0);
}

bool CallerFieldsDialog::applyToRest() const
{
    return !m_applyToRest->isHidden() && m_applyToRest->isChecked(); // asked after the dialog closed
}

void CallerFieldsDialog::showServing()
{
    const bool split = m_serving->currentIndex() == 1;
    m_form->setRowVisible(m_gpus, !split);
    m_form->setRowVisible(m_prefill, split);
    m_form->setRowVisible(m_decode, split);
    validate();
    adjustSize();
}

QString modelInFile(const QString& path)
{
    // a bench result is a small JSON object (SGLang appends one per line): its model_id, else its model
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || f.size() > qint64 { 64 } * 1024 * 1024)
        return {};
    const QByteArray bytes = f.readAll();
    QJsonDocument doc = QJsonDocument::fromJson(bytes);
    if (!doc.isObject())
        doc = QJsonDocument::fromJson(bytes.left(bytes.indexOf('\n')));
    const QJsonObject o = doc.object();
    for (const char* key : { "model_id", "model" }) {
        const QString v = o.value(QLatin1String(key)).toString().trimmed();
        if (!v.isEmpty())
            return modelName(v);
    }
    return {};
}

QString modelName(const QString& modelId)
{
    return QString::fromStdString(benchModelName(modelId.toStdString())); // core's rule
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
    // the result reads whole: it wraps in its column rather than end in "…"; a long source name is cut in its
    // middle (its tooltip is whole)
    m_list->setWordWrap(true);
    m_list->setUniformRowHeights(false);
    m_list->setTextElideMode(Qt::ElideMiddle);
    int failed = 0, noted = 0;
    for (const ImportResultLine& r : results) {
        const QString message = r.notes.isEmpty() ? r.message : r.message + QStringLiteral("\n") + r.notes.join(u'\n');
        noted += !r.notes.isEmpty();
        auto* item = new QTreeWidgetItem(m_list,
            { QFileInfo(r.source).fileName().isEmpty() || r.source.contains(QLatin1String("://"))
                    ? r.source
                    : QFileInfo(r.source).fileName(),
                message });
        item->setIcon(0, style()->standardIcon(r.ok ? QStyle::SP_DialogApplyButton : QStyle::SP_MessageBoxWarning));
        item->setToolTip(0, plainToolTip(r.source));
        item->setToolTip(1, plainToolTip(message));
        if (!r.ok) {
            item->setForeground(1, QColor(176, 0, 32));
            ++failed;
        }
    }
    m_list->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    m_list->header()->setStretchLastSection(true);
    m_list->setColumnWidth(0, 260);
    const int total = int(results.size());
    QString said = failed == 0 ? tr("Every source was imported.")
        : failed < total
        ? tr("%1 of %2 sources failed and imported nothing; the others are stored.").arg(failed).arg(total)
        : total == 1 ? tr("The source failed and imported nothing.")
                     : tr("All %1 sources failed and imported nothing.").arg(total);
    if (noted)
        said += QLatin1Char(' ') + tr("Notes under a result say what was kept or left out.");
    m_summary = new QLabel(said, this);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::PlainText);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::accept);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_list, 1);
    layout->addWidget(buttons);
    resize(900, 360);
}

QString ImportResultsDialog::summary() const
{
    return m_summary->text();
}

} // namespace paretoscope::ui
