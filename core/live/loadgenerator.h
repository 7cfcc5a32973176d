#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/live/requestlog.h"
#include "core/live/workload.h"
#include "core/model/result.h"

namespace paretoscope {

/// An OpenAI-compatible server. The API key is used for the Authorization header and nowhere else: it is never
/// stored, exported or logged.
struct Endpoint {
    std::string baseUrl; ///< e.g. http://127.0.0.1:8000 (http or https only)
    std::string apiKey;
    bool chat = false; ///< /v1/chat/completions instead of /v1/completions
};

/// Checks that a URL is http(s) with a host; returns it without a trailing slash.
Result<std::string> normalizeEndpointUrl(const std::string& url);

/// One level of a sweep. Closed loop (InferenceX): `concurrency` users, each sending its next request when the last
/// one finished (after a think time where the workload has one). With a request rate, arrivals are Poisson and
/// `concurrency` caps what is in flight (0: no cap); requests over the cap wait in the client, and that wait is
/// reported.
struct LevelOptions {
    int concurrency = 1;
    std::optional<double> requestRate; ///< requests/s
    int prompts = 0; ///< measured requests; 0: 10 x concurrency
    int warmups = -1; ///< run first, not counted; -1: 2 x concurrency
    double requestTimeout = 600; ///< s for a whole request
    double stallTimeout = 60; ///< s without a byte before a stream counts as stalled (whole seconds)
    double connectTimeout = 10;
    std::size_t maxResponseBytes = 64u << 20; ///< a longer answer is cut off as a failure
    unsigned long long seed = 1;
    double testLag = 0; ///< tests only: seconds of busy work per request sent and per chunk received (a lagging client)
    double testPause = 0; ///< tests only: seconds each user idles before its next request
    /// Clients on their own threads, the users split between them (runLevelSharded): a thousand streams' receive
    /// path spread over the cores. 1: one thread, every user in it.
    int clientThreads = 1;
};

/// Where a level stands, reported a few times a second.
struct LevelProgress {
    int finished = 0; ///< measured requests finished (ok or failed)
    int total = 0; ///< measured requests in the level
    int warmupsLeft = 0;
    int inFlight = 0;
    int failed = 0;
    double elapsed = 0; ///< s since the level started
    long long outputTokens = 0; ///< of the measured requests so far
    std::optional<double> medianTtft; ///< s, of the measured requests so far
    std::optional<double> medianTpot; ///< s
};

struct LevelResult {
    std::vector<RequestLog> requests; ///< warm-ups included (flagged), in the order they finished
    bool cancelled = false;
    /// The load generator's thread CPU time over the measured requests' wall time (1: a whole core), empty when the
    /// level ended before its measured requests did.
    std::optional<double> clientCpuShare;
    /// The level's time zero on the steady clock, ns (CLOCK_MONOTONIC on Linux, comparable with a server's on the
    /// same machine): a request's absolute time is this plus its RequestLog seconds.
    long long clockOriginNs = 0;
};

/// Runs one level against the endpoint on libcurl's multi interface (one thread, many streams; with clientThreads,
/// that many such clients). The callback is called from this thread; returning false cancels (every open stream is
/// closed at once).
Result<LevelResult> runLevel(const Endpoint& endpoint, Workload& workload, const LevelOptions& options,
    const std::function<bool(const LevelProgress&)>& progress = {});

} // namespace paretoscope
