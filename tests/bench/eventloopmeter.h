// The event-loop meter of bench_explorer: the longest gap between ticks of a 1 ms timer, what a gap was made of, and
// an application that times the GUI thread's deliveries and paints. Bench code, header only.
#pragma once

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <map>
#include <vector>

namespace paretoscope::bench {

// With PARETOSCOPE_BENCH_SLOW: the GUI thread's deliveries of 1 ms or more since the last tick of the gap meter (when
// each began on g_clock, how long it took, how deep it was), so that the longest gap can say what it was made of
struct Delivery {
    qint64 start;
    double ms, cpuMs;
    int depth;
    QByteArray what;
};
inline std::vector<Delivery> g_deliveries;
inline QElapsedTimer g_clock;

// The longest gap between ticks of a 1 ms timer since the last reset: how long the event loop stood at most.
class GapMeter {
public:
    GapMeter()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(1);
        QObject::connect(&m_timer, &QTimer::timeout, [this] { tick(); });
        reset();
        m_timer.start();
    }
    void reset()
    {
        m_last = g_clock.nsecsElapsed();
        m_longest = 0;
        m_longestMadeOf.clear();
    }
    double longestMs()
    {
        tick(); // a stand that has not ended by a tick yet counts too
        return double(m_longest) / 1e6;
    }
    /// The deliveries of 1 ms or more that began inside the longest gap (with PARETOSCOPE_BENCH_SLOW).
    const std::vector<Delivery>& longestMadeOf() const { return m_longestMadeOf; }

private:
    void tick()
    {
        const qint64 now = g_clock.nsecsElapsed();
        if (now - m_last > m_longest) {
            m_longest = now - m_last;
            m_longestMadeOf.clear();
            for (const Delivery& d : g_deliveries)
                if (d.start >= m_last)
                    m_longestMadeOf.push_back(d);
            std::sort(m_longestMadeOf.begin(), m_longestMadeOf.end(),
                [](const Delivery& a, const Delivery& b) { return a.start < b.start; });
        }
        g_deliveries.clear();
        m_last = now;
    }
    QTimer m_timer;
    qint64 m_last = 0;
    qint64 m_longest = 0;
    std::vector<Delivery> m_longestMadeOf;
};

// Turns the event loop until the signal comes (or 120 s pass), then 300 ms more for the paints it caused.
template <typename Sender, typename Signal> bool waitFor(Sender* sender, Signal signal)
{
    QEventLoop loop;
    bool came = false;
    auto c = QObject::connect(sender, signal, &loop, [&] {
        came = true;
        loop.quit();
    });
    QTimer::singleShot(120000, &loop, &QEventLoop::quit);
    loop.exec();
    QObject::disconnect(c);
    QEventLoop after;
    QTimer::singleShot(300, &after, &QEventLoop::quit);
    after.exec();
    return came;
}

// CPU time of the calling thread: what a step costs the GUI thread, whatever else the machine is doing
inline double threadCpuMs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

// PARETOSCOPE_BENCH_SLOW=MS: every event whose delivery took longer than MS on the GUI thread is printed with its
// receiver, type and CPU time, and under it the nested deliveries of 1 ms or more, to see what a gap is made of (a
// QGraphicsScene's MetaCall is usually the window's repaint: the scene sends the view's pending update at once)
class TimingApplication : public QApplication {
public:
    using QApplication::QApplication;
    bool notify(QObject* receiver, QEvent* event) override
    {
        if (m_paints && event->type() == QEvent::Paint) {
            QElapsedTimer t;
            t.start();
            const bool r = QApplication::notify(receiver, event);
            m_paintMs[nameOf(receiver)] += double(t.nsecsElapsed()) / 1e6;
            return r;
        }
        // the GUI thread's deliveries only: the store worker and the importers deliver theirs through here too
        if (m_slowMs <= 0 || QThread::currentThread() != thread())
            return QApplication::notify(receiver, event);
        if (m_depth > 0) {
            // inside a top-level delivery: what it is made of, each nested delivery over 1 ms by its depth
            ++m_nested;
            const std::size_t at = m_inside.size();
            m_inside.push_back({ m_depth, event->type(), nameOf(receiver), 0 });
            const int depth = m_depth++;
            const qint64 start = g_clock.nsecsElapsed();
            const double cpu0 = threadCpuMs();
            const bool r = QApplication::notify(receiver, event);
            --m_depth;
            m_inside[at].ms = double(g_clock.nsecsElapsed() - start) / 1e6;
            note(start, m_inside[at].ms, threadCpuMs() - cpu0, depth, m_inside[at].name, m_inside[at].type);
            return r;
        }
        m_inside.clear();
        m_nested = 0;
        ++m_depth;
        QElapsedTimer t;
        t.start();
        const int type = event->type();
        const QByteArray cls = receiver->metaObject()->className();
        const QString name = receiver->objectName();
        const QByteArray what = nameOf(receiver); // before: a deferred delete ends its receiver
        const double cpu0 = threadCpuMs();
        const qint64 start = g_clock.nsecsElapsed();
        const bool r = QApplication::notify(receiver, event);
        --m_depth;
        const double ms = double(t.nsecsElapsed()) / 1e6;
        note(start, ms, threadCpuMs() - cpu0, 0, what, type);
        if (ms > m_slowMs) {
            // the GUI thread's CPU time beside the wall time: on a busy machine the rest is waiting for a core
            std::printf("    [slow event] %.1f ms (%.1f ms CPU): %s '%s' event %d (%d events inside)\n", ms,
                threadCpuMs() - cpu0, cls.constData(), qPrintable(name), type, m_nested);
            for (const Inside& in : m_inside)
                if (in.ms >= 1)
                    std::printf(
                        "      %*s%.1f ms: %s event %d\n", 2 * in.depth, "", in.ms, in.name.constData(), in.type);
        }
        return r;
    }
    static void note(qint64 start, double ms, double cpuMs, int depth, const QByteArray& name, int type)
    {
        if (ms >= 1)
            g_deliveries.push_back({ start, ms, cpuMs, depth, name + " event " + QByteArray::number(type) });
    }
    // a receiver's class; a view's viewport (a plain QWidget) or a chart's item named by its parent too
    static QByteArray nameOf(QObject* receiver)
    {
        QByteArray name = receiver->metaObject()->className();
        if (receiver->parent())
            name += QByteArray("<") + receiver->parent()->metaObject()->className();
        return name;
    }
    double m_slowMs = qEnvironmentVariableIntValue("PARETOSCOPE_BENCH_SLOW");
    // PARETOSCOPE_BENCH_PAINTS=1: the time each widget class spent in its paint events (children's included), per
    // slider step that changed the target
    bool m_paints = qEnvironmentVariableIsSet("PARETOSCOPE_BENCH_PAINTS");
    std::map<QByteArray, double> m_paintMs;

private:
    struct Inside {
        int depth;
        int type;
        QByteArray name;
        double ms;
    };
    int m_depth = 0;
    int m_nested = 0;
    std::vector<Inside> m_inside; // the nested deliveries of the current top-level one, in order
};

inline void report(const char* what, double gapMs, double wallMs, bool ok, const std::vector<Delivery>& madeOf = {})
{
    std::printf("  %-44s longest event-loop gap %7.1f ms   (settled after %7.0f ms)%s\n", what, gapMs, wallMs,
        ok ? "" : "  [did not settle]");
    // what the longest gap was made of: its deliveries, nested ones indented, and the time no delivery accounts for
    int outermost = 1 << 30;
    for (const Delivery& d : madeOf)
        outermost = std::min(outermost, d.depth);
    double delivered = 0;
    for (const Delivery& d : madeOf) {
        std::printf(
            "      %*s%.1f ms (%.1f ms CPU): %s\n", 2 * (d.depth - outermost), "", d.ms, d.cpuMs, d.what.constData());
        if (d.depth == outermost)
            delivered += d.ms;
    }
    if (!madeOf.empty())
        std::printf("      (%.1f ms outside these deliveries)\n", gapMs - delivered);
}

} // namespace paretoscope::bench
