#pragma once
// What simserver.cpp (sockets, HTTP) and simcompletions.cpp (the OpenAI routes, token streams) share.

#include <cstdint>
#include <ctime>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "simserver.h"

namespace paretoscope::sim {

inline double monotonicNow()
{
    timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// An OpenAI-style error body.
inline std::string errorBody(const std::string& message, const char* type, int code)
{
    return nlohmann::json { { "error", { { "message", message }, { "type", type }, { "code", code } } } }.dump();
}

enum class Fault { None, Drop, Stall, StreamError };

struct SimServer::Connection {
    int fd = -1;
    std::string in;
    std::string out;
    std::size_t outPos = 0;
    std::uint64_t streamId = 0;
    bool keepAlive = true;
    bool closeAfterWrite = false;
    bool watchingOut = false;
    double receivedAt = 0; ///< when the last bytes came in: a request's clock starts then, not after parsing it
    int flood = 0; ///< an endless answer is being written (Faults::flood)
    std::string floodEvent;
};

struct SimServer::Stream {
    std::uint64_t id = 0;
    int fd = -1;
    bool chat = false;
    bool streaming = true;
    bool includeUsage = false;
    int promptTokens = 0;
    int maxTokens = 16;
    int emitted = 0;
    Fault fault = Fault::None;
    int faultAt = 0;
    bool stalled = false;
    std::string head; ///< the JSON text before the choices, shared by every chunk
    // for the truth log: CLOCK_MONOTONIC ns
    std::int64_t receivedNs = 0;
    std::int64_t firstNs = 0;
    std::int64_t lastNs = 0;
    bool queued = false;
    bool logged = false;
};

} // namespace paretoscope::sim
