#include "core/import/csvreader.h"

namespace paretoscope {

namespace {

// One row scanned from a buffer: its cells, where it ends and how many line breaks it holds.
struct RowScan {
    std::vector<std::string> cells;
    std::size_t end = 0;
    std::uint64_t lines = 0;
    bool complete = false; ///< a whole row; false when the buffer ran out first
    bool quoted = false; ///< the scan stopped inside a quoted cell
};

RowScan scanRow(const std::string& buf, std::size_t pos, bool eof)
{
    RowScan scan;
    std::size_t i = pos;
    std::string cell;
    bool cellStarted = false;
    while (i < buf.size()) {
        char c = buf[i];
        if (scan.quoted) {
            if (c == '"') {
                if (i + 1 >= buf.size() && !eof)
                    break; // need to see the next byte
                if (i + 1 < buf.size() && buf[i + 1] == '"') {
                    cell += '"';
                    i += 2;
                    continue;
                }
                scan.quoted = false;
                ++i;
                continue;
            }
            if (c == '\n')
                ++scan.lines;
            cell += c;
            ++i;
            continue;
        }
        if (c == '"' && !cellStarted) {
            scan.quoted = true;
            cellStarted = true;
            ++i;
            continue;
        }
        if (c == ',') {
            scan.cells.push_back(std::move(cell));
            cell.clear();
            cellStarted = false;
            ++i;
            continue;
        }
        if (c == '\r' && i + 1 < buf.size() && buf[i + 1] == '\n') {
            ++i;
            continue;
        }
        if (c == '\n') {
            ++scan.lines;
            ++i;
            scan.complete = true;
            break;
        }
        cell += c;
        cellStarted = true;
        ++i;
    }
    if (!scan.complete && eof && !scan.quoted && i >= buf.size()
        && (cellStarted || !scan.cells.empty() || !cell.empty()))
        scan.complete = true; // last row without a final newline
    if (scan.complete)
        scan.cells.push_back(std::move(cell));
    scan.end = i;
    return scan;
}

} // namespace

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
        RowScan scan = scanRow(m_buf, m_pos, m_eof);
        if (scan.complete) {
            m_consumed += scan.end - m_pos;
            m_pos = scan.end;
            line = m_line;
            m_line += scan.lines;
            cells = std::move(scan.cells);
            if (cells.size() == 1 && cells[0].empty())
                continue; // blank line
            return true;
        }
        if (m_eof) {
            if (scan.quoted)
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
