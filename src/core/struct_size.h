// Checks the leading struct_size of an extensible descriptor: at least the first version's size;
// a larger size from a newer header is accepted when every unknown trailing byte is zero.
#pragma once

#include "core/status.h"

#include <cstddef>
#include <cstdint>

namespace scatter {

Status check_struct_size(const char* name, const void* descriptor, uint32_t struct_size,
                         size_t known_size);

}  // namespace scatter
