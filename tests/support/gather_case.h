// GatherCase: the builder of gather cases (scatter_gather_elements / _rows / _nd), run on the
// oracle (tests/reference/gather_reference.h) and on every CPU configuration of
// test_backends.h (or on its Vulkan context), on host tensors and on buffer tensors, compared bitwise: the status, every
// byte of out's backing store (the bytes between strided elements included), inputs untouched.
//
//   GatherCase().op(ROWS).dtype(F32).data({3, 2}, {...}).indices({2}, {2, 0}).expect({...}).run_cpu();
//
// Values not given are random (seeded by .values()); out's shape follows from the op's rule.
#pragma once

#include <scatter/scatter.h>

#include <optional>
#include <string>
#include <vector>

#include "host_tensor.h"
#include "ops.h"
#include "tensor_values.h"

namespace scatter_test {

constexpr scatter_out_of_range OOR_FILL = SCATTER_OUT_OF_RANGE_FILL;

class GatherCase {
public:
    GatherCase& op(Op op);
    GatherCase& dtype(scatter_dtype dtype, uint32_t opaque_size = 0);
    GatherCase& index_dtype(scatter_dtype dtype);
    GatherCase& data(Shape shape);
    GatherCase& data(Shape shape, std::vector<double> values);
    GatherCase& indices(Shape shape);
    GatherCase& indices(Shape shape, std::vector<double> values);
    GatherCase& axis(int32_t axis);
    GatherCase& batch_dims(uint32_t batch_dims);
    GatherCase& out_of_range(scatter_out_of_range policy);
    // FILL with an explicit value: random bytes from the value seed, or `value` when given;
    // without this call fill_value is NULL (zeros).
    GatherCase& fill_value();
    GatherCase& fill_value(double value);
    GatherCase& data_layout(Layout layout);
    GatherCase& indices_layout(Layout layout);
    GatherCase& out_layout(Layout layout);
    GatherCase& values(uint64_t seed, ValueProfile profile = {});
    GatherCase& index_profile(IndexProfile profile);
    // The reference's out must equal these values (row-major, converted to the dtype).
    GatherCase& expect(std::vector<double> values);
    GatherCase& expect_status(scatter_status status);

    // data.shape[:axis] + indices.shape + ... as the op's rule says.
    Shape out_shape() const;
    // A builder expression that reproduces this case.
    std::string describe() const;
    // The oracle against the CPU contexts of test_backends.h (threads 1, 2, 7, parallel_for) on
    // host tensors, and against one of them on buffer tensors.
    void run_cpu() const;
    // The oracle against the Vulkan context of test_backends.h (lavapipe in CI) on host tensors
    // and on buffer tensors of that context, and against one CPU context; nothing on Vulkan when
    // it is unavailable (a failure under SCATTER_TEST_REQUIRE_VULKAN=1).
    void run_vulkan() const;

private:
    struct Tensors;
    Tensors materialize() const;
    void run(bool cpu, bool vulkan) const;

    Op op_ = Op::elements;
    scatter_dtype dtype_ = SCATTER_DTYPE_F32;
    uint32_t opaque_size_ = 0;
    scatter_dtype index_dtype_ = SCATTER_DTYPE_I64;
    Shape data_shape_, indices_shape_;
    std::optional<std::vector<double>> data_values_, indices_values_;
    int32_t axis_ = 0;
    uint32_t batch_dims_ = 0;
    scatter_out_of_range out_of_range_ = SCATTER_OUT_OF_RANGE_ERROR;
    bool fill_given_ = false;
    std::optional<double> fill_number_;
    Layout data_layout_, indices_layout_, out_layout_;
    uint64_t value_seed_ = 1;
    ValueProfile value_profile_;
    IndexProfile index_profile_;
    std::optional<std::vector<double>> expected_;
    std::optional<scatter_status> expected_status_;
};

// The library's gather entry point for op.
scatter_status run_gather_op(Op op, scatter_context context, const scatter_tensor* data,
                             const scatter_tensor* indices, const scatter_gather_options* options,
                             const scatter_tensor* out);

}  // namespace scatter_test
