#include "widgets/filters/rundatescontrol.h"

#include <QGridLayout>
#include <algorithm>

#include "core/model/runselection.h"

namespace paretoscope::ui {

RunDatesControl::RunDatesControl(QWidget* parent)
    : QWidget(parent)
    , m_runs(new QComboBox(this))
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_day(new QLabel(this))
    , m_play(new QToolButton(this))
{
    m_runs->addItem(tr("Latest per curve"), int(RunSelection::Latest));
    m_runs->addItem(tr("Latest per config"), int(RunSelection::LatestPerConfiguration));
    m_runs->addItem(tr("All runs"), int(RunSelection::All));
    m_runs->setToolTip(
        tr("Latest per curve: each curve's (hardware, engine, precision, spec decoding, "
           "disaggregation) most recent run dated on or before the as-of day, every point it measured "
           "(as the InferenceX site shows it since August 2026). Latest per config: each configuration's "
           "(parallelism's) most recent run (the site's earlier rule: denser). All: every run up to "
           "that day, reruns included."));
    m_slider->setRange(0, 0);
    m_slider->setPageStep(1);
    m_slider->setToolTip(tr("As of which run date the frontiers are built"));
    m_play->setCheckable(true);
    m_play->setText(tr("Play"));
    m_play->setToolTip(tr("Step through the run dates, one a second"));
    m_timer.setInterval(1000);
    // one column, as narrow as the filters beside it: the choice, then the day with the slider and Play under it
    m_runs->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_runs->setMinimumContentsLength(10);
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 4, 0, 0);
    grid->addWidget(new QLabel(tr("Runs"), this), 0, 0, 1, 2);
    grid->addWidget(m_runs, 1, 0, 1, 2);
    grid->addWidget(m_day, 2, 0, 1, 2);
    grid->addWidget(m_slider, 3, 0);
    grid->addWidget(m_play, 3, 1);
    grid->setColumnStretch(0, 1);
    connect(m_runs, &QComboBox::currentIndexChanged, this, &RunDatesControl::runsChanged);
    connect(m_slider, &QSlider::valueChanged, this, [this] {
        showDay();
        emit asOfChanged();
    });
    connect(m_play, &QToolButton::toggled, this, &RunDatesControl::play);
    connect(&m_timer, &QTimer::timeout, this, &RunDatesControl::step);
    showDay();
}

void RunDatesControl::setDays(const std::vector<int>& days)
{
    const std::string keep = asOf();
    m_days = days;
    {
        const QSignalBlocker block(m_slider);
        m_slider->setRange(0, std::max(0, int(m_days.size()) - 1));
        m_slider->setValue(m_slider->maximum());
    }
    setAsOfQuietly(keep);
    m_slider->setEnabled(m_days.size() > 1);
    m_play->setEnabled(m_days.size() > 1);
    showDay();
}

RunSelection RunDatesControl::runs() const
{
    return static_cast<RunSelection>(m_runs->currentData().toInt());
}

void RunDatesControl::setRuns(RunSelection runs)
{
    m_runs->setCurrentIndex(m_runs->findData(int(runs)));
}

std::string RunDatesControl::asOf() const
{
    const int i = m_slider->value();
    if (m_days.empty() || i >= int(m_days.size()) - 1)
        return {};
    return dayText(m_days[std::size_t(i)]);
}

void RunDatesControl::setAsOfQuietly(const std::string& asOf)
{
    const QSignalBlocker block(m_slider);
    if (asOf.empty() || m_days.empty()) {
        m_slider->setValue(m_slider->maximum());
        return;
    }
    const int day = dayNumber(asOf);
    // the last run date on or before the day asked for (before the first: the first)
    const auto it = std::upper_bound(m_days.begin(), m_days.end(), day);
    m_slider->setValue(std::max(0, int(it - m_days.begin()) - 1));
}

void RunDatesControl::setAsOf(const std::string& asOf)
{
    const int before = m_slider->value();
    setAsOfQuietly(asOf);
    showDay();
    if (m_slider->value() != before)
        emit asOfChanged();
}

void RunDatesControl::play(bool on)
{
    {
        const QSignalBlocker block(m_play);
        m_play->setChecked(on);
    }
    m_play->setText(on ? tr("Pause") : tr("Play"));
    if (!on) {
        m_timer.stop();
        return;
    }
    // from the first run date when at the last, else from where the slider stands
    if (m_slider->value() >= m_slider->maximum())
        m_slider->setValue(0);
    m_timer.start();
}

void RunDatesControl::step()
{
    if (m_slider->value() >= m_slider->maximum()) {
        play(false);
        return;
    }
    m_slider->setValue(m_slider->value() + 1);
    if (m_slider->value() >= m_slider->maximum())
        play(false);
}

void RunDatesControl::showDay()
{
    if (m_days.empty()) {
        m_day->setText(tr("As of: no dated runs"));
        return;
    }
    const int i = std::clamp(m_slider->value(), 0, int(m_days.size()) - 1);
    const QString day = QString::fromStdString(dayText(m_days[std::size_t(i)]));
    m_day->setText(i == int(m_days.size()) - 1 ? tr("As of %1 (latest)").arg(day) : tr("As of %1").arg(day));
}

} // namespace paretoscope::ui
