#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/model/result.h"

namespace paretoscope {

/// Files someone else can write (a matrix, a TCO model, a view, a journal, a cluster's results and status files) are
/// read through these: regular files only (a FIFO, a device or a folder is refused at once, without blocking), and
/// never more than a stated number of bytes (docs/testing.md lists the limits).
namespace limits {
constexpr std::uint64_t kSmallJson = 16ull << 20; ///< a matrix, a TCO model, a recipe file, a view: 16 MiB
constexpr std::uint64_t kStatusFile = 64ull << 10; ///< a cluster task's status file: 64 KiB
constexpr std::uint64_t kJournalLine = 256ull << 20; ///< one line of a session journal: 256 MiB
constexpr std::uint64_t kBookkeeping = 1ull << 20; ///< a cluster folder's jobs and collected lists: 1 MiB
constexpr int kJsonDepth = 64; ///< nesting of a small JSON document (a matrix, a TCO model, a journal line)
} // namespace limits

/// Opens a file for reading: the path must name a regular file (following symbolic links, as a reader may); a
/// FIFO, socket, device or folder is refused at once. Returns the open descriptor (O_CLOEXEC, blocking reads).
Result<int> openRegularFile(const std::string& path);

/// Reads a regular file whole, refusing it unread when it holds more than maxBytes. Errors name the path.
Result<std::string> readRegularFile(const std::string& path, std::uint64_t maxBytes);

/// Calls onLine for each line of a regular file (without its newline). A line longer than maxLineBytes is not held
/// in memory: onLine gets it as empty with tooLong set. onLine returns false to stop.
Status forEachLine(const std::string& path, std::uint64_t maxLineBytes,
    const std::function<bool(std::string_view line, bool tooLong)>& onLine);

/// Writes a file whole: into an unnamed file beside it (a named one where the file system has none), synced, named
/// and renamed over the path. A symbolic link at the path is replaced, never followed; a reader never sees half a
/// file, and a signal or kill -9 while it is written leaves nothing. mode is a new file's permission bits; a file
/// replaced keeps its own, with the execute bits of mode added. Any name the file system takes is taken.
Status replaceFile(const std::string& path, std::string_view text, unsigned mode = 0644);

/// A file to write a path's new content into, unnamed where the file system can (O_TMPFILE in the path's folder: a
/// signal or kill -9 leaves nothing), else named with a short temporary name. publishFile names it as the path.
struct PendingFile {
    int fd = -1;
    std::string temporary; ///< its name, where it has one (the fallback), else empty
    unsigned mode = 0644; ///< the bits it is published with: a replaced file's own, with the execute bits asked
};
Result<PendingFile> openPendingFile(const std::string& path, unsigned mode = 0644);
/// Syncs the pending file, sets its bits and renames it over the path; on an error it is removed. Closes nothing.
Status publishFile(PendingFile& file, const std::string& path);
/// Drops a pending file that is not to be published: its name removed, its descriptor closed.
void dropPendingFile(PendingFile& file);

/// Appends text to a regular file (created when absent); a symbolic link, FIFO or anything else is refused.
Status appendToFile(const std::string& path, std::string_view text);

} // namespace paretoscope
