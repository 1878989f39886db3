// libFuzzer entry point for the .npy parser (tools/npy.h). Any input must either decode to an
// array that re-encodes to the same contents, or fail with NpyError; never crash or leak.
#include "npy.h"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
    npy::NpyArray array;
    try {
        array = npy::decode(bytes, size);
    } catch (const npy::NpyError&) {
        return 0;
    }
    if (array.bytes.size() != array.element_count() * array.dtype.element_size) std::abort();
    const std::vector<uint8_t> image = npy::encode(array);
    const npy::NpyArray again = npy::decode(image.data(), image.size());
    if (again.bytes != array.bytes || again.shape != array.shape || again.dtype.descr != array.dtype.descr)
        std::abort();
    return 0;
}
