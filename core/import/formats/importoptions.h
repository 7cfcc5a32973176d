#pragma once

#include <string>

namespace paretoscope {

/// What the caller says about files that do not describe themselves (vLLM and SGLang results carry no hardware or
/// GPU count). Empty strings and zeros mean "not given".
struct ImportOptions {
    std::string hardware;
    std::string engine;
    std::string precision;
    std::string model;
    std::string workload;
    std::string specDecoding;
    int gpus = 0;
    int prefillGpus = 0;
    int decodeGpus = 0;
    int tp = 0;
    int isl = 0;
    int osl = 0;
};

} // namespace paretoscope
