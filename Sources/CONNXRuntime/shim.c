#include "CONNXRuntime.h"

const OrtApi *koten_ort_api(void) {
    const OrtApiBase *base = OrtGetApiBase();
    return base ? base->GetApi(ORT_API_VERSION) : 0;
}

const char *koten_ort_version(void) {
    const OrtApiBase *base = OrtGetApiBase();
    return base ? base->GetVersionString() : "unknown";
}
