// The one case builder of the tests: a scatter case described with a builder, run on the
// reference and on every library configuration, compared bitwise (status, every byte of `out`'s
// backing store, inputs untouched). Example:
//
//   ScatterCase().op(ELEMENTS).dtype(F32).data({3, 3}, {...}).indices({2, 3}, {...})
//       .updates({2, 3}, {...}).reduction(ADD).expect({...}).run_all_backends();
//
// Values not given explicitly are random (seeded by .values()); the updates' shape is derived
// from the op's rule when not given.
#pragma once

#include <scatter/scatter.h>

#include <optional>
#include <string>
#include <vector>

#include "dtypes.h"
#include "host_tensor.h"
#include "run_case.h"
#include "tensor_values.h"

namespace scatter_test {

constexpr Op ELEMENTS = Op::elements;
constexpr Op ROWS = Op::rows;
constexpr Op ND = Op::nd;
constexpr scatter_reduction NONE = SCATTER_REDUCTION_NONE, ADD = SCATTER_REDUCTION_ADD,
                            SUB = SCATTER_REDUCTION_SUB, MUL = SCATTER_REDUCTION_MUL,
                            DIV = SCATTER_REDUCTION_DIV, MAX = SCATTER_REDUCTION_MAX,
                            MIN = SCATTER_REDUCTION_MIN, MEAN = SCATTER_REDUCTION_MEAN;
constexpr scatter_dtype F16 = SCATTER_DTYPE_F16, BF16 = SCATTER_DTYPE_BF16,
                        F32 = SCATTER_DTYPE_F32, F64 = SCATTER_DTYPE_F64, I8 = SCATTER_DTYPE_I8,
                        I16 = SCATTER_DTYPE_I16, I32 = SCATTER_DTYPE_I32, I64 = SCATTER_DTYPE_I64,
                        U8 = SCATTER_DTYPE_U8, U16 = SCATTER_DTYPE_U16, U32 = SCATTER_DTYPE_U32,
                        U64 = SCATTER_DTYPE_U64, BOOL = SCATTER_DTYPE_BOOL,
                        C64 = SCATTER_DTYPE_C64, C128 = SCATTER_DTYPE_C128,
                        OPAQUE = SCATTER_DTYPE_OPAQUE;
constexpr scatter_out_of_range OOR_ERROR = SCATTER_OUT_OF_RANGE_ERROR,
                               OOR_SKIP = SCATTER_OUT_OF_RANGE_SKIP,
                               OOR_CLAMP = SCATTER_OUT_OF_RANGE_CLAMP;

class ScatterCase {
public:
    ScatterCase& op(Op op);
    ScatterCase& dtype(scatter_dtype dtype, uint32_t opaque_size = 0);
    ScatterCase& index_dtype(scatter_dtype dtype);
    ScatterCase& data(Shape shape);
    ScatterCase& data(Shape shape, std::vector<double> values);
    ScatterCase& indices(Shape shape);
    ScatterCase& indices(Shape shape, std::vector<double> values);
    ScatterCase& updates(Shape shape, std::vector<double> values);
    ScatterCase& data_layout(Layout layout);
    ScatterCase& indices_layout(Layout layout);
    ScatterCase& updates_layout(Layout layout);
    ScatterCase& out_layout(Layout layout);
    ScatterCase& reduction(scatter_reduction reduction);
    ScatterCase& axis(int32_t axis);
    ScatterCase& out_of_range(scatter_out_of_range policy);
    ScatterCase& exclude_self(bool on = true);
    ScatterCase& in_place(bool on = true);
    ScatterCase& values(uint64_t seed, ValueProfile profile = {});
    ScatterCase& index_profile(IndexProfile profile);
    // The reference's result must equal these values (row-major, converted to the dtype).
    ScatterCase& expect(std::vector<double> values);
    ScatterCase& expect_status(scatter_status status);

    // A builder expression that reproduces this case.
    std::string describe() const;
    // The tensors and options of the call (values drawn from the seed where not given).
    CaseTensors materialize() const;

    // Run on the reference and the CPU configurations (threads 1, 2, 7, parallel_for).
    void run_cpu() const;
    // run_cpu() plus Vulkan when available (required with SCATTER_TEST_REQUIRE_VULKAN=1).
    void run_all_backends() const;
    // Only Vulkan against the reference.
    void run_vulkan() const;

private:
    scatter_options options() const;
    Shape updates_shape() const;
    void run(bool cpu, bool vulkan) const;

    Op op_ = Op::elements;
    scatter_dtype dtype_ = SCATTER_DTYPE_F32;
    uint32_t opaque_size_ = 0;
    scatter_dtype index_dtype_ = SCATTER_DTYPE_I64;
    Shape data_shape_, indices_shape_;
    std::optional<Shape> updates_shape_;
    std::optional<std::vector<double>> data_values_, indices_values_, updates_values_;
    Layout data_layout_, indices_layout_, updates_layout_, out_layout_;
    scatter_reduction reduction_ = SCATTER_REDUCTION_NONE;
    int32_t axis_ = 0;
    scatter_out_of_range out_of_range_ = SCATTER_OUT_OF_RANGE_ERROR;
    bool exclude_self_ = false;
    bool in_place_ = false;
    uint64_t value_seed_ = 1;
    ValueProfile value_profile_;
    IndexProfile index_profile_;
    std::optional<std::vector<double>> expected_;
    std::optional<scatter_status> expected_status_;
};

}  // namespace scatter_test
