#pragma once

#include <QComboBox>
#include <QLabel>
#include <QSlider>
#include <QTimer>
#include <QToolButton>
#include <QWidget>
#include <vector>

#include "core/model/scope.h"

namespace paretoscope::ui {

/// Which runs the frontiers are built from (docs/architecture.md section 10): the latest run of each configuration or
/// every run, as of a day the slider picks among the scope's run dates, and Play, which steps through them once a
/// second (the InferenceX "replay").
class RunDatesControl : public QWidget {
    Q_OBJECT
public:
    explicit RunDatesControl(QWidget* parent = nullptr);
    /// The scope's run dates (yyyymmdd, ascending). The day chosen stays where it still is one, else the latest.
    void setDays(const std::vector<int>& days);
    RunSelection runs() const;
    void setRuns(RunSelection runs);
    /// The as-of date (yyyy-mm-dd); empty when the latest day is chosen (later runs then count as they arrive).
    std::string asOf() const;
    /// Chooses a day (yyyy-mm-dd; empty: the latest); a day that is not a run date chooses the last one before it.
    void setAsOf(const std::string& asOf);
    bool playing() const { return m_timer.isActive(); }
    QSlider* slider() const { return m_slider; }
    QToolButton* playButton() const { return m_play; }
    const std::vector<int>& days() const { return m_days; }

signals:
    void runsChanged();
    void asOfChanged();

public slots:
    void play(bool on);
    /// One step of the replay: the next run date; the replay stops on the last.
    void step();

private:
    void showDay();
    void setAsOfQuietly(const std::string& asOf);
    QComboBox* m_runs;
    QSlider* m_slider;
    QLabel* m_day;
    QToolButton* m_play;
    QTimer m_timer;
    std::vector<int> m_days;
};

} // namespace paretoscope::ui
