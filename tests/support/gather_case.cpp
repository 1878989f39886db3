#include "gather_case.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <sstream>

#include "dtypes.h"
#include "gather_reference.h"
#include "guarded_buffer.h"
#include "test_backends.h"

namespace scatter_test {

struct GatherCase::Tensors {
    HostTensor data, indices, out;
    std::vector<uint8_t> fill;  // empty: fill_value NULL
    scatter_gather_options options = SCATTER_GATHER_OPTIONS_INIT;
};

namespace {

struct GatherOutcome {
    scatter_status status = SCATTER_OK;
    std::string message;
    HostTensor out;
    std::string stray_write;  // an input or a guard region that changed
};

std::string hex(const uint8_t* p, size_t n) {
    std::string s;
    char buf[4];
    for (size_t i = n; i-- > 0;) {
        std::snprintf(buf, sizeof buf, "%02x", p[i]);
        s += buf;
    }
    return s;
}

// Names the first element of out whose bytes differ (or the gaps between them).
std::string first_difference(const HostTensor& want, const HostTensor& got) {
    const std::vector<uint8_t> a = want.logical_bytes(), b = got.logical_bytes();
    const size_t size = want.element_size();
    for (size_t i = 0; i + size <= a.size(); i += size)
        if (std::memcmp(&a[i], &b[i], size) != 0)
            return "out element " + std::to_string(i / size) + " (row-major): expected 0x" + hex(&a[i], size) +
                   ", got 0x" + hex(&b[i], size);
    return "bytes between the elements of out were written";
}

// One call on a private copy of the tensors: the oracle when context is NULL.
GatherOutcome run_gather(Op op, scatter_context context, const HostTensor& data, const HostTensor& indices,
                         const HostTensor& out, scatter_gather_options options, bool in_buffers) {
    GatherOutcome o;
    HostTensor d = data, i = indices;
    o.out = out;
    if (!in_buffers || context == nullptr) {
        const scatter_tensor dt = d.descriptor(), it = i.descriptor(), ot = o.out.descriptor();
        o.status = context == nullptr ? scatter_reference::gather(op, &dt, &it, &options, &ot)
                                      : run_gather_op(op, context, &dt, &it, &options, &ot);
    } else {
        GuardedBuffer db, ib, ob;
        if (!db.create(context, d) || !ib.create(context, i) || !ob.create(context, o.out)) {
            o.status = SCATTER_ERROR_INTERNAL;
            o.stray_write = std::string("creating the test's buffers failed: ") + scatter_last_error_message();
            return o;
        }
        const scatter_tensor dt = db.descriptor(d), it = ib.descriptor(i), ot = ob.descriptor(o.out);
        o.status = run_gather_op(op, context, &dt, &it, &options, &ot);
        db.read(&d, &o.stray_write);
        ib.read(&i, &o.stray_write);
        ob.read(&o.out, &o.stray_write);
    }
    if (o.status != SCATTER_OK && context != nullptr) o.message = scatter_last_error_message();
    if (o.stray_write.empty() && d.storage() != data.storage()) o.stray_write = "data changed";
    if (o.stray_write.empty() && i.storage() != indices.storage()) o.stray_write = "indices changed";
    return o;
}

void compare(const std::string& backend, const GatherOutcome& reference, const GatherOutcome& library) {
    if (library.status != reference.status)
        ADD_FAILURE() << backend << ": status " << scatter_status_name(library.status) << " (" << library.message
                      << "), reference says " << scatter_status_name(reference.status);
    else if (library.status != SCATTER_OK && library.message.empty())
        ADD_FAILURE() << backend << ": failed without a message";
    if (!library.stray_write.empty()) ADD_FAILURE() << backend << ": " << library.stray_write;
    if (reference.out.storage() != library.out.storage())
        ADD_FAILURE() << backend << ": " << first_difference(reference.out, library.out);
}

}  // namespace

scatter_status run_gather_op(Op op, scatter_context context, const scatter_tensor* data,
                             const scatter_tensor* indices, const scatter_gather_options* options,
                             const scatter_tensor* out) {
    switch (op) {
        case Op::elements: return scatter_gather_elements(context, data, indices, options, out);
        case Op::rows: return scatter_gather_rows(context, data, indices, options, out);
        default: return scatter_gather_nd(context, data, indices, options, out);
    }
}

GatherCase& GatherCase::op(Op op) { op_ = op; return *this; }
GatherCase& GatherCase::dtype(scatter_dtype dtype, uint32_t opaque_size) {
    dtype_ = dtype;
    opaque_size_ = opaque_size;
    return *this;
}
GatherCase& GatherCase::index_dtype(scatter_dtype dtype) { index_dtype_ = dtype; return *this; }
GatherCase& GatherCase::data(Shape shape) { data_shape_ = std::move(shape); return *this; }
GatherCase& GatherCase::data(Shape shape, std::vector<double> values) {
    data_shape_ = std::move(shape);
    data_values_ = std::move(values);
    return *this;
}
GatherCase& GatherCase::indices(Shape shape) { indices_shape_ = std::move(shape); return *this; }
GatherCase& GatherCase::indices(Shape shape, std::vector<double> values) {
    indices_shape_ = std::move(shape);
    indices_values_ = std::move(values);
    return *this;
}
GatherCase& GatherCase::axis(int32_t a) { axis_ = a; return *this; }
GatherCase& GatherCase::batch_dims(uint32_t b) { batch_dims_ = b; return *this; }
GatherCase& GatherCase::out_of_range(scatter_out_of_range p) { out_of_range_ = p; return *this; }
GatherCase& GatherCase::fill_value() { fill_given_ = true; return *this; }
GatherCase& GatherCase::fill_value(double value) {
    fill_given_ = true;
    fill_number_ = value;
    return *this;
}
GatherCase& GatherCase::data_layout(Layout l) { data_layout_ = l; return *this; }
GatherCase& GatherCase::indices_layout(Layout l) { indices_layout_ = l; return *this; }
GatherCase& GatherCase::out_layout(Layout l) { out_layout_ = l; return *this; }
GatherCase& GatherCase::values(uint64_t seed, ValueProfile profile) {
    value_seed_ = seed;
    value_profile_ = profile;
    return *this;
}
GatherCase& GatherCase::index_profile(IndexProfile p) { index_profile_ = p; return *this; }
GatherCase& GatherCase::expect(std::vector<double> values) { expected_ = std::move(values); return *this; }
GatherCase& GatherCase::expect_status(scatter_status status) { expected_status_ = status; return *this; }

Shape GatherCase::out_shape() const {
    const int64_t rank = int64_t(data_shape_.size());
    const size_t axis = size_t(axis_ < 0 ? axis_ + rank : axis_);
    if (op_ == Op::elements) return indices_shape_;
    if (op_ == Op::rows) {
        Shape s(data_shape_.begin(), data_shape_.begin() + long(axis));
        s.insert(s.end(), indices_shape_.begin(), indices_shape_.end());
        s.insert(s.end(), data_shape_.begin() + long(axis) + 1, data_shape_.end());
        return s;
    }
    Shape s(indices_shape_.begin(), indices_shape_.end() - 1);
    s.insert(s.end(), data_shape_.begin() + long(batch_dims_) + long(indices_shape_.back()), data_shape_.end());
    return s;
}

GatherCase::Tensors GatherCase::materialize() const {
    Rng rng(value_seed_);
    Tensors t;
    t.options.axis = axis_;
    t.options.batch_dims = batch_dims_;
    t.options.out_of_range = out_of_range_;
    t.data = HostTensor(dtype_, data_shape_, opaque_size_, data_layout_);
    t.indices = HostTensor(index_dtype_, indices_shape_, 0, indices_layout_);
    if (data_values_) fill_values(t.data, *data_values_);
    else fill_random_values(t.data, value_profile_, rng);
    if (indices_values_) {
        fill_values(t.indices, *indices_values_);
    } else {
        const int64_t rank = int64_t(data_shape_.size());
        const size_t axis = size_t(axis_ < 0 ? axis_ + rank : axis_);
        const size_t last = indices_shape_.empty() ? 0 : indices_shape_.size() - 1;
        auto extent = [&](const int64_t* p) {
            return op_ == Op::nd ? data_shape_[batch_dims_ + size_t(p[last])] : data_shape_[axis];
        };
        fill_random_indices(t.indices, extent, index_profile_, rng);
    }
    Layout out_layout = out_layout_;
    out_layout.broadcast = false;
    t.out = HostTensor(dtype_, out_shape(), opaque_size_, out_layout);
    for (auto& byte : t.out.storage()) byte = uint8_t(rng());  // canary: must stay unless written
    if (fill_given_) {
        HostTensor value(dtype_, {}, opaque_size_);
        if (fill_number_) value.set(0, *fill_number_);
        else fill_random_values(value, value_profile_, rng);
        t.fill = value.storage();
    }
    return t;
}

std::string GatherCase::describe() const {
    std::ostringstream s;
    s << "GatherCase().op(" << op_label(op_) << ").dtype(" << dtype_label(dtype_);
    if (dtype_ == SCATTER_DTYPE_OPAQUE) s << ", " << opaque_size_;
    s << ").index_dtype(" << dtype_label(index_dtype_) << ")"
      << ".data(" << describe_shape(data_shape_) << (data_values_ ? ", {...}" : "") << ")"
      << ".indices(" << describe_shape(indices_shape_) << (indices_values_ ? ", {...}" : "") << ")"
      << ".axis(" << axis_ << ").batch_dims(" << batch_dims_ << ").out_of_range(" << policy_label(out_of_range_)
      << ")";
    if (fill_given_) s << ".fill_value(" << (fill_number_ ? std::to_string(*fill_number_) : "") << ")";
    s << ".data_layout(Layout::" << data_layout_.describe() << ")"
      << ".indices_layout(Layout::" << indices_layout_.describe() << ")"
      << ".out_layout(Layout::" << out_layout_.describe() << ")"
      << ".values(" << value_seed_ << ", {specials=" << value_profile_.specials
      << ", loose_bools=" << value_profile_.loose_bools << "}).index_profile({hot=" << index_profile_.hot_targets
      << ", negative=" << index_profile_.negative_rate << ", out_of_range=" << index_profile_.out_of_range_rate
      << ", extremes=" << index_profile_.extremes << "})";
    return s.str();
}

void GatherCase::run_cpu() const { run(true, false); }
void GatherCase::run_vulkan() const { run(false, true); }

void GatherCase::run(bool cpu, bool vulkan) const {
    SCOPED_TRACE(describe());
    Tensors t = materialize();
    t.options.fill_value = t.fill.empty() ? nullptr : t.fill.data();
    const GatherOutcome reference = run_gather(op_, nullptr, t.data, t.indices, t.out, t.options, false);
    if (reference.status != SCATTER_OK && reference.out.storage() != t.out.storage())
        ADD_FAILURE() << "the reference wrote out although it failed";
    if (expected_status_) {
        EXPECT_STREQ(scatter_status_name(reference.status), scatter_status_name(*expected_status_)) << "reference status";
    }
    if (expected_ && reference.status == SCATTER_OK) {
        HostTensor want(dtype_, out_shape(), opaque_size_);
        fill_values(want, *expected_);
        if (want.logical_bytes() != reference.out.logical_bytes())
            ADD_FAILURE() << "reference: " << first_difference(want, reference.out);
    } else if (expected_) {
        ADD_FAILURE() << "the reference failed with " << scatter_status_name(reference.status);
    }
    const std::vector<TestBackend> backends = cpu_backends();
    GatherOutcome first_cpu;  // whose message Vulkan's must equal
    for (size_t b = 0; b < backends.size() && (cpu || b == 0); ++b) {  // Vulkan's run: one CPU context
        if (!backends[b].context) {
            ADD_FAILURE() << backends[b].name;
            continue;
        }
        GatherOutcome library = run_gather(op_, backends[b].context, t.data, t.indices, t.out, t.options, false);
        compare(backends[b].name, reference, library);
        if (b == 0) first_cpu = library;
    }
    // Buffer tensors on one context (host memory buffers of the CPU backend).
    if (cpu && backends.size() > 1 && backends[1].context)
        compare(backends[1].name + ", buffers", reference,
                run_gather(op_, backends[1].context, t.data, t.indices, t.out, t.options, true));
    if (!vulkan) return;
    std::string why;
    scatter_context context = vulkan_context(&why);
    if (!context) {
        if (vulkan_required()) ADD_FAILURE() << "SCATTER_TEST_REQUIRE_VULKAN=1 but Vulkan is unavailable: " << why;
        return;
    }
    for (bool in_buffers : {false, true}) {
        const std::string name = in_buffers ? "vulkan, buffers" : "vulkan";
        const GatherOutcome library = run_gather(op_, context, t.data, t.indices, t.out, t.options, in_buffers);
        compare(name, reference, library);
        if (library.status == first_cpu.status && library.message != first_cpu.message)
            ADD_FAILURE() << name << ": message \"" << library.message << "\", the CPU's \"" << first_cpu.message << "\"";
    }
}

}  // namespace scatter_test
