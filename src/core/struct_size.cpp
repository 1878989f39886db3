#include "core/struct_size.h"

namespace scatter {

Status check_struct_size(const char* name, const void* descriptor, uint32_t struct_size,
                         size_t known_size) {
    if (struct_size < known_size)
        return make_error(SCATTER_ERROR_INVALID_ARGUMENT,
                          "%s.struct_size = %u is smaller than sizeof(%s) = %zu", name, struct_size,
                          name, known_size);
    const unsigned char* bytes = static_cast<const unsigned char*>(descriptor);
    for (size_t i = known_size; i < struct_size; ++i)
        if (bytes[i] != 0)
            return make_error(SCATTER_ERROR_UNSUPPORTED,
                              "%s has a nonzero byte at offset %zu, past the fields this library "
                              "version knows",
                              name, i);
    return Status();
}

}  // namespace scatter
