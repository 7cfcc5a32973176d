#pragma once

#include <QImage>
#include <QString>
#include <set>
#include <vector>

namespace paretoscope::test {

/// A video read back with FFmpeg's libraries (libavformat, libavcodec, libswscale), as a player reads it: every frame
/// decoded and counted; those asked for converted to RGB.
struct VideoReadback {
    QString error; ///< empty when the whole file was read
    QString container; ///< the demuxer's name: "mov,mp4,m4a,3gp,3g2,mj2", "gif"
    QString codec; ///< "h264", "gif"
    int width = 0, height = 0;
    double fps = 0; ///< the stream's average rate, where it has one
    int frames = 0; ///< shown, in frame times (a frame held for three counts three)
    int decoded = 0; ///< stored in the file
    std::vector<std::pair<int, QImage>> images; ///< the frames asked for, by index (RGB32)
};

/// Reads a video; `keep` names the frames to convert (by index; -1 is the last).
VideoReadback readVideo(const QString& path, const std::set<int>& keep = {});

/// The mean absolute difference of two pictures of one size per channel (0 to 255), and the share of pixels that
/// differ by more than `tolerance` in some channel.
struct PictureDifference {
    double mean = 0;
    double shareOver = 0;
};
PictureDifference compareImages(const QImage& a, const QImage& b, int tolerance);

} // namespace paretoscope::test
