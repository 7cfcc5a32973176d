#pragma once

#include <string>
#include <vector>

namespace paretoscope {

/// The raw times of one request of a live session, in seconds from the start of its level. Every latency metric is
/// computed from these, so they are stored with the session and can be recomputed later.
struct RequestLog {
    double scheduled = 0; ///< when the load generator meant to send it
    double sent = 0; ///< when it was handed to the transport (sent - scheduled is time spent waiting in the client)
    double firstToken = -1; ///< arrival of the first chunk carrying output, -1 if none came
    double end = -1; ///< the last byte of the answer, or the failure
    std::vector<float> chunks; ///< arrival of every chunk carrying output, seconds after `sent`
    int inputTokens = 0; ///< prompt tokens sent (exact for token-id prompts, an estimate for text)
    int serverPromptTokens = -1; ///< usage.prompt_tokens as the server counted them, -1 if not reported
    int outputTokens = 0; ///< usage.completion_tokens, else the chunks counted
    int httpStatus = 0;
    bool warmup = false; ///< warm-up requests are kept but never counted
    std::string error; ///< empty when the request completed
    std::string responseId; ///< the "id" the server gave the answer (in its events), empty if none came
    bool ok() const { return error.empty(); }
    /// Whether the client cut the request off: past its timeout ("timed out after N s") or silent for the stall
    /// timeout ("stalled: no data for N s"), the words the load generator fails such a request with.
    bool cutByTimeout() const { return error.starts_with("timed out after") || error.starts_with("stalled:"); }
};

} // namespace paretoscope
