#include "run_case.h"

#include <cstring>
#include <vector>

#include "guarded_buffer.h"
#include "scatter_reference.h"

namespace scatter_test {
namespace {

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
