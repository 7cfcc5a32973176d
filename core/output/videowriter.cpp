#include "core/output/videowriter.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <vector>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "core/model/outsidefile.h"
#include "core/output/ffmpeglib.h"

namespace paretoscope {

// Named, not anonymous: VideoWriter::State (external linkage) holds an OutFile and a Palette.
namespace videoparts {

std::string avError(const FfmpegLib& av, int code)
{
    std::array<char, AV_ERROR_MAX_STRING_SIZE> text {};
    av.av_strerror(code, text.data(), text.size());
    return text.data();
}

// The muxer writes into a file beside the video's path, unnamed until it is whole (openPendingFile), through a
// descriptor and an offset: the MP4 muxer seeks back to patch its boxes. Memory stays the encoder's, whatever the
// video's length (it was held whole: 3.5 GB at the largest size).
struct OutFile {
    PendingFile file;
    std::int64_t at = 0;
    std::int64_t size = 0;
};

int writeOut(void* opaque, std::uint8_t* buf, int size)
{
    auto* f = static_cast<OutFile*>(opaque);
    for (int done = 0; done < size;) {
        const ssize_t n = ::pwrite(f->file.fd, buf + done, static_cast<std::size_t>(size - done), f->at + done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return AVERROR(n < 0 ? errno : ENOSPC);
        done += static_cast<int>(n);
    }
    f->at += size;
    f->size = std::max(f->size, f->at);
    return size;
}

std::int64_t seekOut(void* opaque, std::int64_t offset, int whence)
{
    auto* f = static_cast<OutFile*>(opaque);
    if (whence & AVSEEK_SIZE)
        return f->size;
    std::int64_t to = offset;
    switch (whence & ~AVSEEK_FORCE) {
    case SEEK_SET:
        break;
    case SEEK_CUR:
        to += f->at;
        break;
    case SEEK_END:
        to += f->size;
        break;
    default:
        return AVERROR(EINVAL);
    }
    if (to < 0)
        return AVERROR(EINVAL);
    f->at = to;
    return to;
}

// The colours of one frame in at most 256: the most common cells of a 32 x 32 x 32 cube (each cell its pixels' mean),
// every pixel drawn in the nearest. A chart is mostly its background and a few dozen line colours, which each keep a
// cell of their own; what falls between (anti-aliased edges) takes the nearest.
class Palette {
public:
    void build(const std::uint8_t* bgra, int width, int height, int stride)
    {
        std::fill(m_count.begin(), m_count.end(), 0);
        std::fill(m_sum.begin(), m_sum.end(), 0);
        for (int y = 0; y < height; ++y) {
            const std::uint8_t* p = bgra + std::ptrdiff_t(y) * stride;
            for (int x = 0; x < width; ++x, p += 4) {
                const int cell = cellOf(p);
                ++m_count[std::size_t(cell)];
                m_sum[std::size_t(cell) * 3] += p[2];
                m_sum[std::size_t(cell) * 3 + 1] += p[1];
                m_sum[std::size_t(cell) * 3 + 2] += p[0];
            }
        }
        std::vector<int> cells;
        for (int c = 0; c < kCells; ++c)
            if (m_count[std::size_t(c)])
                cells.push_back(c);
        const std::size_t kept = std::min<std::size_t>(cells.size(), 256);
        std::partial_sort(cells.begin(), cells.begin() + std::ptrdiff_t(kept), cells.end(),
            [&](int a, int b) { return m_count[std::size_t(a)] > m_count[std::size_t(b)]; });
        cells.resize(kept);
        m_colors.clear();
        for (int c : cells) {
            const auto n = m_count[std::size_t(c)];
            const auto mean
                = [&](int k) { return std::uint32_t((m_sum[std::size_t(c) * 3 + std::size_t(k)] + n / 2) / n); };
            m_colors.push_back(0xff000000u | mean(0) << 16 | mean(1) << 8 | mean(2));
        }
        std::fill(m_index.begin(), m_index.end(), -1);
        for (std::size_t i = 0; i < cells.size(); ++i)
            m_index[std::size_t(cells[i])] = static_cast<int>(i);
    }

    // The palette as the GIF encoder takes it: 256 entries of 0xAARRGGBB.
    void copyTo(std::uint32_t* out) const
    {
        for (std::size_t i = 0; i < 256; ++i)
            out[i] = i < m_colors.size() ? m_colors[i] : 0xff000000u;
    }

    std::uint8_t indexOf(const std::uint8_t* p)
    {
        const int cell = cellOf(p);
        int& i = m_index[std::size_t(cell)];
        if (i < 0)
            i = nearest(p[2], p[1], p[0]);
        return static_cast<std::uint8_t>(i);
    }

private:
    static constexpr int kCells = 32 * 32 * 32;
    static int cellOf(const std::uint8_t* p) { return (p[2] >> 3) << 10 | (p[1] >> 3) << 5 | (p[0] >> 3); }
    int nearest(int r, int g, int b) const
    {
        int best = 0;
        long bestDistance = -1;
        for (std::size_t i = 0; i < m_colors.size(); ++i) {
            const int dr = int(m_colors[i] >> 16 & 0xff) - r, dg = int(m_colors[i] >> 8 & 0xff) - g,
                      db = int(m_colors[i] & 0xff) - b;
            // weighted as the eye weighs them (green most)
            const long d = 3L * dr * dr + 6L * dg * dg + 1L * db * db;
            if (bestDistance < 0 || d < bestDistance) {
                bestDistance = d;
                best = static_cast<int>(i);
            }
        }
        return best;
    }
    std::vector<std::uint32_t> m_count = std::vector<std::uint32_t>(kCells);
    std::vector<std::uint64_t> m_sum = std::vector<std::uint64_t>(std::size_t(kCells) * 3);
    std::vector<int> m_index = std::vector<int>(kCells, -1);
    std::vector<std::uint32_t> m_colors;
};

} // namespace videoparts

struct VideoWriter::State {
    const FfmpegLib& av;
    std::string path;
    VideoSettings settings;
    videoparts::OutFile file;
    AVFormatContext* format = nullptr;
    AVIOContext* io = nullptr;
    AVCodecContext* codec = nullptr;
    AVStream* stream = nullptr;
    AVFrame* frame = nullptr;
    AVPacket* packet = nullptr;
    SwsContext* scale = nullptr;
    videoparts::Palette palette;
    std::int64_t pts = 0; ///< frames handed in (the encoder's count once the queue is empty)
    std::int64_t encoded = 0;
    std::int64_t frameDuration = 1; ///< the frame being sent lasts this many frame times (a GIF's hold)
    bool finished = false;
    bool started = false; ///< the header written: the muxer holds state of its own until its trailer
    bool ended = false; ///< the trailer written

    // The encoder's thread: frames wait in a short queue while the caller draws the next one.
    struct Pending {
        std::vector<std::uint8_t> pixels;
        int stride = 0;
        int repeat = 1;
    };
    std::thread worker;
    std::mutex lock;
    std::condition_variable changed;
    std::deque<Pending> queue;
    bool closing = false;
    std::optional<Error> failure; ///< the encoder's first error; later frames are dropped
    static constexpr std::size_t kQueued = 2;

    void run()
    {
#ifdef __linux__
        if (settings.nice > 0) // a nice value belongs to a thread on Linux
            ::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), settings.nice);
#endif
        for (;;) {
            Pending next;
            {
                std::unique_lock<std::mutex> hold(lock);
                changed.wait(hold, [&] { return closing || !queue.empty(); });
                if (queue.empty())
                    return;
                next = std::move(queue.front());
                queue.pop_front();
                if (failure)
                    continue; // after an error the rest is dropped
            }
            changed.notify_all();
            Status st = encode(next);
            std::lock_guard<std::mutex> hold(lock);
            if (!st && !failure)
                failure = Error { st.error() };
            changed.notify_all();
        }
    }

    Status encode(const Pending& p)
    {
        if (Status st = convert(p.pixels.data(), p.stride); !st)
            return st;
        if (settings.format == VideoFormat::Gif) {
            // a hold is one frame shown for its time: a GIF stores each frame whole, so a frame repeated is stored
            // again each time (a 320 x 180 hold of a minute was 40 MB)
            frame->pts = encoded;
            encoded += p.repeat;
            frameDuration = p.repeat;
            // the muxer times each frame by the next one's time; the last by its final_delay (hundredths of a second)
            const std::string lasts = std::to_string(std::lround(100.0 * p.repeat / settings.fps));
            av.av_opt_set(format->priv_data, "final_delay", lasts.c_str(), 0);
            return send(frame);
        }
        for (int i = 0; i < p.repeat; ++i) { // H.264 codes a repeat as a few bytes; players expect a steady rate
            frame->pts = encoded++;
            frameDuration = 1;
            if (Status st = send(frame); !st)
                return st;
        }
        return ok();
    }

    // Waits for the queue to empty and the thread to end.
    void stopWorker()
    {
        if (!worker.joinable())
            return;
        {
            std::lock_guard<std::mutex> hold(lock);
            closing = true;
        }
        changed.notify_all();
        worker.join();
    }

    explicit State(const FfmpegLib& lib)
        : av(lib)
    {
    }

    ~State()
    {
        {
            std::lock_guard<std::mutex> hold(lock);
            queue.clear(); // dropped before finish(): what waits is not encoded
        }
        stopWorker();
        // a muxer frees what it holds in its trailer (the GIF muxer its last packet): ended into the unnamed file,
        // which is dropped with it
        if (started && !ended)
            av.av_write_trailer(format);
        dropPendingFile(file.file);
        av.sws_freeContext(scale);
        av.av_packet_free(&packet);
        av.av_frame_free(&frame);
        av.avcodec_free_context(&codec);
        if (format)
            av.avformat_free_context(format);
        if (io)
            av.av_freep(&io->buffer);
        av.avio_context_free(&io);
    }

    Error fail(const std::string& what, int code) const
    {
        return Error { path + ": " + what + (code ? ": " + videoparts::avError(av, code) : std::string()) };
    }

    // Sends a frame (null: the end) and muxes every packet the encoder has ready.
    Status send(AVFrame* f)
    {
        if (const int rc = av.avcodec_send_frame(codec, f); rc < 0)
            return fail("the encoder refused a frame", rc);
        for (;;) {
            const int rc = av.avcodec_receive_packet(codec, packet);
            if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF)
                return ok();
            if (rc < 0)
                return fail("the encoder failed", rc);
            if (packet->duration <= 0) // a frame's time: without it the MP4's last frame lasts nothing, and is cut
                packet->duration = settings.format == VideoFormat::Gif ? frameDuration : 1;
            av.av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
            packet->stream_index = stream->index;
            const int written = av.av_interleaved_write_frame(format, packet);
            av.av_packet_unref(packet);
            if (written < 0)
                return fail("cannot write a frame", written);
        }
    }

    // The picture in the encoder's pixels: 4:2:0 in BT.709 for H.264, palette indices for GIF.
    Status convert(const std::uint8_t* bgra, int stride)
    {
        if (const int rc = av.av_frame_make_writable(frame); rc < 0)
            return fail("out of memory for a frame", rc);
        if (settings.format == VideoFormat::Mp4) {
            const std::uint8_t* const src[] = { bgra };
            const int srcStride[] = { stride };
            av.sws_scale(scale, src, srcStride, 0, settings.height, frame->data, frame->linesize);
            return ok();
        }
        palette.build(bgra, settings.width, settings.height, stride);
        palette.copyTo(reinterpret_cast<std::uint32_t*>(frame->data[1]));
        for (int y = 0; y < settings.height; ++y) {
            const std::uint8_t* p = bgra + std::ptrdiff_t(y) * stride;
            std::uint8_t* out = frame->data[0] + std::ptrdiff_t(y) * frame->linesize[0];
            for (int x = 0; x < settings.width; ++x, p += 4)
                out[x] = palette.indexOf(p);
        }
        return ok();
    }
};

std::optional<VideoFormat> videoFormatOf(std::string_view path)
{
    auto endsWith = [&](std::string_view ext) {
        if (path.size() < ext.size())
            return false;
        return std::equal(ext.begin(), ext.end(), path.end() - std::ptrdiff_t(ext.size()),
            [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
    };
    if (endsWith(".mp4"))
        return VideoFormat::Mp4;
    if (endsWith(".gif"))
        return VideoFormat::Gif;
    return std::nullopt;
}

std::string videoSettingsProblem(const VideoSettings& s)
{
    if (s.width < 16 || s.height < 16 || s.width > 7680 || s.height > 4320)
        return "a size of " + std::to_string(s.width) + " x " + std::to_string(s.height)
            + " pixels: it must be at least 16 x 16 and at most 7680 x 4320";
    if (s.format == VideoFormat::Mp4 && (s.width % 2 || s.height % 2))
        return "a size of " + std::to_string(s.width) + " x " + std::to_string(s.height)
            + " pixels: an MP4's width and height must be even (H.264's 4:2:0 colour)";
    if (s.fps < 1 || s.fps > 60)
        return std::to_string(s.fps) + " frames a second: it must be 1 to 60";
    if (s.format == VideoFormat::Gif && s.fps > 50) // a GIF's delays are hundredths of a second
        return std::to_string(s.fps) + " frames a second: a GIF shows at most 50";
    return {};
}

VideoWriter::VideoWriter(std::unique_ptr<State> state)
    : m_state(std::move(state))
{
}

VideoWriter::~VideoWriter() = default;

Result<std::unique_ptr<VideoWriter>> VideoWriter::open(const std::string& path, const VideoSettings& settings)
{
    if (const std::string problem = videoSettingsProblem(settings); !problem.empty())
        return Error { path + ": " + problem };
    std::string why;
    const FfmpegLib* lib = ffmpegLib(why);
    if (!lib)
        return Error { path + ": " + why };
    const FfmpegLib& av = *lib;
    av.av_log_set_level(AV_LOG_ERROR); // the encoders' statistics are not the caller's output; their errors are
    auto s = std::make_unique<State>(av);
    s->path = path;
    s->settings = settings;
    const bool mp4 = settings.format == VideoFormat::Mp4;
    if (const int rc = av.avformat_alloc_output_context2(&s->format, nullptr, mp4 ? "mp4" : "gif", nullptr); rc < 0)
        return s->fail(std::string("this FFmpeg cannot write ") + (mp4 ? "MP4" : "GIF"), rc);
    auto pending = openPendingFile(path);
    if (!pending)
        return Error { pending.error() };
    s->file.file = *pending;
    constexpr int kBuffer = 1 << 16;
    auto* buffer = static_cast<unsigned char*>(av.av_malloc(kBuffer));
    s->io = buffer
        ? av.avio_alloc_context(buffer, kBuffer, 1, &s->file, nullptr, videoparts::writeOut, videoparts::seekOut)
        : nullptr;
    if (!s->io) {
        av.av_free(buffer);
        return s->fail("out of memory", 0);
    }
    s->format->pb = s->io;
    s->format->flags |= AVFMT_FLAG_CUSTOM_IO;

    const AVCodec* encoder
        = mp4 ? av.avcodec_find_encoder_by_name("libx264") : av.avcodec_find_encoder(AV_CODEC_ID_GIF);
    if (!encoder && mp4)
        encoder = av.avcodec_find_encoder(AV_CODEC_ID_H264);
    if (!encoder)
        return s->fail(std::string("this FFmpeg has no ") + (mp4 ? "H.264" : "GIF") + " encoder", 0);
    s->codec = av.avcodec_alloc_context3(encoder);
    s->stream = av.avformat_new_stream(s->format, nullptr);
    s->frame = av.av_frame_alloc();
    s->packet = av.av_packet_alloc();
    if (!s->codec || !s->stream || !s->frame || !s->packet)
        return s->fail("out of memory", 0);
    AVCodecContext* c = s->codec;
    c->width = settings.width;
    c->height = settings.height;
    c->time_base = AVRational { 1, settings.fps };
    c->framerate = AVRational { settings.fps, 1 };
    c->pix_fmt = mp4 ? AV_PIX_FMT_YUV420P : AV_PIX_FMT_PAL8;
    c->thread_count = settings.threads;
    if (mp4) {
        c->gop_size = 10 * settings.fps; // a key frame every 10 s: a player can seek
        c->colorspace = AVCOL_SPC_BT709;
        c->color_primaries = AVCOL_PRI_BT709;
        c->color_trc = AVCOL_TRC_BT709;
        c->color_range = AVCOL_RANGE_MPEG;
        // thin lines and small type: a quality-led rate (CRF 18) tuned for still pictures, fast on two cores
        av.av_opt_set(c->priv_data, "preset", "veryfast", 0);
        av.av_opt_set(c->priv_data, "tune", "stillimage", 0);
        av.av_opt_set(c->priv_data, "crf", "18", 0);
    }
    if (s->format->oformat->flags & AVFMT_GLOBALHEADER)
        c->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (const int rc = av.avcodec_open2(c, encoder, nullptr); rc < 0)
        return s->fail(std::string("the ") + encoder->name + " encoder refused its settings", rc);
    s->stream->time_base = c->time_base;
    if (const int rc = av.avcodec_parameters_from_context(s->stream->codecpar, c); rc < 0)
        return s->fail("cannot describe the stream", rc);
    s->frame->format = c->pix_fmt;
    s->frame->width = c->width;
    s->frame->height = c->height;
    if (const int rc = av.av_frame_get_buffer(s->frame, 0); rc < 0)
        return s->fail("out of memory for a frame", rc);
    if (mp4) {
        s->scale = av.sws_getContext(settings.width, settings.height, AV_PIX_FMT_BGRA, settings.width, settings.height,
            AV_PIX_FMT_YUV420P, SWS_BICUBIC, nullptr, nullptr, nullptr);
        if (!s->scale)
            return s->fail("cannot convert pictures to 4:2:0", 0);
        // BT.709 as tagged; the picture's full-range RGB to video range
        const int* coefficients = av.sws_getCoefficients(SWS_CS_ITU709);
        av.sws_setColorspaceDetails(s->scale, coefficients, 1, coefficients, 0, 0, 1 << 16, 1 << 16);
    }
    if (const int rc = av.avformat_write_header(s->format, nullptr); rc < 0)
        return s->fail("cannot start the file", rc);
    s->started = true;
    State* state = s.get();
    s->worker = std::thread([state] { state->run(); });
    return std::unique_ptr<VideoWriter>(new VideoWriter(std::move(s)));
}

Status VideoWriter::addFrame(const std::uint8_t* bgra, int stride, int repeat)
{
    State& s = *m_state;
    if (s.finished)
        return Error { s.path + ": the video is finished already" };
    if (!bgra || stride < s.settings.width * 4)
        return Error { s.path + ": a frame narrower than the video's " + std::to_string(s.settings.width) + " pixels" };
    State::Pending p;
    p.pixels.assign(bgra, bgra + std::ptrdiff_t(stride) * s.settings.height);
    p.stride = stride;
    p.repeat = std::max(repeat, 1);
    std::unique_lock<std::mutex> hold(s.lock);
    s.changed.wait(hold, [&] { return s.queue.size() < State::kQueued || s.failure; });
    if (s.failure)
        return *s.failure;
    s.queue.push_back(std::move(p));
    s.pts += std::max(repeat, 1);
    s.changed.notify_all();
    return ok();
}

bool VideoWriter::hasRoom() const
{
    std::lock_guard<std::mutex> hold(m_state->lock);
    return m_state->queue.size() < State::kQueued || m_state->failure;
}

int VideoWriter::frames() const
{
    return static_cast<int>(m_state->pts);
}

Status VideoWriter::finish()
{
    State& s = *m_state;
    if (s.finished)
        return Error { s.path + ": the video is finished already" };
    s.finished = true;
    s.stopWorker(); // every frame handed in is encoded first
    if (s.failure)
        return *s.failure;
    if (s.pts == 0)
        return Error { s.path + ": no frame to write: nothing was written" };
    if (Status st = s.send(nullptr); !st)
        return st;
    s.ended = true; // whatever it says: a trailer is written once
    if (const int rc = s.av.av_write_trailer(s.format); rc < 0)
        return s.fail("cannot end the file", rc);
    s.av.avio_flush(s.io);
    return publishFile(s.file.file, s.path);
}

} // namespace paretoscope
