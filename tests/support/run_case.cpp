#include "run_case.h"

#include <cstring>
#include <vector>

#include "scatter_reference.h"

namespace scatter_test {
namespace {

constexpr size_t kGuardBytes = 256;
constexpr uint8_t kGuardByte = 0xA5;

// One tensor's backing store in its own buffer: guard | storage | guard.
class GuardedBuffer {
public:
    GuardedBuffer() = default;
    GuardedBuffer(const GuardedBuffer&) = delete;
    GuardedBuffer& operator=(const GuardedBuffer&) = delete;
    ~GuardedBuffer() { scatter_buffer_destroy(buffer_); }

    bool create(scatter_context context, const HostTensor& t) {
        bytes_ = t.storage().size();
        std::vector<uint8_t> all(bytes_ + 2 * kGuardBytes, kGuardByte);
        if (bytes_) std::memcpy(all.data() + kGuardBytes, t.storage().data(), bytes_);
        return scatter_buffer_create(context, all.size(), &buffer_) == SCATTER_OK &&
               scatter_buffer_write(buffer_, 0, all.data(), all.size()) == SCATTER_OK;
    }

    // The descriptor of `t`'s view inside this buffer.
    scatter_tensor descriptor(const HostTensor& t) const {
        scatter_tensor d = t.descriptor();
        d.data = nullptr;
        d.buffer = buffer_;
        d.byte_offset = uint64_t(kGuardBytes + size_t(t.offset()) * t.element_size());
        return d;
    }

    // Reads the storage back into t; names a changed guard byte in *stray_write.
    void read(HostTensor* t, std::string* stray_write) const {
        std::vector<uint8_t> all(bytes_ + 2 * kGuardBytes);
        if (scatter_buffer_read(buffer_, 0, all.data(), all.size()) != SCATTER_OK) {
            *stray_write = std::string("reading a buffer back failed: ") + scatter_last_error_message();
            return;
        }
        for (size_t b = 0; b < kGuardBytes; ++b)
            if (all[b] != kGuardByte || all[kGuardBytes + bytes_ + b] != kGuardByte)
                *stray_write = "a guard region around a buffer changed";
        if (bytes_) std::memcpy(t->storage().data(), all.data() + kGuardBytes, bytes_);
    }

private:
    scatter_buffer buffer_ = nullptr;
    size_t bytes_ = 0;
};

scatter_status call(scatter_context context, const CaseTensors& c, const scatter_tensor* data,
                    const scatter_tensor* indices, const scatter_tensor* updates, const scatter_tensor* out) {
    if (context == nullptr) return scatter_reference::run(c.op, data, indices, updates, &c.options, out);
    return run_op(c.op, context, data, indices, updates, &c.options, out);
}

void run_on_host(scatter_context context, Outcome* o) {
    CaseTensors& t = o->tensors;
    scatter_tensor data = t.data.descriptor(), indices = t.indices.descriptor(),
                   updates = t.updates.descriptor();
    scatter_tensor out = t.in_place ? data : t.out.descriptor();
    o->status = call(context, t, &data, &indices, &updates, &out);
}

void run_in_buffers(scatter_context context, Outcome* o) {
    CaseTensors& t = o->tensors;
    GuardedBuffer data, indices, updates, out;
    if (!data.create(context, t.data) || !indices.create(context, t.indices) ||
        !updates.create(context, t.updates) || (!t.in_place && !out.create(context, t.out))) {
        o->status = SCATTER_ERROR_INTERNAL;
        o->stray_write = std::string("creating the test's buffers failed: ") + scatter_last_error_message();
        return;
    }
    scatter_tensor d = data.descriptor(t.data), i = indices.descriptor(t.indices),
                   u = updates.descriptor(t.updates);
    scatter_tensor w = t.in_place ? d : out.descriptor(t.out);
    o->status = call(context, t, &d, &i, &u, &w);
    data.read(&t.data, &o->stray_write);
    indices.read(&t.indices, &o->stray_write);
    updates.read(&t.updates, &o->stray_write);
    if (!t.in_place) out.read(&t.out, &o->stray_write);
}

}  // namespace

scatter_status run_op(Op op, scatter_context context, const scatter_tensor* data,
                      const scatter_tensor* indices, const scatter_tensor* updates,
                      const scatter_options* options, const scatter_tensor* out) {
    switch (op) {
        case Op::elements: return scatter_elements(context, data, indices, updates, options, out);
        case Op::rows: return scatter_rows(context, data, indices, updates, options, out);
        default: return scatter_nd(context, data, indices, updates, options, out);
    }
}

Outcome run_case(scatter_context context, const CaseTensors& tensors, Placement placement) {
    Outcome o;
    o.tensors = tensors;
    if (placement == Placement::buffers && context != nullptr) run_in_buffers(context, &o);
    else run_on_host(context, &o);
    if (o.status != SCATTER_OK && context != nullptr) o.message = scatter_last_error_message();
    const CaseTensors& after = o.tensors;
    if (!o.stray_write.empty()) return o;
    if (after.indices.storage() != tensors.indices.storage()) o.stray_write = "indices changed";
    else if (after.updates.storage() != tensors.updates.storage()) o.stray_write = "updates changed";
    else if (!tensors.in_place && after.data.storage() != tensors.data.storage())
        o.stray_write = "data changed although out is another tensor";
    else if (after.destination().gaps_differ(tensors.destination()))
        o.stray_write = "bytes between the elements of out changed";
    return o;
}

}  // namespace scatter_test
