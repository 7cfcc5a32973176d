#include "simengine.h"

#include <algorithm>

namespace paretoscope::sim {

FixedEngine::FixedEngine(double ttft, double itl)
    : m_ttft(ttft)
    , m_itl(itl)
{
}

void FixedEngine::add(const SimRequest& request, double now)
{
    if (request.maxTokens <= 0)
        return;
    m_heap.push({ now + m_ttft, request.id, request.maxTokens - 1 });
    ++m_counters.running;
    m_counters.promptTokensTotal += request.promptTokens;
}

void FixedEngine::cancel(std::uint64_t id)
{
    m_cancelled.insert(id);
}

double FixedEngine::nextEventTime() const
{
    return m_heap.empty() ? never : m_heap.top().at;
}

void FixedEngine::advance(double now, std::vector<std::uint64_t>& produced)
{
    while (!m_heap.empty() && m_heap.top().at <= now) {
        Due d = m_heap.top();
        m_heap.pop();
        if (m_cancelled.erase(d.id)) {
            --m_counters.running;
            continue;
        }
        produced.push_back(d.id);
        ++m_counters.generationTokensTotal;
        if (d.left > 0)
            m_heap.push({ d.at + m_itl, d.id, d.left - 1 });
        else
            --m_counters.running;
    }
}

SimCounters FixedEngine::counters() const
{
    return m_counters;
}

Profile profileNamed(const std::string& name)
{
    // Shaped so that a concurrency sweep from 1 to 1024 traces a frontier of the published kind: a lone stream at a
    // few hundred tok/s/user, throughput rising with the batch until attention over the contexts dominates.
    if (name == "b300-sim")
        return { name, 0.004, 12e-6, 9e-9, 6e-6, 1024, 4'000'000, 8192 };
    // b300-sim's step costs with a batch of 8: past 8 streams requests only queue (throughput flat, TTFT growing)
    if (name == "saturating-sim")
        return { name, 0.004, 12e-6, 9e-9, 6e-6, 8, 4'000'000, 8192 };
    if (name == "mi325x-sim")
        return { name, 0.009, 45e-6, 35e-9, 20e-6, 512, 3'000'000, 8192 };
    return {};
}

BatchEngine::BatchEngine(Profile profile)
    : m_p(std::move(profile))
{
}

void BatchEngine::add(const SimRequest& request, double now)
{
    if (request.maxTokens <= 0)
        return;
    m_waiting.push_back(request);
    m_counters.promptTokensTotal += request.promptTokens;
    if (m_stepEnd == never)
        startStep(now);
}

void BatchEngine::cancel(std::uint64_t id)
{
    auto w = std::find_if(m_waiting.begin(), m_waiting.end(), [&](const SimRequest& r) { return r.id == id; });
    if (w != m_waiting.end()) {
        m_waiting.erase(w);
        return;
    }
    m_cancelled.insert(id);
}

double BatchEngine::nextEventTime() const
{
    return m_stepEnd;
}

void BatchEngine::startStep(double at)
{
    while (!m_waiting.empty() && static_cast<int>(m_running.size()) < m_p.maxSeqs) {
        const SimRequest& r = m_waiting.front();
        long long need = r.promptTokens + r.maxTokens;
        if (m_kvUsed + need > m_p.kvTokens && !m_running.empty())
            break;
        m_kvUsed += need;
        m_running.push_back({ r.id, 0, r.maxTokens, need, r.promptTokens, 0 });
        m_waiting.pop_front();
    }
    if (m_running.empty()) {
        m_stepEnd = never;
        return;
    }
    long long budget = m_p.prefillBudget, prefill = 0, contexts = 0, decoding = 0;
    for (Active& a : m_running) {
        a.prefillThisStep = 0;
        if (a.prefillLeft > 0) {
            a.prefillThisStep = std::min(a.prefillLeft, budget);
            budget -= a.prefillThisStep;
            prefill += a.prefillThisStep;
        } else {
            contexts += a.context;
            ++decoding;
        }
    }
    double dt = m_p.base + m_p.perSeq * static_cast<double>(decoding)
        + m_p.perContextToken * static_cast<double>(contexts) + m_p.prefillPerToken * static_cast<double>(prefill);
    m_stepEnd = at + dt;
}

void BatchEngine::advance(double now, std::vector<std::uint64_t>& produced)
{
    while (m_stepEnd <= now) {
        double at = m_stepEnd;
        std::vector<Active> still;
        still.reserve(m_running.size());
        for (Active& a : m_running) {
            if (m_cancelled.erase(a.id)) {
                m_kvUsed -= a.reserved;
                continue;
            }
            if (a.prefillLeft > 0) {
                a.prefillLeft -= a.prefillThisStep;
                a.context += a.prefillThisStep;
                if (a.prefillLeft > 0 || a.prefillThisStep == 0) {
                    still.push_back(a); // still prefilling (or waited for budget): no token yet
                    continue;
                }
            }
            produced.push_back(a.id);
            ++m_counters.generationTokensTotal;
            ++a.context;
            if (--a.left > 0)
                still.push_back(a);
            else
                m_kvUsed -= a.reserved;
        }
        m_running.swap(still);
        startStep(at);
    }
}

SimCounters BatchEngine::counters() const
{
    SimCounters c = m_counters;
    c.running = static_cast<long long>(m_running.size());
    c.waiting = static_cast<long long>(m_waiting.size());
    c.kvUsage = m_p.kvTokens > 0 ? static_cast<double>(m_kvUsed) / static_cast<double>(m_p.kvTokens) : 0;
    return c;
}

} // namespace paretoscope::sim
