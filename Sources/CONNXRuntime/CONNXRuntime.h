#ifndef KOTEN_CONNXRUNTIME_H
#define KOTEN_CONNXRUNTIME_H
// ONNX Runtime C API. The header directory comes from pkg-config (`libonnxruntime.pc`, the name and layout
// ONNX Runtime's own install uses: `-I<prefix>/include/onnxruntime`); scripts/setup.sh installs one
// (docs/native-dependencies.md).
#include <onnxruntime_c_api.h>

/// The API table for the header's ORT_API_VERSION, or NULL when the loaded library is older.
static inline const OrtApi *koten_ort_api(void) {
    const OrtApiBase *base = OrtGetApiBase();
    return base ? base->GetApi(ORT_API_VERSION) : 0;
}

/// The version string of the loaded library, e.g. "1.32.0".
static inline const char *koten_ort_version(void) {
    const OrtApiBase *base = OrtGetApiBase();
    return base ? base->GetVersionString() : "unknown";
}
#endif
