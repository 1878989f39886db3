#include "scatter_case.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <sstream>

#include "test_backends.h"

namespace scatter_test {

namespace {

std::string hex(const uint8_t* p, size_t n) {
    std::string s;
    char buf[4];
    for (size_t i = n; i-- > 0;) {  // most significant byte first (little endian)
        std::snprintf(buf, sizeof buf, "%02x", p[i]);
        s += buf;
    }
    return s;
}

std::string coords_of(const Shape& shape, size_t linear) {
    std::vector<int64_t> c(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
        c[d] = int64_t(linear % size_t(shape[d]));
        linear /= size_t(shape[d]);
    }
    return describe_shape(c);
}

// Names the first element whose bytes differ, or a stray write between elements.
std::string first_difference(const HostTensor& expected, const HostTensor& got) {
    std::vector<uint8_t> a = expected.logical_bytes(), b = got.logical_bytes();
    size_t size = expected.element_size();
    size_t differing = 0;
    std::string first;
    for (size_t i = 0; i + size <= a.size(); i += size) {
        if (std::memcmp(&a[i], &b[i], size) == 0) continue;
        if (differing++ == 0)
            first = "out" + coords_of(expected.shape(), i / size) + ": expected 0x" +
                    hex(&a[i], size) + ", got 0x" + hex(&b[i], size);
    }
    if (!differing) return "bytes between the elements of out were written";
    first += " (" + std::to_string(differing) + " element(s) differ)";
    if (a.size() / size <= 32) {  // small: show everything, row-major
        first += "\n  expected:";
        for (size_t i = 0; i < a.size(); i += size) first += " " + hex(&a[i], size);
        first += "\n  got:     ";
        for (size_t i = 0; i < b.size(); i += size) first += " " + hex(&b[i], size);
    }
    return first;
}

void compare(const std::string& backend, const Outcome& reference, const Outcome& library) {
    if (library.status != reference.status) {
        ADD_FAILURE() << backend << ": status " << scatter_status_name(library.status) << " ("
                      << library.message << "), reference says "
                      << scatter_status_name(reference.status);
    }
    if (!library.stray_write.empty()) ADD_FAILURE() << backend << ": " << library.stray_write;
    const HostTensor& want = reference.tensors.destination();
    const HostTensor& got = library.tensors.destination();
    if (want.storage() != got.storage())
        ADD_FAILURE() << backend << ": " << first_difference(want, got);
}

// A Vulkan call the device's loop limit refuses (src/vulkan/vk_loop_limit.cpp, llvmpipe: "N
// updates reach one target, more than the M this call can apply ...", or on the owner-computes
// path "N updates fall in one column, which ..., more than the M ...") is the documented outcome
// where the reference succeeds: accepted when the message states N > M and out is unchanged. The
// limits themselves are vulkan.LoopLimit's to test.
bool is_loop_limit_refusal(const Outcome& reference, const Outcome& library, const CaseTensors& original) {
    if (reference.status != SCATTER_OK || library.status != SCATTER_ERROR_UNSUPPORTED) return false;
    unsigned long long updates = 0, limit = 0;
    const char* message = library.message.c_str();
    const char* more = std::strstr(message, "more than the ");
    const bool stated = std::sscanf(message, "%llu updates ", &updates) == 1 && more != nullptr &&
                        std::sscanf(more, "more than the %llu", &limit) == 1 &&
                        (library.message.find(" updates reach one target, ") != std::string::npos ||
                         library.message.find(" updates fall in one column, ") != std::string::npos);
    if (!stated || updates <= limit || library.message.find("ends any shader loop") == std::string::npos) return false;
    if (library.tensors.destination().storage() != original.destination().storage()) {
        ADD_FAILURE() << "vulkan: refused (" << library.message << ") but wrote out";
        return true;
    }
    std::printf("vulkan refused a case at its loop limit: %s\n", library.message.c_str());
    return true;
}

}  // namespace

ScatterCase& ScatterCase::op(Op op) { op_ = op; return *this; }
ScatterCase& ScatterCase::dtype(scatter_dtype dtype, uint32_t opaque_size) {
    dtype_ = dtype;
    opaque_size_ = opaque_size;
    return *this;
}
ScatterCase& ScatterCase::index_dtype(scatter_dtype dtype) { index_dtype_ = dtype; return *this; }
ScatterCase& ScatterCase::data(Shape shape) { data_shape_ = std::move(shape); return *this; }
ScatterCase& ScatterCase::data(Shape shape, std::vector<double> values) {
    data_shape_ = std::move(shape);
    data_values_ = std::move(values);
    return *this;
}
ScatterCase& ScatterCase::indices(Shape shape) { indices_shape_ = std::move(shape); return *this; }
ScatterCase& ScatterCase::indices(Shape shape, std::vector<double> values) {
    indices_shape_ = std::move(shape);
    indices_values_ = std::move(values);
    return *this;
}
ScatterCase& ScatterCase::updates(Shape shape, std::vector<double> values) {
    updates_shape_ = std::move(shape);
    updates_values_ = std::move(values);
    return *this;
}
ScatterCase& ScatterCase::data_layout(Layout l) { data_layout_ = l; return *this; }
ScatterCase& ScatterCase::indices_layout(Layout l) { indices_layout_ = l; return *this; }
ScatterCase& ScatterCase::updates_layout(Layout l) { updates_layout_ = l; return *this; }
ScatterCase& ScatterCase::out_layout(Layout l) { out_layout_ = l; return *this; }
ScatterCase& ScatterCase::reduction(scatter_reduction r) { reduction_ = r; return *this; }
ScatterCase& ScatterCase::axis(int32_t a) { axis_ = a; return *this; }
ScatterCase& ScatterCase::out_of_range(scatter_out_of_range p) { out_of_range_ = p; return *this; }
ScatterCase& ScatterCase::exclude_self(bool on) { exclude_self_ = on; return *this; }
ScatterCase& ScatterCase::in_place(bool on) { in_place_ = on; return *this; }
ScatterCase& ScatterCase::values(uint64_t seed, ValueProfile profile) {
    value_seed_ = seed;
    value_profile_ = profile;
    return *this;
}
ScatterCase& ScatterCase::index_profile(IndexProfile p) { index_profile_ = p; return *this; }
ScatterCase& ScatterCase::expect(std::vector<double> values) {
    expected_ = std::move(values);
    return *this;
}
ScatterCase& ScatterCase::expect_status(scatter_status status) {
    expected_status_ = status;
    return *this;
}

scatter_options ScatterCase::options() const {
    scatter_options o = SCATTER_OPTIONS_INIT;
    o.axis = axis_;
    o.reduction = reduction_;
    o.out_of_range = out_of_range_;
    o.flags = exclude_self_ ? SCATTER_OPTION_EXCLUDE_SELF : 0u;
    return o;
}

Shape ScatterCase::updates_shape() const {
    if (updates_shape_) return *updates_shape_;
    int64_t rank = int64_t(data_shape_.size());
    size_t axis = size_t(axis_ < 0 ? axis_ + rank : axis_);
    if (op_ == ELEMENTS) return indices_shape_;
    if (op_ == ROWS) {
        Shape s(data_shape_.begin(), data_shape_.begin() + long(axis));
        s.insert(s.end(), indices_shape_.begin(), indices_shape_.end());
        s.insert(s.end(), data_shape_.begin() + long(axis) + 1, data_shape_.end());
        return s;
    }
    size_t k = size_t(indices_shape_.back());
    Shape s(indices_shape_.begin(), indices_shape_.end() - 1);
    s.insert(s.end(), data_shape_.begin() + long(k), data_shape_.end());
    return s;
}

CaseTensors ScatterCase::materialize() const {
    Rng rng(value_seed_);
    CaseTensors t;
    t.in_place = in_place_;
    Layout data_layout = data_layout_;
    if (in_place_) data_layout.broadcast = false;  // data is written then
    t.op = op_;
    t.options = options();
    t.data = HostTensor(dtype_, data_shape_, opaque_size_, data_layout);
    t.indices = HostTensor(index_dtype_, indices_shape_, 0, indices_layout_);
    t.updates = HostTensor(dtype_, updates_shape(), opaque_size_, updates_layout_);
    if (data_values_) fill_values(t.data, *data_values_);
    else fill_random_values(t.data, value_profile_, rng);
    if (updates_values_) {
        fill_values(t.updates, *updates_values_);
    } else {
        ValueProfile divisors = value_profile_;
        divisors.avoid_zero = reduction_ == SCATTER_REDUCTION_DIV && !value_profile_.plant_zero;
        fill_random_values(t.updates, divisors, rng);
    }
    if (indices_values_) {
        fill_values(t.indices, *indices_values_);
    } else {
        int64_t rank = int64_t(data_shape_.size());
        size_t axis = size_t(axis_ < 0 ? axis_ + rank : axis_);
        const Shape& ds = data_shape_;
        size_t last = indices_shape_.empty() ? 0 : indices_shape_.size() - 1;
        auto extent = [&](const int64_t* p) {
            return op_ == ND ? ds[size_t(p[last])] : ds[axis];
        };
        fill_random_indices(t.indices, extent, index_profile_, rng);
    }
    if (!in_place_) {
        Layout out_layout = out_layout_;
        out_layout.broadcast = false;
        t.out = HostTensor(dtype_, data_shape_, opaque_size_, out_layout);
        for (auto& byte : t.out.storage()) byte = uint8_t(rng());  // canary: must stay unless written
    }
    return t;
}

std::string ScatterCase::describe() const {
    std::ostringstream s;
    s << "ScatterCase().op(" << op_label(op_) << ").dtype(" << dtype_label(dtype_);
    if (dtype_ == SCATTER_DTYPE_OPAQUE) s << ", " << opaque_size_;
    s << ").index_dtype(" << dtype_label(index_dtype_) << ")"
      << ".data(" << describe_shape(data_shape_) << (data_values_ ? ", {...}" : "") << ")"
      << ".indices(" << describe_shape(indices_shape_) << (indices_values_ ? ", {...}" : "") << ")"
      << ".reduction(" << reduction_label(reduction_) << ").axis(" << axis_ << ")"
      << ".out_of_range(" << policy_label(out_of_range_) << ")";
    if (exclude_self_) s << ".exclude_self()";
    if (in_place_) s << ".in_place()";
    s << ".data_layout(Layout::" << data_layout_.describe() << ")"
      << ".indices_layout(Layout::" << indices_layout_.describe() << ")"
      << ".updates_layout(Layout::" << updates_layout_.describe() << ")"
      << ".out_layout(Layout::" << out_layout_.describe() << ")"
      << ".values(" << value_seed_ << ", {specials=" << value_profile_.specials
      << ", plant_zero=" << value_profile_.plant_zero << ", loose_bools=" << value_profile_.loose_bools
      << "}).index_profile({hot=" << index_profile_.hot_targets
      << ", negative=" << index_profile_.negative_rate
      << ", out_of_range=" << index_profile_.out_of_range_rate
      << ", extremes=" << index_profile_.extremes << "})";
    return s.str();
}

void ScatterCase::run(bool cpu, bool vulkan) const {
    SCOPED_TRACE(describe());
    CaseTensors original = materialize();
    Outcome reference = run_case(nullptr, original);
    if (reference.status != SCATTER_OK &&
        reference.tensors.destination().storage() != original.destination().storage())
        ADD_FAILURE() << "the reference wrote out although it failed";
    if (expected_status_) {
        EXPECT_EQ(scatter_status_name(reference.status), scatter_status_name(*expected_status_))
            << "reference status";
    } else if (expected_) {
        EXPECT_EQ(scatter_status_name(reference.status), scatter_status_name(SCATTER_OK));
    }
    if (expected_ && reference.status == SCATTER_OK) {
        HostTensor want(dtype_, data_shape_, opaque_size_);
        fill_values(want, *expected_);
        if (want.logical_bytes() != reference.tensors.destination().logical_bytes())
            ADD_FAILURE() << "reference: " << first_difference(want, reference.tensors.destination());
    }
    if (cpu) {
        for (const TestBackend& b : cpu_backends()) {
            if (!b.context) {
                ADD_FAILURE() << b.name;
                continue;
            }
            compare(b.name, reference, run_case(b.context, original));
        }
    }
    if (vulkan && vulkan_allowed_by_environment()) {
        std::string why;
        scatter_context context = vulkan_context(&why);
        if (context) {
            Outcome library = run_case(context, original);
            if (!library.stray_write.empty()) ADD_FAILURE() << "vulkan: " << library.stray_write;
            else if (!is_loop_limit_refusal(reference, library, original)) compare("vulkan", reference, library);
        }
        else if (vulkan_required())
            ADD_FAILURE() << "SCATTER_TEST_REQUIRE_VULKAN=1 but Vulkan is unavailable: " << why;
    }
}

void ScatterCase::run_cpu() const { run(true, false); }
void ScatterCase::run_all_backends() const { run(true, true); }
void ScatterCase::run_vulkan() const { run(false, true); }

}  // namespace scatter_test
