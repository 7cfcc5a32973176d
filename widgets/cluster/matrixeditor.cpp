#include "widgets/cluster/matrixeditor.h"

#include <algorithm>
#include <functional>

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QTableWidget>
#include <QVBoxLayout>

#include "core/live/recipe.h"
#include "widgets/common/theme.h"

namespace paretoscope::ui {

namespace {

struct ColumnInfo {
    const char* key; ///< the matrix format's key; empty for Other
    const char* header;
    const char* tip;
    int width;
};

// In the order of MatrixEditor::Column.
const ColumnInfo kColumns[] = {
    { "name", "Name", "The configuration's name (the task's label). Empty: recipe-profile-tpN.", 130 },
    { "recipe", "Recipe", "A shipped engine recipe; sim starts paretoscope-engine-sim (no GPU).", 150 },
    { "profile", "Profile", "The emulator's hardware profile (sim recipes only), e.g. b300-sim, mi325x-sim.", 100 },
    { "model", "Model", "The model to serve. Empty: the recipe's.", 150 },
    { "tp", "TP", "Tensor parallel size. Empty: the recipe's.", 40 },
    { "ep", "EP", "Expert parallel size. Empty: the recipe's.", 40 },
    { "dp_attention", "DP attn", "Attention data parallel (needs TP above 1).", 56 },
    { "gpus_per_node", "GPUs/node", "GPUs per node of the cluster (default 8).", 72 },
    { "isl", "ISL", "Input length, tokens.", 56 },
    { "osl", "OSL", "Output length, tokens.", 56 },
    { "concurrency", "Concurrency", "Levels such as 1, 4, 16; or auto (the sweep finds the frontier itself).", 110 },
    { "repeats", "Repeats", "Runs per level (default 1).", 58 },
    { "", "Other fields (JSON)",
        "Fields without a column, as a JSON object: prefill/decode {\"nodes\": N, \"tp\": N}, workload, precision, "
        "prompts_per_level, port, max_seqs, max_model_len.",
        200 },
};

bool isIntegerColumn(int c)
{
    using C = MatrixEditor::Column;
    return c == C::Tp || c == C::Ep || c == C::GpusPerNode || c == C::Isl || c == C::Osl || c == C::Repeats;
}

// A JSON value as it is written in a file: compact, one line.
QString jsonText(const QJsonValue& v)
{
    QByteArray a = QJsonDocument(QJsonArray { v }).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(a.mid(1, a.size() - 2));
}

// A cell's text as the value the format takes: an integer where the text is one, else the text itself (the parser
// then says what the field takes, naming it).
QJsonValue integerOrText(const QString& text)
{
    bool ok = false;
    const qlonglong v = text.toLongLong(&ok);
    return ok ? QJsonValue(v) : QJsonValue(text);
}

QJsonValue concurrencyValue(const QString& text)
{
    if (text.trimmed() == QLatin1String("auto"))
        return QStringLiteral("auto");
    QJsonArray levels;
    for (const QString& part : text.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qlonglong v = part.toLongLong(&ok);
        if (!ok)
            return text; // refused by the parser, which names the field
        levels.append(v);
    }
    return levels;
}

QString concurrencyText(const QJsonValue& v)
{
    if (!v.isArray())
        return v.isString() ? v.toString() : jsonText(v);
    QStringList parts;
    for (const QJsonValue level : v.toArray())
        parts << jsonText(level);
    return parts.join(QStringLiteral(", "));
}

} // namespace

MatrixEditor::MatrixEditor(QWidget* parent)
    : QWidget(parent)
    , m_table(new QTableWidget(0, ColumnCount, this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(makeButtons());
    for (int c = 0; c < ColumnCount; ++c) {
        auto* header = new QTableWidgetItem(QString::fromLatin1(kColumns[c].header));
        header->setToolTip(QString::fromLatin1(kColumns[c].tip));
        m_table->setHorizontalHeaderItem(c, header);
        m_table->setColumnWidth(c, kColumns[c].width);
    }
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 12);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    layout->addWidget(m_table, 1);
    layout->addWidget(makeSlurmFields());
    m_message = new QLabel(this);
    m_message->setTextFormat(Qt::PlainText);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);
    connect(m_table, &QTableWidget::itemChanged, this, &MatrixEditor::changed);
    connect(this, &MatrixEditor::changed, this, [this] { check(); });
}

QWidget* MatrixEditor::makeButtons()
{
    auto* row = new QWidget(this);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    auto* add = new QPushButton(tr("Add configuration"), row);
    auto* remove = new QPushButton(tr("Remove"), row);
    auto* open = new QPushButton(tr("Open matrix…"), row);
    auto* save = new QPushButton(tr("Save matrix…"), row);
    add->setObjectName(QStringLiteral("addConfiguration"));
    remove->setToolTip(tr("Removes the selected configurations"));
    for (QPushButton* b : { add, remove })
        h->addWidget(b);
    h->addStretch(1);
    for (QPushButton* b : { open, save })
        h->addWidget(b);
    connect(add, &QPushButton::clicked, this, [this] { addConfiguration(); });
    connect(remove, &QPushButton::clicked, this, &MatrixEditor::removeSelected);
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path
            = QFileDialog::getOpenFileName(this, tr("Open a sweep matrix"), QString(), tr("Matrix (*.json)"));
        if (path.isEmpty())
            return;
        if (Status st = openFile(path); !st)
            m_message->setText(QString::fromStdString(st.error()));
    });
    connect(save, &QPushButton::clicked, this, [this] {
        const QString path
            = QFileDialog::getSaveFileName(this, tr("Save the sweep matrix"), QString(), tr("Matrix (*.json)"));
        if (path.isEmpty())
            return;
        if (Status st = saveFile(path); !st)
            m_message->setText(QString::fromStdString(st.error()));
    });
    return row;
}

QWidget* MatrixEditor::makeSlurmFields()
{
    auto* row = new QWidget(this);
    auto* h = new QHBoxLayout(row);
    h->setContentsMargins(0, 0, 0, 0);
    m_partition = new QLineEdit(row);
    m_account = new QLineEdit(row);
    m_time = new QLineEdit(QStringLiteral("04:00:00"), row);
    m_partition->setPlaceholderText(tr("the cluster's default"));
    m_account->setPlaceholderText(tr("none"));
    m_time->setToolTip(tr("Each task's time limit (#SBATCH --time)"));
    m_partition->setObjectName(QStringLiteral("partition"));
    m_time->setObjectName(QStringLiteral("timeLimit"));
    for (const auto& [label, edit] : { std::pair { tr("Slurm partition"), m_partition }, { tr("Account"), m_account },
             { tr("Time limit per task"), m_time } }) {
        h->addWidget(new QLabel(label, row));
        h->addWidget(edit, 1);
        connect(edit, &QLineEdit::textEdited, this, &MatrixEditor::changed);
    }
    return row;
}

void MatrixEditor::addConfiguration(const QJsonObject& fields)
{
    QJsonObject f = fields;
    if (f.isEmpty()) {
        // the emulator's recipe: a row that runs anywhere, the other profile than the last row's
        const int n = m_table->rowCount();
        f = QJsonObject { { QStringLiteral("name"), QStringLiteral("config-%1").arg(n) },
            { QStringLiteral("recipe"), QStringLiteral("sim") },
            { QStringLiteral("profile"), n % 2 ? QStringLiteral("mi325x-sim") : QStringLiteral("b300-sim") },
            { QStringLiteral("tp"), 8 }, { QStringLiteral("isl"), 1024 }, { QStringLiteral("osl"), 128 },
            { QStringLiteral("concurrency"), QJsonArray { 1, 4, 16 } } };
        // the model written out, so that the row says what it serves
        if (!m_defaultModel.isEmpty())
            f.insert(QStringLiteral("model"), m_defaultModel);
    }
    const QSignalBlocker block(m_table);
    m_table->insertRow(m_table->rowCount());
    setRow(m_table->rowCount() - 1, f);
    emit changed();
}

void MatrixEditor::removeSelected()
{
    QList<int> rows;
    for (const QModelIndex& i : m_table->selectionModel()->selectedRows())
        rows << i.row();
    std::sort(rows.begin(), rows.end(), std::greater<>());
    for (int r : rows)
        m_table->removeRow(r);
    emit changed();
}

void MatrixEditor::setRow(int row, const QJsonObject& fields)
{
    QJsonObject other = fields;
    for (int c = 0; c < ColumnCount; ++c) {
        const QString key = QString::fromLatin1(kColumns[c].key);
        const QJsonValue v = key.isEmpty() ? QJsonValue() : fields.value(key);
        other.remove(key);
        if (c == Recipe) {
            auto* combo = new QComboBox(m_table);
            for (const paretoscope::Recipe& r : bundledRecipes())
                combo->addItem(QString::fromStdString(r.name), QString::fromStdString(r.description));
            const QString name = v.isString() ? v.toString() : QStringLiteral("sim");
            if (combo->findText(name) < 0)
                combo->addItem(name); // not shipped: the parser says so, listing those that are
            combo->setCurrentText(name);
            combo->setToolTip(combo->currentData().toString());
            connect(combo, &QComboBox::currentTextChanged, this, &MatrixEditor::changed);
            m_table->setCellWidget(row, c, combo);
            continue;
        }
        auto* item = new QTableWidgetItem;
        if (c == DpAttention) {
            item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
            item->setCheckState(v.toBool() ? Qt::Checked : Qt::Unchecked);
        } else if (c == Concurrency) {
            item->setText(v.isUndefined() ? QString() : concurrencyText(v));
        } else if (v.isString()) {
            item->setText(v.toString());
        } else if (!v.isUndefined() && !v.isNull()) {
            item->setText(jsonText(v));
        }
        if (isIntegerColumn(c) || c == DpAttention)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, c, item);
    }
    // whatever has no column of its own, dp_attention false included, rides along as written
    other.remove(QStringLiteral("dp_attention"));
    if (!other.isEmpty())
        m_table->item(row, Other)->setText(QString::fromUtf8(QJsonDocument(other).toJson(QJsonDocument::Compact)));
}

QJsonObject MatrixEditor::rowObject(int row) const
{
    QJsonObject o;
    for (int c = 0; c < ColumnCount; ++c) {
        const QString key = QString::fromLatin1(kColumns[c].key);
        if (c == Recipe) {
            if (auto* combo = qobject_cast<QComboBox*>(m_table->cellWidget(row, c)))
                o.insert(key, combo->currentText());
            continue;
        }
        const QTableWidgetItem* item = m_table->item(row, c);
        if (!item)
            continue;
        if (c == DpAttention) {
            if (item->checkState() == Qt::Checked)
                o.insert(key, true);
            continue;
        }
        const QString text = item->text().trimmed();
        if (text.isEmpty())
            continue;
        if (c == Other) {
            const QJsonDocument d = QJsonDocument::fromJson(text.toUtf8());
            // not an object: kept as text under a key the parser refuses, naming the column
            if (!d.isObject()) {
                o.insert(QStringLiteral("other fields"), text);
                continue;
            }
            const QJsonObject extra = d.object();
            for (auto it = extra.begin(); it != extra.end(); ++it)
                if (!o.contains(it.key()))
                    o.insert(it.key(), it.value());
        } else if (c == Concurrency) {
            o.insert(key, concurrencyValue(text));
        } else {
            o.insert(key, isIntegerColumn(c) ? integerOrText(text) : QJsonValue(text));
        }
    }
    return o;
}

QString MatrixEditor::matrixText() const
{
    QStringList out;
    out << QStringLiteral("{");
    if (!m_description.isEmpty())
        out << QStringLiteral("  \"description\": %1,").arg(jsonText(m_description));
    QStringList slurm;
    for (auto [key, edit] : { std::pair { "partition", m_partition }, { "account", m_account }, { "time", m_time } })
        if (!edit->text().trimmed().isEmpty())
            slurm << QStringLiteral("\"%1\": %2").arg(QLatin1String(key), jsonText(edit->text().trimmed()));
    if (!slurm.isEmpty())
        out << QStringLiteral("  \"slurm\": { %1 },").arg(slurm.join(QStringLiteral(", ")));
    out << QStringLiteral("  \"configurations\": [");
    for (int r = 0; r < m_table->rowCount(); ++r) {
        const QJsonObject o = rowObject(r);
        QStringList fields;
        // the table's order first (name, recipe, ...), then the other fields
        QStringList keys;
        for (const ColumnInfo& c : kColumns)
            if (*c.key)
                keys << QString::fromLatin1(c.key);
        for (const QString& k : o.keys())
            if (!keys.contains(k))
                keys << k;
        for (const QString& k : keys)
            if (o.contains(k))
                fields << QStringLiteral("%1: %2").arg(jsonText(k), jsonText(o.value(k)));
        out << QStringLiteral("    { %1 }%2")
                   .arg(fields.join(QStringLiteral(", ")),
                       r + 1 < m_table->rowCount() ? QStringLiteral(",") : QString());
    }
    out << QStringLiteral("  ]") << QStringLiteral("}");
    return out.join(u'\n') + u'\n';
}

Result<Matrix> MatrixEditor::check()
{
    auto m = parseMatrix(matrixText().toStdString(), "the matrix");
    if (!m) {
        m_message->setStyleSheet(noteStyle(NoteKind::Error));
        m_message->setText(QString::fromStdString(m.error()));
        return m;
    }
    int gpus = 0;
    for (const MatrixConfig& c : m->configurations)
        gpus += taskResources(c).gpusPerNode * taskResources(c).nodes;
    m_message->setStyleSheet(noteStyle(NoteKind::Ok));
    m_message->setText(tr("%1, one array task each; %2")
                           .arg(m->configurations.size() == 1 ? tr("1 configuration")
                                                              : tr("%1 configurations").arg(m->configurations.size()),
                               gpus == 1  ? tr("1 GPU asked for")
                                   : gpus ? tr("%1 GPUs asked for in all").arg(gpus)
                                          : tr("no GPU asked for (simulations)")));
    for (std::size_t i = 0; i < m->configurations.size(); ++i)
        if (auto why = unrunnableReason(m->configurations[i])) {
            m_message->setStyleSheet(noteStyle(NoteKind::Warning));
            m_message->setText(m_message->text() + u'\n'
                + tr("Task %1 (%2) will fail at once: %3")
                      .arg(i)
                      .arg(QString::fromStdString(m->configurations[i].name), QString::fromStdString(*why)));
        }
    return m;
}

Status MatrixEditor::load(const QString& text, const QString& name)
{
    QJsonParseError parseError;
    const QJsonDocument d = QJsonDocument::fromJson(text.toUtf8(), &parseError);
    if (!d.isObject())
        return Error { name.toStdString() + ": not a JSON object"
            + (parseError.error ? " (" + parseError.errorString().toStdString() + ")" : std::string()) };
    const QJsonObject o = d.object();
    const QJsonValue list = o.value(QStringLiteral("configurations"));
    if (!list.isArray())
        return Error { name.toStdString() + ", field configurations: missing or not an array" };
    for (const QJsonValue c : list.toArray())
        if (!c.isObject())
            return Error { name.toStdString() + ", field configurations: a configuration is not an object" };
    const QSignalBlocker block(m_table);
    m_table->setRowCount(0);
    for (const QJsonValue c : list.toArray()) {
        m_table->insertRow(m_table->rowCount());
        setRow(m_table->rowCount() - 1, c.toObject());
    }
    const QJsonObject slurm = o.value(QStringLiteral("slurm")).toObject();
    m_partition->setText(slurm.value(QStringLiteral("partition")).toString());
    m_account->setText(slurm.value(QStringLiteral("account")).toString());
    m_time->setText(slurm.value(QStringLiteral("time")).toString(QStringLiteral("04:00:00")));
    m_description = o.value(QStringLiteral("description")).toString();
    emit changed();
    return ok();
}

Status MatrixEditor::openFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Error { path.toStdString() + ": cannot read: " + f.errorString().toStdString() };
    return load(QString::fromUtf8(f.readAll()), path);
}

Status MatrixEditor::saveFile(const QString& path)
{
    auto m = check();
    if (!m)
        return Error { "not saved: " + m.error() };
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(matrixText().toUtf8()) < 0 || !f.commit())
        return Error { path.toStdString() + ": cannot write: " + f.errorString().toStdString() };
    return ok();
}

} // namespace paretoscope::ui
