// Copies every element of one view into another of the same shape and element size, in parallel.
#pragma once

#include "core/task_runner.h"
#include "core/tensor_view.h"

namespace scatter {

Status copy_tensor(const TensorView& from, const TensorView& to, TaskRunner& runner);

}  // namespace scatter
