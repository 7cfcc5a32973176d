#include "widgets/session/sessiondialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QResizeEvent>
#include <QSettings>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QVBoxLayout>

#include "core/live/sessionsetup.h"
#include "core/model/precision.h"
#include "widgets/common/theme.h"

namespace paretoscope::ui {

namespace {

QSpinBox* spin(int lo, int hi, int value, QWidget* parent)
{
    auto* s = new QSpinBox(parent);
    s->setRange(lo, hi);
    s->setValue(value);
    return s;
}

QLabel* plain(const QString& text, QWidget* parent)
{
    auto* l = new QLabel(text, parent);
    l->setTextFormat(Qt::PlainText);
    l->setWordWrap(true);
    return l;
}

} // namespace

SessionDialog::SessionDialog(const QString& devicesText, QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("New live session"));
    auto* layout = new QVBoxLayout(this);
    auto* devices = plain(devicesText, this);
    layout->addWidget(devices);

    m_useRecipe = new QRadioButton(tr("Launch an engine from a recipe"), this);
    m_useEndpoint = new QRadioButton(tr("Use a running OpenAI-compatible endpoint"), this);
    m_useRecipe->setChecked(true);
    layout->addWidget(m_useRecipe);
    layout->addWidget(m_useEndpoint);
    m_source = new QStackedWidget(this);

    m_source->addWidget(makeRecipePage());
    m_source->addWidget(makeEndpointPage());
    layout->addWidget(m_source);
    layout->addWidget(makeWorkloadBox());

    m_error = plain(QString(), this);
    m_error->setStyleSheet(noteStyle(NoteKind::Error));
    layout->addWidget(m_error);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Start"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &SessionDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_useRecipe, &QRadioButton::toggled, this, [this](bool on) { m_source->setCurrentIndex(on ? 0 : 1); });
    connect(m_recipe, &QComboBox::currentIndexChanged, this, &SessionDialog::recipeChanged);
    connect(m_workload, &QComboBox::currentIndexChanged, this, &SessionDialog::workloadChanged);
    // the endpoint's hardware and engine are not a recipe's: its page says so as they are typed
    connect(m_hardware, &QComboBox::currentTextChanged, this, &SessionDialog::updateIdentity);
    connect(m_engine, &QComboBox::currentTextChanged, this, &SessionDialog::updateIdentity);
    connect(m_useRecipe, &QRadioButton::toggled, this, &SessionDialog::updateIdentity);
    recipeChanged();
    workloadChanged();
    // the last session's settings, field by field (never its API key: a credential is not written to the settings)
    const std::initializer_list<std::pair<const char*, QWidget*>> named
        = { { "useRecipe", m_useRecipe }, { "recipe", m_recipe }, { "recipeModel", m_recipeModel }, { "tp", m_tp },
              { "ep", m_ep }, { "dpAttention", m_dpAttention }, { "port", m_port }, { "devices", m_devices },
              { "url", m_url }, { "hardware", m_hardware }, { "engine", m_engine }, { "gpus", m_gpus },
              { "model", m_model }, { "precision", m_precision }, { "workload", m_workload }, { "isl", m_isl },
              { "osl", m_osl }, { "concurrency", m_concurrency }, { "sloTtft", m_sloTtft }, { "sloTpot", m_sloTpot } };
    for (const auto& [name, w] : named)
        w->setObjectName(QString::fromLatin1(name));
    restoreFields();
}

QWidget* SessionDialog::makeRecipePage()
{
    auto* recipePage = new QWidget(this);
    auto* rf = new QFormLayout(recipePage);
    m_recipe = new QComboBox(recipePage);
    for (const Recipe& r : bundledRecipes())
        m_recipe->addItem(QString::fromStdString(r.name));
    m_recipeText = plain(QString(), recipePage);
    m_recipeModel = new QLineEdit(recipePage);
    m_identity = plain(QString(), recipePage);
    m_identity->setObjectName(QStringLiteral("identityNote"));
    m_tp = spin(1, 1024, 8, recipePage);
    m_ep = spin(1, 1024, 1, recipePage);
    m_dpAttention = new QCheckBox(tr("Attention data parallel over the TP GPUs"), recipePage);
    m_port = spin(1, 65535, 8000, recipePage);
    m_devices = new QLineEdit(recipePage);
    m_devices->setPlaceholderText(tr("0,1,2,3,4,5,6,7"));
    rf->addRow(tr("Recipe"), m_recipe);
    rf->addRow(QString(), m_recipeText);
    rf->addRow(QString(), m_identity);
    rf->addRow(tr("Model"), m_recipeModel);
    rf->addRow(tr("Tensor parallel"), m_tp);
    rf->addRow(tr("Expert parallel"), m_ep);
    rf->addRow(tr("DP attention"), m_dpAttention);
    rf->addRow(tr("Port"), m_port);
    rf->addRow(tr("GPUs (indices)"), m_devices);
    return recipePage;
}

QWidget* SessionDialog::makeEndpointPage()
{
    auto* endpointPage = new QWidget(this);
    auto* ef = new QFormLayout(endpointPage);
    m_url = new QLineEdit(endpointPage);
    m_url->setPlaceholderText(QStringLiteral("http://127.0.0.1:8000"));
    m_apiKey = new QLineEdit(endpointPage);
    m_apiKey->setEchoMode(QLineEdit::Password);
    m_apiKey->setPlaceholderText(tr("used for this session only, never stored"));
    m_hardware = new QComboBox(endpointPage);
    m_hardware->setEditable(true);
    m_hardware->addItems({ QStringLiteral("b300"), QStringLiteral("mi325x"), QStringLiteral("b200"),
        QStringLiteral("h200"), QStringLiteral("mi355x") });
    m_engine = new QComboBox(endpointPage);
    m_engine->setEditable(true);
    m_engine->addItems({ QStringLiteral("vllm"), QStringLiteral("sglang") });
    m_gpus = spin(1, 100000, 8, endpointPage);
    ef->addRow(tr("URL"), m_url);
    ef->addRow(tr("API key"), m_apiKey);
    ef->addRow(tr("Hardware"), m_hardware);
    ef->addRow(tr("Engine"), m_engine);
    ef->addRow(tr("GPUs serving it"), m_gpus);
    return endpointPage;
}

QWidget* SessionDialog::makeWorkloadBox()
{
    auto* work = new QGroupBox(tr("Workload"), this);
    auto* wf = new QFormLayout(work);
    m_model = new QLineEdit(work);
    m_model->setPlaceholderText(tr("as the server lists it (empty: its first model)"));
    m_precision = new QComboBox(work);
    m_precision->addItems({ QString::fromUtf8(kDefaultPrecision), QStringLiteral("fp8"), QStringLiteral("bf16") });
    m_workload = new QComboBox(work);
    m_workload->addItem(tr("Random, fixed lengths (InferenceX)"), QStringLiteral("random"));
    m_workload->addItem(tr("Agentic: multi-turn on a shared prefix"), QStringLiteral("agentic"));
    m_isl = spin(1, 1'000'000, 1024, work);
    m_osl = spin(1, 1'000'000, 1024, work);
    m_islLabel = new QLabel(work);
    m_oslLabel = new QLabel(work);
    m_concurrency = new QLineEdit(
        QString::fromStdString(concurrencyListText({ false, kDefaultConcurrencies })), work); // core's default
    m_concurrency->setToolTip(tr("A list (1,4,16,64) or auto: the adaptive sweep chooses the levels, from 1 up while "
                                 "throughput rises, then between neighbours until each ladder target has a level "
                                 "within 15%, at most 12 levels (as paretoscope-cli bench --concurrency auto)"));
    m_sloTtft = spin(0, 600000, 0, work);
    m_sloTtft->setSpecialValueText(tr("none"));
    m_sloTtft->setSuffix(QStringLiteral(" ms"));
    m_sloTpot = spin(0, 60000, 0, work);
    m_sloTpot->setSpecialValueText(tr("none"));
    m_sloTpot->setSuffix(QStringLiteral(" ms"));
    wf->addRow(tr("Model"), m_model);
    wf->addRow(tr("Precision"), m_precision);
    wf->addRow(tr("Workload"), m_workload);
    wf->addRow(m_islLabel, m_isl);
    wf->addRow(m_oslLabel, m_osl);
    wf->addRow(tr("Concurrency levels"), m_concurrency);
    wf->addRow(tr("SLO: TTFT at most"), m_sloTtft);
    wf->addRow(tr("SLO: TPOT at most"), m_sloTpot);
    return work;
}

void SessionDialog::restoreFields()
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("sessionDialog"));
    if (!settings.contains(QStringLiteral("useRecipe")))
        return;
    // the recipe first: choosing it fills its defaults, which the remembered values then replace
    if (settings.contains(QStringLiteral("recipe")))
        m_recipe->setCurrentText(settings.value(QStringLiteral("recipe")).toString());
    const bool recipe = settings.value(QStringLiteral("useRecipe")).toBool();
    (recipe ? m_useRecipe : m_useEndpoint)->setChecked(true);
    for (QWidget* w : findChildren<QWidget*>()) {
        const QString name = w->objectName();
        if (name.isEmpty() || name.startsWith(QLatin1String("qt_")) || name == QLatin1String("recipe")
            || name == QLatin1String("useRecipe") || !settings.contains(name))
            continue;
        const QVariant v = settings.value(name);
        if (auto* e = qobject_cast<QLineEdit*>(w))
            e->setText(v.toString());
        else if (auto* sb = qobject_cast<QSpinBox*>(w))
            sb->setValue(v.toInt());
        else if (auto* c = qobject_cast<QComboBox*>(w))
            c->setCurrentText(v.toString());
        else if (auto* b = qobject_cast<QCheckBox*>(w); b && b->isEnabled()) // not on a recipe that cannot
            b->setChecked(v.toBool());
    }
}

void SessionDialog::rememberFields() const
{
    QSettings settings;
    settings.beginGroup(QStringLiteral("sessionDialog"));
    settings.setValue(QStringLiteral("useRecipe"), m_useRecipe->isChecked());
    for (const QWidget* w : findChildren<QWidget*>()) {
        const QString name = w->objectName();
        if (name.isEmpty() || name.startsWith(QLatin1String("qt_"))) // Qt's own parts of a field
            continue;
        if (auto* e = qobject_cast<const QLineEdit*>(w))
            settings.setValue(name, e->text());
        else if (auto* sb = qobject_cast<const QSpinBox*>(w))
            settings.setValue(name, sb->value());
        else if (auto* c = qobject_cast<const QComboBox*>(w))
            settings.setValue(name, c->currentText());
        else if (auto* b = qobject_cast<const QCheckBox*>(w))
            settings.setValue(name, b->isChecked());
    }
}

void SessionDialog::recipeChanged()
{
    auto r = bundledRecipe(m_recipe->currentText().toStdString());
    if (!r)
        return;
    m_recipeText->setText(QString::fromStdString(r->description));
    auto get = [&](const char* k) { return QString::fromStdString(r->defaults.count(k) ? r->defaults.at(k) : ""); };
    m_recipeModel->setText(get("model"));
    m_tp->setValue(get("tp").toInt());
    m_ep->setValue(get("ep").toInt());
    // a recipe without dp_attention_args (the emulator's) cannot run it: core would refuse the session
    const bool dp = !r->dpAttentionArgs.empty();
    m_dpAttention->setEnabled(dp);
    if (!dp)
        m_dpAttention->setChecked(false);
    QStringList dpArgs;
    for (const std::string& a : r->dpAttentionArgs)
        dpArgs << QString::fromStdString(a);
    m_dpAttention->setToolTip(dp
            ? tr("Runs the engine with %1; the runs are stored with dp_attention, a configuration of their own "
                 "(needs TP above 1).")
                  .arg(dpArgs.join(u' '))
            : tr("Recipe %1 has no dp_attention_args: it cannot run attention data parallel.")
                  .arg(QString::fromStdString(r->name)));
    m_port->setValue(get("port").toInt());
    m_devices->setText(get("devices"));
    m_precision->setCurrentText(QString::fromStdString(r->precision));
    updateIdentity();
}

QString SessionDialog::identityNote() const
{
    auto r = bundledRecipe(m_recipe->currentText().toStdString());
    if (!r)
        return {};
    const QString hardware = QString::fromStdString(r->hardware), engine = QString::fromStdString(r->engine);
    QString note = tr("Runs are stored as hardware %1, engine %2 (the recipe's).").arg(hardware, engine);
    // typed (or remembered) on the endpoint page, where a session against a running server takes them: not this
    // session's. The page's untouched first entries are no one's choice and go unmentioned
    auto typed = [](const QComboBox* box, const QString& recipes) {
        const QString text = box->currentText().trimmed();
        return !text.isEmpty() && text != box->itemText(0) && text.toLower() != recipes.toLower();
    };
    QStringList unused;
    if (typed(m_hardware, hardware))
        unused << tr("hardware %1").arg(m_hardware->currentText().trimmed());
    if (typed(m_engine, engine))
        unused << tr("engine %1").arg(m_engine->currentText().trimmed());
    if (!unused.isEmpty())
        note += tr(" The %1 typed for a running endpoint is not used here.").arg(unused.join(tr(" and ")));
    return note;
}

void SessionDialog::updateIdentity()
{
    m_identity->setText(identityNote());
    fitNotes();
}

void SessionDialog::fitNotes()
{
    // a form's row does not grow with a wrapped label's lines: each note as tall as its text at the width it has (or
    // will have), so that no line is cut in half
    for (QLabel* note : { m_recipeText, m_identity }) {
        const int width = std::max(note->width(), 360);
        note->setMinimumHeight(note->heightForWidth(width));
    }
}

void SessionDialog::resizeEvent(QResizeEvent* event)
{
    QDialog::resizeEvent(event);
    fitNotes();
}

void SessionDialog::workloadChanged()
{
    bool agentic = m_workload->currentData().toString() == QLatin1String("agentic");
    m_islLabel->setText(agentic ? tr("New tokens per turn") : tr("Input length (tokens)"));
    m_oslLabel->setText(agentic ? tr("Answer length (tokens)") : tr("Output length (tokens)"));
}

void SessionDialog::setEndpoint(const QString& url, const QString& hardware, const QString& engine, int gpus)
{
    m_useEndpoint->setChecked(true);
    m_url->setText(url);
    m_hardware->setCurrentText(hardware);
    m_engine->setCurrentText(engine);
    m_gpus->setValue(gpus);
}

void SessionDialog::setConcurrency(const QString& list)
{
    m_concurrency->setText(list);
}

void SessionDialog::setLengths(int isl, int osl)
{
    m_isl->setValue(isl);
    m_osl->setValue(osl);
}

bool SessionDialog::build()
{
    auto fail = [this](const QString& why) {
        m_error->setText(why);
        return false;
    };
    SessionChoices ch;
    SessionConfig& c = ch.config;
    c.model = m_model->text().trimmed().toStdString();
    c.precision = m_precision->currentText().toStdString();
    c.workload = m_workload->currentData().toString().toStdString();
    c.isl = m_isl->value();
    c.osl = m_osl->value();
    c.concurrencies.clear();
    // core's rule, the CLI's too
    const auto levels = parseConcurrencyList(m_concurrency->text().toStdString());
    if (!levels)
        return fail(QString::fromStdString(levels.error()));
    c.concurrencyAuto = levels->automatic;
    c.concurrencies = levels->levels;
    if (m_sloTtft->value() > 0)
        c.slo.ttft = m_sloTtft->value() / 1000.0;
    if (m_sloTpot->value() > 0)
        c.slo.tpot = m_sloTpot->value() / 1000.0;
    SessionRequest r;
    if (m_useRecipe->isChecked()) {
        auto recipe = bundledRecipe(m_recipe->currentText().toStdString());
        if (!recipe)
            return fail(QString::fromStdString(recipe.error()));
        if (!m_model->text().trimmed().isEmpty() && m_model->text().trimmed() != m_recipeModel->text().trimmed())
            return fail(tr("The workload's model must be the one the recipe serves (%1).").arg(m_recipeModel->text()));
        RecipeLaunch& l = ch.launch.emplace();
        l.recipe = *recipe;
        l.parameters = { { "model", m_recipeModel->text().trimmed().toStdString() },
            { "port", std::to_string(m_port->value()) }, { "devices", m_devices->text().trimmed().toStdString() } };
        ch.tp = m_tp->value();
        ch.ep = m_ep->value();
        c.dpAttention = m_dpAttention->isChecked();
        QString logDir = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
        QDir().mkpath(logDir);
        l.logPath = QDir(logDir).filePath(QStringLiteral("engine-%1.log").arg(m_recipe->currentText())).toStdString();
        r.devices = m_devices->text().trimmed();
    } else {
        c.endpoint = m_url->text().trimmed().toStdString();
        c.hardware = m_hardware->currentText().toStdString();
        c.engine = m_engine->currentText().toStdString();
        ch.gpus = m_gpus->value(); // tp, not asked here, follows core's rule (buildSession)
        r.apiKey = m_apiKey->text();
    }
    auto plan = buildSession(std::move(ch));
    if (!plan)
        return fail(QString::fromStdString(plan.error()));
    r.config = std::move(plan->config);
    r.launch = std::move(plan->launch);
    m_error->clear();
    m_request = std::move(r);
    return true;
}

void SessionDialog::accept()
{
    if (!build())
        return;
    rememberFields();
    QDialog::accept();
}

} // namespace paretoscope::ui
