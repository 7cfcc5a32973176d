#include "tests/support/videoreadback.h"

#include <cstdlib>
#include <memory>

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>
}

namespace paretoscope::test {

namespace {

QImage toImage(const AVFrame* f)
{
    QImage image(f->width, f->height, QImage::Format_RGB32);
    SwsContext* sws = sws_getContext(f->width, f->height, static_cast<AVPixelFormat>(f->format), f->width, f->height,
        AV_PIX_FMT_BGRA, SWS_BICUBIC | SWS_ACCURATE_RND | SWS_FULL_CHR_H_INT, nullptr, nullptr, nullptr);
    if (!sws)
        return {};
    // the colour matrix and range the stream is tagged with (BT.709, video range for the H.264 the replay writes)
    const int* matrix = sws_getCoefficients(f->colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_DEFAULT);
    sws_setColorspaceDetails(sws, matrix, f->color_range == AVCOL_RANGE_JPEG ? 1 : 0, matrix, 1, 0, 1 << 16, 1 << 16);
    std::uint8_t* dst[] = { image.bits() };
    const int dstStride[] = { static_cast<int>(image.bytesPerLine()) };
    sws_scale(sws, f->data, f->linesize, 0, f->height, dst, dstStride);
    sws_freeContext(sws);
    return image;
}

} // namespace

VideoReadback readVideo(const QString& path, const std::set<int>& keep)
{
    VideoReadback out;
    AVFormatContext* format = nullptr;
    const QByteArray file = path.toLocal8Bit();
    if (avformat_open_input(&format, file.constData(), nullptr, nullptr) < 0) {
        out.error = QStringLiteral("cannot open ") + path;
        return out;
    }
    std::unique_ptr<AVFormatContext, void (*)(AVFormatContext*)> closeFormat(
        format, [](AVFormatContext* f) { avformat_close_input(&f); });
    if (avformat_find_stream_info(format, nullptr) < 0) {
        out.error = QStringLiteral("no stream information");
        return out;
    }
    out.container = QString::fromLatin1(format->iformat->name);
    const AVCodec* decoder = nullptr;
    const int index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
    if (index < 0 || !decoder) {
        out.error = QStringLiteral("no video stream");
        return out;
    }
    const AVStream* stream = format->streams[index];
    out.codec = QString::fromLatin1(decoder->name);
    if (stream->avg_frame_rate.den)
        out.fps = av_q2d(stream->avg_frame_rate);
    AVCodecContext* codec = avcodec_alloc_context3(decoder);
    std::unique_ptr<AVCodecContext, void (*)(AVCodecContext*)> freeCodec(
        codec, [](AVCodecContext* c) { avcodec_free_context(&c); });
    avcodec_parameters_to_context(codec, stream->codecpar);
    if (avcodec_open2(codec, decoder, nullptr) < 0) {
        out.error = QStringLiteral("the decoder refused the stream");
        return out;
    }
    out.width = codec->width;
    out.height = codec->height;
    AVPacket* packet = av_packet_alloc();
    AVFrame* frame = av_frame_alloc();
    QImage last;
    // frames are counted by the time they show, in frame times: a GIF's hold is one frame of several (its delay a
    // multiple of the shortest), an MP4's a frame repeated
    std::vector<std::int64_t> durations;
    auto drain = [&]() {
        while (avcodec_receive_frame(codec, frame) == 0) {
            if (keep.count(out.frames))
                out.images.emplace_back(out.frames, toImage(frame));
            if (keep.count(-1))
                last = toImage(frame);
            ++out.frames;
            ++out.decoded;
            durations.push_back(frame->pkt_duration);
            av_frame_unref(frame);
        }
    };
    while (av_read_frame(format, packet) >= 0) {
        if (packet->stream_index == index && avcodec_send_packet(codec, packet) == 0)
            drain();
        av_packet_unref(packet);
    }
    avcodec_send_packet(codec, nullptr);
    drain();
    if (keep.count(-1))
        out.images.emplace_back(-1, last);
    std::int64_t shortest = 0;
    for (const std::int64_t d : durations)
        if (d > 0 && (shortest == 0 || d < shortest))
            shortest = d;
    if (shortest > 0) {
        out.frames = 0;
        for (const std::int64_t d : durations)
            out.frames += d > 0 ? static_cast<int>((d + shortest / 2) / shortest) : 1;
    }
    av_frame_free(&frame);
    av_packet_free(&packet);
    return out;
}

PictureDifference compareImages(const QImage& a, const QImage& b, int tolerance)
{
    PictureDifference d;
    if (a.size() != b.size() || a.isNull())
        return { 255, 1 };
    const QImage x = a.convertToFormat(QImage::Format_RGB32), y = b.convertToFormat(QImage::Format_RGB32);
    double sum = 0;
    long over = 0;
    for (int row = 0; row < x.height(); ++row) {
        const auto* p = reinterpret_cast<const QRgb*>(x.constScanLine(row));
        const auto* q = reinterpret_cast<const QRgb*>(y.constScanLine(row));
        for (int col = 0; col < x.width(); ++col) {
            const int dr = std::abs(qRed(p[col]) - qRed(q[col])), dg = std::abs(qGreen(p[col]) - qGreen(q[col])),
                      db = std::abs(qBlue(p[col]) - qBlue(q[col]));
            sum += dr + dg + db;
            if (dr > tolerance || dg > tolerance || db > tolerance)
                ++over;
        }
    }
    const double pixels = double(x.width()) * x.height();
    d.mean = sum / (3 * pixels);
    d.shareOver = double(over) / pixels;
    return d;
}

} // namespace paretoscope::test
