#include "jsonanswer.h"

#include <algorithm>
#include <cstdint>

#include <brotli/encode.h>
#include <httplib.h>

namespace paretoscope::testsupport {

namespace {

bool acceptsBrotli(const httplib::Request& req)
{
    const std::string accepted = req.get_header_value("Accept-Encoding");
    std::size_t from = 0;
    while (from <= accepted.size()) {
        std::size_t comma = accepted.find(',', from);
        if (comma == std::string::npos)
            comma = accepted.size();
        std::string token = accepted.substr(from, comma - from);
        token.erase(0, token.find_first_not_of(' '));
        token.erase(std::min(token.find_first_of(" ;"), token.size()));
        if (token == "br")
            return true;
        from = comma + 1;
    }
    return false;
}

} // namespace

void setJsonAnswer(const httplib::Request& req, httplib::Response& res, const std::string& body)
{
    // cpp-httplib compresses "application/json" by itself and nothing with a parameter after it: the content type
    // the site sends (with its charset) keeps our compressed body as it is
    const char* contentType = "application/json; charset=utf-8";
    if (!acceptsBrotli(req)) {
        res.set_content(body, contentType);
        return;
    }
    std::string compressed(BrotliEncoderMaxCompressedSize(body.size()), '\0');
    std::size_t size = compressed.size();
    if (compressed.empty()
        || !BrotliEncoderCompress(1, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT, body.size(),
            reinterpret_cast<const std::uint8_t*>(body.data()), &size,
            reinterpret_cast<std::uint8_t*>(compressed.data()))) {
        res.set_content(body, contentType);
        return;
    }
    compressed.resize(size);
    res.set_header("Content-Encoding", "br");
    res.set_content(compressed, contentType);
}

} // namespace paretoscope::testsupport
