// Copies elements of one view into another of the same shape and element size.
#pragma once

#include "core/task_runner.h"
#include "core/tensor_view.h"

namespace scatter {

Status copy_tensor(const TensorView& from, const TensorView& to, TaskRunner& runner);

// On the calling thread: the elements at row-major positions [begin, end), with stores that keep
// them in cache (a kernel copies a block of out just before scattering into it).
void copy_elements(const TensorView& from, const TensorView& to, int64_t begin, int64_t end);

}  // namespace scatter
