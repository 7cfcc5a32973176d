#include "core/live/workload.h"
#include "core/model/outsidejson.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <nlohmann/json.hpp>

namespace paretoscope {

namespace {

// Ids well inside every common vocabulary and clear of the special tokens at its ends.
std::vector<int> randomIds(int count, std::mt19937_64& rng)
{
    std::uniform_int_distribution<int> id(1000, 30999);
    std::vector<int> ids(static_cast<std::size_t>(std::max(0, count)));
    for (int& v : ids)
        v = id(rng);
    return ids;
}

// One word per id, so that a server counting words (or a tokenizer, roughly) sees about the same length.
std::string textOf(const std::vector<int>& ids)
{
    static const char* words[] = { "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
        "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango" };
    std::string text;
    text.reserve(ids.size() * 7);
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (i)
            text += ' ';
        text += words[static_cast<std::size_t>(ids[i]) % std::size(words)];
    }
    return text;
}

std::string shortCount(int n)
{
    if (n >= 1024 && n % 1024 == 0)
        return std::to_string(n / 1024) + "k";
    return std::to_string(n);
}

} // namespace

std::string completionBody(const RequestShape& shape, const std::vector<int>& promptIds, int outputTokens)
{
    // Written by hand: in a closed loop a whole batch of users comes free at once, and the next bodies (thousands of
    // ids each) are built while they wait; nlohmann's dump took 50 us for a 1k prompt, to_chars a tenth of that.
    std::string body;
    body.reserve(promptIds.size() * 7 + 256);
    body += "{\"model\":";
    body += jsonText(shape.model);
    std::string n = std::to_string(outputTokens);
    body += ",\"max_tokens\":" + n + ",\"min_tokens\":" + n
        + ",\"ignore_eos\":true,\"stream\":true,\"stream_options\":{\"include_usage\":true},";
    if (shape.chat) {
        body += "\"messages\":[{\"role\":\"user\",\"content\":" + jsonText(textOf(promptIds)) + "}]}";
    } else if (shape.prompt == PromptKind::TokenIds) {
        body += "\"prompt\":[";
        char buf[16];
        for (std::size_t i = 0; i < promptIds.size(); ++i) {
            if (i)
                body += ',';
            auto [end, ec] = std::to_chars(buf, buf + sizeof buf, promptIds[i]);
            body.append(buf, end);
        }
        body += "]}";
    } else {
        body += "\"prompt\":" + jsonText(textOf(promptIds)) + "}";
    }
    return body;
}

RandomWorkload::RandomWorkload(RequestShape shape, int isl, int osl, double rangeRatio)
    : m_shape(std::move(shape))
    , m_isl(isl)
    , m_osl(osl)
    , m_ratio(rangeRatio)
{
}

std::string RandomWorkload::name() const
{
    return "random " + shortCount(m_isl) + "/" + shortCount(m_osl);
}

PlannedRequest RandomWorkload::next(int, std::mt19937_64& rng)
{
    int low = std::max(1, static_cast<int>(std::ceil(m_ratio * m_isl)));
    std::uniform_int_distribution<int> length(std::min(low, m_isl), std::max(1, m_isl));
    int n = length(rng);
    return { completionBody(m_shape, randomIds(n, rng), m_osl), n, m_osl };
}

AgenticWorkload::AgenticWorkload(RequestShape shape, AgenticOptions options)
    : m_shape(std::move(shape))
    , m_opt(options)
{
    std::mt19937_64 fixed(20261129); // the same prefix in every session, so prefix caches can hit across runs
    m_prefix = randomIds(m_opt.prefixTokens, fixed);
}

std::string AgenticWorkload::name() const
{
    return "agentic " + std::to_string(m_opt.turns) + " turns, prefix " + shortCount(m_opt.prefixTokens) + ", +"
        + shortCount(m_opt.turnTokens) + "/" + shortCount(m_opt.outputTokens) + " per turn";
}

void AgenticWorkload::reset(int slots)
{
    m_users.assign(static_cast<std::size_t>(std::max(0, slots)), {});
}

PlannedRequest AgenticWorkload::next(int slot, std::mt19937_64& rng)
{
    if (slot >= static_cast<int>(m_users.size()))
        m_users.resize(static_cast<std::size_t>(slot) + 1);
    User& u = m_users[static_cast<std::size_t>(slot)];
    std::uniform_int_distribution<int> length(std::max(1, m_opt.turnTokens * 4 / 5), std::max(1, m_opt.turnTokens));
    int fresh = length(rng);
    if (u.turn >= m_opt.turns
        || u.context.size() + static_cast<std::size_t>(fresh + m_opt.outputTokens)
            > static_cast<std::size_t>(m_opt.contextCap)) {
        u = {};
    }
    if (u.context.empty())
        u.context = m_prefix;
    std::vector<int> turn = randomIds(fresh, rng);
    u.context.insert(u.context.end(), turn.begin(), turn.end());
    ++u.turn;
    return { completionBody(m_shape, u.context, m_opt.outputTokens), static_cast<int>(u.context.size()),
        m_opt.outputTokens };
}

double AgenticWorkload::thinkTime(int slot, const RequestLog& finished, std::mt19937_64& rng)
{
    if (slot < static_cast<int>(m_users.size())) {
        // the answer becomes part of the conversation; its ids stand for the text the model wrote
        User& u = m_users[static_cast<std::size_t>(slot)];
        std::vector<int> answer = randomIds(finished.ok() ? finished.outputTokens : 0, rng);
        u.context.insert(u.context.end(), answer.begin(), answer.end());
        if (!finished.ok())
            u = {}; // a failed turn ends the conversation
    }
    if (m_opt.meanThinkSeconds <= 0)
        return 0;
    std::exponential_distribution<double> think(1.0 / m_opt.meanThinkSeconds);
    return think(rng);
}

} // namespace paretoscope
