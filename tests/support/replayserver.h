#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace paretoscope::testsupport {

/// A replay of the InferenceX API on 127.0.0.1 (an ephemeral port), for testing sync without the network. It holds
/// benchmark rows and evaluation rows and answers the routes as docs/sync.md describes the site's: availability
/// (derived from the rows: one row per configuration and date), benchmarks/history?model=DISPLAY&isl&osl (every
/// row of that model and sequence), benchmarks?model=DISPLAY[&date] (per configuration the rows of its newest date on
/// or before it) and evaluations. An unknown model answers 400 {"error":"Unknown model"}. Faults can be queued per
/// route, and every request is logged.
class ReplayServer {
public:
    ReplayServer();
    ~ReplayServer();
    ReplayServer(const ReplayServer&) = delete;
    ReplayServer& operator=(const ReplayServer&) = delete;

    /// The API's root, "http://127.0.0.1:PORT/api/v1".
    std::string root() const;
    void setBenchmarks(nlohmann::json rows);
    void setEvaluations(nlohmann::json rows);
    /// Extra availability rows (a model the name table does not know, say) beside those derived from the rows.
    void addAvailability(nlohmann::json row);
    /// Replaces a route's answer with this body (status 200), for a malformed answer; path as in the log. An empty
    /// body gives the route its own answer again.
    void answerWith(const std::string& pathAndQuery, std::string body);

    /// One fault, used by the next request whose path and query start with `prefix`.
    struct Fault {
        int status = 0; ///< answer this status (with retryAfter seconds when >= 0)
        int retryAfter = -1;
        bool cut = false; ///< declare the whole body, send a part, close the connection
        bool stall = false; ///< send a part, then nothing for `stallSeconds`
        int stallSeconds = 5;
    };
    void failNext(const std::string& prefix, Fault fault);

    /// Every request so far, as "PATH?QUERY" (the query's parameters in the order given), and clears the log.
    std::vector<std::string> takeRequests();

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace paretoscope::testsupport
