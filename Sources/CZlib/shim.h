// The system zlib, for PNG's deflate and CRC-32: on every Linux image we use, in the Swift
// toolchain images and on macOS.
#include <zlib.h>
