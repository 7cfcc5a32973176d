#pragma once
// Session configurations the live-session suites share.

#include <string>

#include "core/live/sessionconfig.h"

namespace paretoscope::testsupport {

/// A short sweep (levels 1 and 4, 64 tokens in, 8 out) labelled as a b300 with vLLM on 2 GPUs, against an endpoint.
inline SessionConfig quickConfig(const std::string& endpoint)
{
    SessionConfig c;
    c.endpoint = endpoint;
    c.hardware = "b300";
    c.engine = "vllm";
    c.gpus = 2;
    c.isl = 64;
    c.osl = 8;
    c.concurrencies = { 1, 4 };
    return c;
}

} // namespace paretoscope::testsupport
