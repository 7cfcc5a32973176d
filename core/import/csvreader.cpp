#include "core/import/csvreader.h"

namespace paretoscope {

CsvReader::CsvReader(ByteSource& source, std::size_t maxRowBytes)
    : m_source(source)
    , m_maxRow(maxRowBytes)
{
}

Result<bool> CsvReader::fill()
{
    if (m_eof)
        return false;
    m_buf.erase(0, m_pos);
    m_pos = 0;
    std::size_t old = m_buf.size();
    m_buf.resize(old + (1u << 20));
    auto got = m_source.read(m_buf.data() + old, 1u << 20);
    if (!got)
        return Error { got.error() };
    m_buf.resize(old + *got);
    if (*got == 0)
        m_eof = true;
    return *got > 0;
}

Result<bool> CsvReader::next(std::vector<std::string>& cells, std::uint64_t& line)
{
    cells.clear();
    for (;;) {
        // parse one row from m_pos; if the buffer runs out mid-row, refill and restart the row
        std::size_t i = m_pos;
        std::uint64_t lines = 0;
        bool complete = false;
        std::vector<std::string> row;
        std::string cell;
        bool quoted = false, cellStarted = false;
        while (i < m_buf.size()) {
            char c = m_buf[i];
            if (quoted) {
                if (c == '"') {
                    if (i + 1 >= m_buf.size() && !m_eof)
                        break; // need to see the next byte
                    if (i + 1 < m_buf.size() && m_buf[i + 1] == '"') {
                        cell += '"';
                        i += 2;
                        continue;
                    }
                    quoted = false;
                    ++i;
                    continue;
                }
                if (c == '\n')
                    ++lines;
                cell += c;
                ++i;
                continue;
            }
            if (c == '"' && !cellStarted) {
                quoted = true;
                cellStarted = true;
                ++i;
                continue;
            }
            if (c == ',') {
                row.push_back(std::move(cell));
                cell.clear();
                cellStarted = false;
                ++i;
                continue;
            }
            if (c == '\r' && i + 1 < m_buf.size() && m_buf[i + 1] == '\n') {
                ++i;
                continue;
            }
            if (c == '\n') {
                ++lines;
                ++i;
                complete = true;
                break;
            }
            cell += c;
            cellStarted = true;
            ++i;
        }
        if (!complete && m_eof && !quoted && i >= m_buf.size() && (cellStarted || !row.empty() || !cell.empty()))
            complete = true; // last row without a final newline
        if (complete) {
            row.push_back(std::move(cell));
            m_consumed += i - m_pos;
            m_pos = i;
            line = m_line;
            m_line += lines;
            cells = std::move(row);
            if (cells.size() == 1 && cells[0].empty())
                continue; // blank line
            return true;
        }
        if (m_eof) {
            if (quoted)
                return Error { m_source.name() + ": line " + std::to_string(m_line)
                    + ": truncated: a quoted cell is never closed" };
            return false;
        }
        if (m_buf.size() - m_pos > m_maxRow)
            return Error { m_source.name() + ": line " + std::to_string(m_line) + ": row larger than "
                + std::to_string(m_maxRow >> 20) + " MB; refusing it" };
        auto more = fill();
        if (!more)
            return Error { more.error() };
    }
}

} // namespace paretoscope
