// One C-API call decoded from fuzzer bytes: the operation, its options and four tensors, each
// with memory sized to its exact extent, so AddressSanitizer reports any byte the library reads
// or writes outside a tensor. Most inputs decode to shapes that fit the op's rules (with the
// occasional broken one), so the fuzzer spends its time in the kernels as well as in validation.
#pragma once

#include <scatter/scatter.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fuzz_api {

// A tensor's descriptor fields and its memory image. Element 0 lies `offset` bytes into the
// image; the image covers every element's bytes and nothing more. A tensor whose extent cannot
// be addressed (its byte offsets overflow int64) gets a one-element image: the library must
// refuse it, and ASan reports it if it does not.
struct TensorCase {
    scatter_dtype dtype = SCATTER_DTYPE_UNDEFINED;
    uint32_t element_size = 0;
    std::vector<int64_t> shape;
    std::vector<int64_t> strides;  // empty: NULL strides (row-major)
    bool null_pointer = false;     // an empty tensor given a NULL pointer
    size_t offset = 0;
    std::vector<uint8_t> image;
};

struct ApiCase {
    scatter_op op = SCATTER_OP_ELEMENTS;
    scatter_options options = SCATTER_OPTIONS_INIT;
    bool null_options = false;
    bool in_place = false;  // out is data: same memory, same strides
    TensorCase data, indices, updates, out;
};

// Decodes `size` bytes into a call. Returns false for inputs not worth running (a tensor larger
// than the fuzzer's memory budget that the library could legitimately accept).
bool decode_case(const uint8_t* bytes, size_t size, ApiCase& out_case);

// One line per tensor and option, for a failure report.
std::string describe(const ApiCase& c);

}  // namespace fuzz_api
