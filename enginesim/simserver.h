#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>

#include <simdjson.h>

#include "simengine.h"
#include "truthlog.h"

namespace paretoscope::sim {

/// Faults the server injects, each a share of requests (0 to 1), drawn with a fixed seed so runs repeat.
struct Faults {
    double http500 = 0;
    double http429 = 0;
    double drop = 0; ///< connection closed mid-stream
    double stall = 0; ///< the stream stops sending but stays open
    double streamError = 0; ///< an error object sent mid-stream, then [DONE]
    bool textOnly = false; ///< refuse token-id prompts with 400, as some servers do
    int flood = 0; ///< 1: every stream is one endless data line; 2: endless token events that never finish
    unsigned seed = 1;
    int failFirst = 0; ///< the first N model lists and the first N completions are refused with failFirstStatus
    int failFirstStatus = 503;
    double prefixHits = 0; ///< share of each prompt /metrics reports as prefix-cache hits (0 to 1)
    int promptOffset = 0; ///< usage.prompt_tokens is the prompt's length plus this (a server counting otherwise)
};

struct ServerOptions {
    int port = 0; ///< 0: an ephemeral port
    std::string model = "sim-model";
    std::string label; ///< what /v1/models reports as the simulation (the profile or "fixed")
    int maxModelLen = 131072;
    std::string apiKey; ///< when set, every request needs "Authorization: Bearer KEY" (else 401)
    Faults faults;
};

/// An OpenAI-compatible streaming server on 127.0.0.1, one thread, epoll: /v1/completions, /v1/chat/completions,
/// /v1/models, /health, /metrics. Tokens come out when the engine says they are due (a timerfd wakes the loop).
class SimServer {
public:
    SimServer(ServerOptions options, std::unique_ptr<SimEngine> engine);
    ~SimServer();
    /// Binds and listens; returns the port, or -1 with errno set.
    int listen();
    /// Records every streamed request's real write times into a CSV file (TruthLog); false with errno set.
    bool openTruthLog(const std::string& path);
    /// Serves until stop() (from a signal handler: it only writes to an eventfd).
    void run();
    void stop();

private:
    struct Connection;
    struct Stream;
    void accept();
    /// reads what has arrived; false when the connection closed
    bool onReadable(Connection& c);
    void onWritable(Connection& c);
    void refill(Connection& c);
    bool handleRequests(Connection& c);
    void route(Connection& c, const std::string& method, const std::string& path, const std::string& body,
        const std::string& authorization);
    void startCompletion(Connection& c, const std::string& body, bool chat);
    void emitTokens(double now);
    void finishStream(Stream& s, Connection& c);
    /// the stream's line in the truth log, once, when it got a token out
    void logTruth(Stream& s, std::string_view outcome);
    /// false when the write failed and the connection (and its stream) is gone
    bool send(Connection& c, std::string data);
    bool sendChunk(Connection& c, const std::string& event);
    void respond(Connection& c, int status, const std::string& contentType, const std::string& body);
    void close(int fd);
    void armTimer();
    std::string metricsText() const;

    ServerOptions m_opt;
    std::unique_ptr<SimEngine> m_engine;
    int m_listen = -1, m_epoll = -1, m_timer = -1, m_wake = -1;
    std::unordered_map<int, std::unique_ptr<Connection>> m_conns;
    std::unordered_map<std::uint64_t, std::unique_ptr<Stream>> m_streams;
    std::uint64_t m_nextId = 1;
    std::mt19937_64 m_rng;
    int m_refusedModelLists = 0; // of Faults::failFirst
    long long m_prefixQueries = 0, m_prefixHits = 0; // prompt tokens looked up and "found" (Faults::prefixHits)
    int m_refusedCompletions = 0;
    double m_armedAt = -1;
    simdjson::dom::parser m_json;
    std::unique_ptr<TruthLog> m_truth;
};

} // namespace paretoscope::sim
