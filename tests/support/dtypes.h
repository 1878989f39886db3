// The dtype table of the tests, written independently of src/ (the oracle must not share the
// library's): element sizes, which reductions a dtype allows, the enum labels builder
// expressions print, and writing a value given as a double as one element of any dtype.
#pragma once

#include <scatter/scatter.h>

#include <cstdint>
#include <vector>

namespace scatter_test {

// Bytes of one element of a fixed-size dtype; 0 for OPAQUE and invalid values.
size_t dtype_size(scatter_dtype dtype);
// Bytes of one element, with `opaque_size` for OPAQUE.
uint32_t element_bytes(scatter_dtype dtype, uint32_t opaque_size);

bool is_integer(scatter_dtype dtype);  // I8..U64
bool is_float(scatter_dtype dtype);    // F16, BF16, F32, F64 (not complex)
bool reduction_legal(scatter_dtype dtype, scatter_reduction reduction);

// The enumerator without its prefix ("F32", "ADD", "OOR_SKIP"), as builder expressions spell it.
const char* dtype_label(scatter_dtype dtype);
const char* reduction_label(scatter_reduction reduction);
const char* policy_label(scatter_out_of_range policy);

// Every data dtype, in enum order, and the integer ones.
const std::vector<scatter_dtype>& all_data_dtypes();
const std::vector<scatter_dtype>& integer_dtypes();

// Writes `value` as one element of `dtype` at dst (element_bytes(dtype, opaque_size) bytes):
// floats rounded to nearest even (f16/bf16 too), integers through int64 (wrapping), complex
// with a zero imaginary part, bool as value != 0, opaque as its low byte repeated.
void encode_value(scatter_dtype dtype, uint32_t opaque_size, double value, uint8_t* dst);

}  // namespace scatter_test
