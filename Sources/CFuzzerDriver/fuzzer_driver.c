// Declarations only (include/CFuzzerDriver.h): libFuzzer defines the driver; SwiftPM needs one source file.
#include "CFuzzerDriver.h"
