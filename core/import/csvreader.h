#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/import/bytesource.h"
#include "core/model/result.h"

namespace paretoscope {

/// RFC 4180 CSV read from a stream in pieces: quoted cells may hold commas, quotes ("") and line breaks.
class CsvReader {
public:
    explicit CsvReader(ByteSource& source, std::size_t maxRowBytes = 16u << 20);
    /// Reads the next row; false at the end. `line` is where the row starts (1-based).
    Result<bool> next(std::vector<std::string>& cells, std::uint64_t& line);
    std::uint64_t consumed() const { return m_consumed; }

private:
    Result<bool> fill();
    ByteSource& m_source;
    std::size_t m_maxRow;
    std::string m_buf;
    std::size_t m_pos = 0;
    bool m_eof = false;
    std::uint64_t m_line = 1;
    std::uint64_t m_consumed = 0;
};

} // namespace paretoscope
