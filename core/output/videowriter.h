#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/model/result.h"

namespace paretoscope {

/// What a replay is written as (docs/report.md): an MP4 of H.264 video, or an animated GIF that loops.
enum class VideoFormat { Mp4, Gif };
/// The format a file name asks for by its extension (.mp4 or .gif, any case); none for another.
std::optional<VideoFormat> videoFormatOf(std::string_view path);

/// The frames of a video: their size in pixels and how many a second.
struct VideoSettings {
    int width = 1920;
    int height = 1080;
    int fps = 2;
    VideoFormat format = VideoFormat::Mp4;
    /// The encoder's threads (0: as many as it likes); the window gives it one, to keep the other core for itself.
    int threads = 0;
    /// The nice value of the encoder's thread (Linux; 0 leaves it as the caller's): a window's, above its own.
    int nice = 0;
};
/// Why a size or rate cannot be written ("" when it can): at least 16 x 16 and at most 7680 x 4320 pixels, even
/// width and height for H.264's 4:2:0 colour, 1 to 60 frames a second (a GIF, whose delays are hundredths of a
/// second, at most 50).
std::string videoSettingsProblem(const VideoSettings& settings);

/// Writes a video through FFmpeg's libraries (libavcodec's H.264 encoder, libx264, for MP4; its GIF encoder with a
/// palette of each frame's own 256 colours for GIF). Frames are encoded as they are added; the file is written whole
/// by finish() (into a temporary file beside it, then renamed: a reader never sees half a video, and a writer that
/// fails or is dropped before finish() leaves nothing).
class VideoWriter {
public:
    /// An encoder for a file; errors name the file and what the encoder refused.
    static Result<std::unique_ptr<VideoWriter>> open(const std::string& path, const VideoSettings& settings);
    ~VideoWriter();
    VideoWriter(const VideoWriter&) = delete;
    VideoWriter& operator=(const VideoWriter&) = delete;

    /// Adds a frame of settings' size, `repeat` times (a hold): 4 bytes a pixel in memory order B, G, R, A (Qt's
    /// ARGB32 on a little-endian machine), opaque, rows `stride` bytes apart.
    Status addFrame(const std::uint8_t* bgra, int stride, int repeat = 1);
    /// Frames added so far (repeats counted).
    int frames() const;
    /// Whether addFrame would take a frame without waiting for the encoder (its queue has room).
    bool hasRoom() const;
    /// Ends the stream and writes the file; nothing is written where no frame was added.
    Status finish();

    struct State;

private:
    explicit VideoWriter(std::unique_ptr<State> state);
    std::unique_ptr<State> m_state;
};

} // namespace paretoscope
