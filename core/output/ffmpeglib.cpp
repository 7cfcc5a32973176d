#include "core/output/ffmpeglib.h"

#include <dlfcn.h>
#include <type_traits>

namespace paretoscope {

namespace {

struct Opened {
    FfmpegLib lib {};
    std::string why;
};

Opened open()
{
    Opened o;
    // the major versions the headers are of: another major version has another ABI
    const std::string libraries[] = { "libavutil.so." + std::to_string(LIBAVUTIL_VERSION_MAJOR),
        "libavcodec.so." + std::to_string(LIBAVCODEC_VERSION_MAJOR),
        "libavformat.so." + std::to_string(LIBAVFORMAT_VERSION_MAJOR),
        "libswscale.so." + std::to_string(LIBSWSCALE_VERSION_MAJOR) };
    void* handles[4] = {};
    for (int i = 0; i < 4; ++i) {
        // never closed: the process keeps them once a video was written
        handles[i] = ::dlopen(libraries[i].c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handles[i]) {
            o.why = "FFmpeg's " + libraries[i] + " cannot be loaded (" + ::dlerror()
                + "): install libavcodec59, libavformat59 and libswscale6 (Debian 12)";
            return o;
        }
    }
    auto need = [&](auto& fn, int library, const char* symbol) {
        fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(handles[library], symbol));
        if (!fn && o.why.empty())
            o.why = "FFmpeg's " + libraries[library] + " has no " + symbol;
    };
    FfmpegLib& l = o.lib;
    enum { util, codec, format, scale };
    need(l.av_strerror, util, "av_strerror");
    need(l.av_log_set_level, util, "av_log_set_level");
    need(l.av_malloc, util, "av_malloc");
    need(l.av_free, util, "av_free");
    need(l.av_freep, util, "av_freep");
    need(l.av_opt_set, util, "av_opt_set");
    need(l.av_frame_alloc, util, "av_frame_alloc");
    need(l.av_frame_free, util, "av_frame_free");
    need(l.av_frame_get_buffer, util, "av_frame_get_buffer");
    need(l.av_frame_make_writable, util, "av_frame_make_writable");
    need(l.avcodec_find_encoder_by_name, codec, "avcodec_find_encoder_by_name");
    need(l.avcodec_find_encoder, codec, "avcodec_find_encoder");
    need(l.avcodec_alloc_context3, codec, "avcodec_alloc_context3");
    need(l.avcodec_free_context, codec, "avcodec_free_context");
    need(l.avcodec_open2, codec, "avcodec_open2");
    need(l.avcodec_parameters_from_context, codec, "avcodec_parameters_from_context");
    need(l.avcodec_send_frame, codec, "avcodec_send_frame");
    need(l.avcodec_receive_packet, codec, "avcodec_receive_packet");
    need(l.av_packet_alloc, codec, "av_packet_alloc");
    need(l.av_packet_free, codec, "av_packet_free");
    need(l.av_packet_unref, codec, "av_packet_unref");
    need(l.av_packet_rescale_ts, codec, "av_packet_rescale_ts");
    need(l.avformat_alloc_output_context2, format, "avformat_alloc_output_context2");
    need(l.avformat_free_context, format, "avformat_free_context");
    need(l.avformat_new_stream, format, "avformat_new_stream");
    need(l.avformat_write_header, format, "avformat_write_header");
    need(l.av_interleaved_write_frame, format, "av_interleaved_write_frame");
    need(l.av_write_trailer, format, "av_write_trailer");
    need(l.avio_alloc_context, format, "avio_alloc_context");
    need(l.avio_context_free, format, "avio_context_free");
    need(l.avio_flush, format, "avio_flush");
    need(l.sws_getContext, scale, "sws_getContext");
    need(l.sws_freeContext, scale, "sws_freeContext");
    need(l.sws_scale, scale, "sws_scale");
    need(l.sws_getCoefficients, scale, "sws_getCoefficients");
    need(l.sws_setColorspaceDetails, scale, "sws_setColorspaceDetails");
    return o;
}

} // namespace

const FfmpegLib* ffmpegLib(std::string& why)
{
    static const Opened opened = open(); // once, whichever thread asks first
    why = opened.why;
    return opened.why.empty() ? &opened.lib : nullptr;
}

} // namespace paretoscope
