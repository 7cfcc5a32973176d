#pragma once

#include <string>

namespace httplib {
struct Request;
struct Response;
} // namespace httplib

namespace paretoscope::testsupport {

/// Sets `body` as the answer's JSON content, as the InferenceX API sends it: brotli-compressed (Content-Encoding
/// br) where the request accepts br, as the importer's client (libcurl, every encoding it decodes) does. cpp-httplib
/// would compress it too, but at brotli's slowest quality (11): 92% of the sync suites' time went there. Quality 1
/// gives the client the same format to decode.
void setJsonAnswer(const httplib::Request& req, httplib::Response& res, const std::string& body);

} // namespace paretoscope::testsupport
