#ifndef KOTEN_CONNXRUNTIME_H
#define KOTEN_CONNXRUNTIME_H
// ONNX Runtime C API (headers installed by scripts/setup.sh into .deps/onnxruntime/include).
#include "../../../.deps/onnxruntime/include/onnxruntime_c_api.h"

/// The API table for the header's ORT_API_VERSION, or NULL when the loaded library is older.
const OrtApi *koten_ort_api(void);
/// The version string of the loaded library, e.g. "1.32.0".
const char *koten_ort_version(void);
#endif
