#include "replayserver.h"

#include <httplib.h>

#include "jsonanswer.h"

#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "core/model/modelnames.h"

namespace paretoscope::testsupport {

using nlohmann::json;

struct ReplayServer::Impl {
    httplib::Server server;
    int port = 0;
    std::thread thread;
    std::mutex mutex;
    json benchmarks = json::array();
    json evaluations = json::array();
    json extraAvailability = json::array();
    std::map<std::string, std::string> fixed;
    std::vector<std::pair<std::string, Fault>> faults;
    std::vector<std::string> log;

    // A row's line: every field but the measurement, its concurrency and its date (the latest view keeps per line
    // the rows of its newest date).
    static std::string configOf(const json& row)
    {
        json c = row;
        for (const char* f : { "metrics", "date", "run_url", "image", "timestamp", "id", "conc" })
            c.erase(f);
        return c.dump();
    }

    json availability() const
    {
        std::set<std::string> seen;
        json out = json::array();
        for (const json& r : benchmarks) {
            json a { { "model", r["model"] }, { "isl", r["isl"] }, { "osl", r["osl"] }, { "precision", r["precision"] },
                { "hardware", r["hardware"] }, { "framework", r["framework"] }, { "spec_method", r["spec_method"] },
                { "disagg", r["disagg"] }, { "date", r["date"] } };
            if (seen.insert(a.dump()).second)
                out.push_back(std::move(a));
        }
        for (const json& a : extraAvailability)
            out.push_back(a);
        return out;
    }

    bool knownModel(const std::string& display) const
    {
        for (const json& r : benchmarks)
            if (modelDisplayName(r["model"].get<std::string>()) == display)
                return true;
        for (const json& a : extraAvailability)
            if (modelDisplayName(a["model"].get<std::string>()) == display)
                return true;
        return false;
    }

    json history(const std::string& display, int isl, int osl) const
    {
        json out = json::array();
        for (const json& r : benchmarks)
            if (modelDisplayName(r["model"].get<std::string>()) == display && r["isl"] == isl && r["osl"] == osl)
                out.push_back(r);
        return out;
    }

    json latest(const std::string& display, const std::string& date) const
    {
        std::map<std::string, std::string> newest;
        for (const json& r : benchmarks) {
            const std::string d = r["date"].get<std::string>();
            if (modelDisplayName(r["model"].get<std::string>()) != display || (!date.empty() && d > date))
                continue;
            std::string& n = newest[configOf(r)];
            n = std::max(n, d);
        }
        json out = json::array();
        for (const json& r : benchmarks) {
            auto it = newest.find(configOf(r));
            if (modelDisplayName(r["model"].get<std::string>()) == display && it != newest.end()
                && it->second == r["date"].get<std::string>())
                out.push_back(r);
        }
        return out;
    }
};

namespace {

std::string pathAndQuery(const httplib::Request& req)
{
    return req.target.empty() ? req.path : req.target;
}

void answer(
    const httplib::Request& req, httplib::Response& res, const std::string& body, const ReplayServer::Fault* fault)
{
    if (!fault) {
        setJsonAnswer(req, res, body);
        return;
    }
    if (fault->status > 0) {
        res.status = fault->status;
        if (fault->retryAfter >= 0)
            res.set_header("Retry-After", std::to_string(fault->retryAfter));
        res.set_content("{\"error\":\"fault\"}", "application/json");
        return;
    }
    const auto shared = std::make_shared<std::string>(body);
    const bool cut = fault->cut;
    const int stall = fault->stallSeconds;
    res.set_content_provider(shared->size(), "application/json",
        [shared, cut, stall](std::size_t offset, std::size_t, httplib::DataSink& sink) {
            const std::size_t half = shared->size() / 2;
            if (offset < half)
                return sink.write(shared->data() + offset, half - offset);
            if (cut)
                return false; // the connection closes with the body half sent
            std::this_thread::sleep_for(std::chrono::seconds(stall));
            return false;
        });
}

} // namespace

ReplayServer::ReplayServer()
    : m_impl(std::make_unique<Impl>())
{
    Impl& m = *m_impl;
    m.server.Get(R"(/api/v1/.*)", [this](const httplib::Request& req, httplib::Response& res) {
        Impl& s = *m_impl;
        std::string body;
        std::optional<Fault> fault;
        {
            std::lock_guard lock(s.mutex);
            const std::string target = pathAndQuery(req);
            s.log.push_back(target);
            for (auto it = s.faults.begin(); it != s.faults.end(); ++it)
                if (target.starts_with(it->first)) {
                    fault = it->second;
                    s.faults.erase(it);
                    break;
                }
            if (auto f = s.fixed.find(target); f != s.fixed.end()) {
                body = f->second;
            } else if (req.path == "/api/v1/availability") {
                body = s.availability().dump();
            } else if (req.path == "/api/v1/evaluations") {
                body = s.evaluations.dump();
            } else if (req.path == "/api/v1/benchmarks/history" || req.path == "/api/v1/benchmarks") {
                const std::string model = req.get_param_value("model");
                if (!s.knownModel(model)) {
                    res.status = 400;
                    res.set_content("{\"error\":\"Unknown model\"}", "application/json");
                    return;
                }
                if (req.path == "/api/v1/benchmarks") {
                    body = s.latest(model, req.get_param_value("date")).dump();
                } else if (req.has_param("benchmarkType")) {
                    body = "[]";
                } else if (!req.has_param("isl") || !req.has_param("osl")) {
                    res.status = 400;
                    res.set_content("{\"error\":\"model, isl, and osl are required\"}", "application/json");
                    return;
                } else {
                    body
                        = s.history(model, std::stoi(req.get_param_value("isl")), std::stoi(req.get_param_value("osl")))
                              .dump();
                }
            } else {
                res.status = 404;
                return;
            }
        }
        answer(req, res, body, fault ? &*fault : nullptr);
    });
    m.port = m.server.bind_to_any_port("127.0.0.1");
    m.thread = std::thread([this] { m_impl->server.listen_after_bind(); });
}

ReplayServer::~ReplayServer()
{
    m_impl->server.stop();
    if (m_impl->thread.joinable())
        m_impl->thread.join();
}

std::string ReplayServer::root() const
{
    return "http://127.0.0.1:" + std::to_string(m_impl->port) + "/api/v1";
}

void ReplayServer::setBenchmarks(json rows)
{
    std::lock_guard lock(m_impl->mutex);
    m_impl->benchmarks = std::move(rows);
}

void ReplayServer::setEvaluations(json rows)
{
    std::lock_guard lock(m_impl->mutex);
    m_impl->evaluations = std::move(rows);
}

void ReplayServer::addAvailability(json row)
{
    std::lock_guard lock(m_impl->mutex);
    m_impl->extraAvailability.push_back(std::move(row));
}

void ReplayServer::answerWith(const std::string& pathAndQuery, std::string body)
{
    std::lock_guard lock(m_impl->mutex);
    if (body.empty())
        m_impl->fixed.erase(pathAndQuery);
    else
        m_impl->fixed[pathAndQuery] = std::move(body);
}

void ReplayServer::failNext(const std::string& prefix, Fault fault)
{
    std::lock_guard lock(m_impl->mutex);
    m_impl->faults.emplace_back(prefix, fault);
}

std::vector<std::string> ReplayServer::takeRequests()
{
    std::lock_guard lock(m_impl->mutex);
    return std::exchange(m_impl->log, {});
}

} // namespace paretoscope::testsupport
