// The CPU message-passing kernel: out[dst[e]] (op)= x[src[e]] * w[e] over the edges in order. It
// applies each message with the rows scatter's appliers (apply_update.h) and multiplies with the
// MUL applier, so every target row sees the updates, in the order and with the arithmetic, of
// gather + multiply + scatter_rows. A task owns a range of target rows (or, with fewer rows than
// tasks, a range of every row's elements, in whole cache lines) and walks all edges in order,
// applying those that reach its part: results do not depend on the thread count. Nothing of size
// E x F is built.
#pragma once

#include "core/host_allocator.h"
#include "core/message_plan.h"
#include "core/task_runner.h"

namespace scatter {

// Expects check_edge_indices to have passed for src and dst. Checks integer divisors and
// allocates what it needs (failing before anything is written), then copies data into out (out
// of place) and applies the messages.
Status message_passing_cpu(const MessagePlan& plan, TaskRunner& runner, const HostAllocator& allocator);

}  // namespace scatter
