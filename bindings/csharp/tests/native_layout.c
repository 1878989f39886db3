/* Prints the layout of the structs and the values of the enums the C# binding declares, as the
 * C compiler sees them, for ScatterTests to compare with its own declarations:
 *   struct <name> <sizeof>   field <struct> <name> <offsetof> <sizeof>   enum <name> <value> */
#include <stddef.h>
#include <stdio.h>

#include "scatter/scatter.h"

#define STRUCT(type) printf("struct %s %zu\n", #type, sizeof(type))
#define FIELD(type, field) \
    printf("field %s %s %zu %zu\n", #type, #field, offsetof(type, field), sizeof(((type*)0)->field))
#define ENUMERATOR(name) printf("enum %s %ld\n", #name, (long)(name))
#define STATUS_ENUMERATOR(name, value, description) ENUMERATOR(name);

int main(void) {
    STRUCT(scatter_tensor);
    FIELD(scatter_tensor, struct_size);
    FIELD(scatter_tensor, dtype);
    FIELD(scatter_tensor, element_size);
    FIELD(scatter_tensor, rank);
    FIELD(scatter_tensor, shape);
    FIELD(scatter_tensor, strides);
    FIELD(scatter_tensor, data);
    FIELD(scatter_tensor, buffer);
    FIELD(scatter_tensor, byte_offset);

    STRUCT(scatter_options);
    FIELD(scatter_options, struct_size);
    FIELD(scatter_options, axis);
    FIELD(scatter_options, reduction);
    FIELD(scatter_options, out_of_range);
    FIELD(scatter_options, flags);

    STRUCT(scatter_context_desc);
    FIELD(scatter_context_desc, struct_size);
    FIELD(scatter_context_desc, backend);
    FIELD(scatter_context_desc, device_index);
    FIELD(scatter_context_desc, thread_count);
    FIELD(scatter_context_desc, flags);
    FIELD(scatter_context_desc, parallel_for);
    FIELD(scatter_context_desc, parallel_for_user);
    FIELD(scatter_context_desc, allocator);
    FIELD(scatter_context_desc, log);
    FIELD(scatter_context_desc, log_user);

    SCATTER_STATUS_LIST(STATUS_ENUMERATOR)
    ENUMERATOR(SCATTER_DTYPE_UNDEFINED);
    ENUMERATOR(SCATTER_DTYPE_F16);
    ENUMERATOR(SCATTER_DTYPE_BF16);
    ENUMERATOR(SCATTER_DTYPE_F32);
    ENUMERATOR(SCATTER_DTYPE_F64);
    ENUMERATOR(SCATTER_DTYPE_I8);
    ENUMERATOR(SCATTER_DTYPE_I16);
    ENUMERATOR(SCATTER_DTYPE_I32);
    ENUMERATOR(SCATTER_DTYPE_I64);
    ENUMERATOR(SCATTER_DTYPE_U8);
    ENUMERATOR(SCATTER_DTYPE_U16);
    ENUMERATOR(SCATTER_DTYPE_U32);
    ENUMERATOR(SCATTER_DTYPE_U64);
    ENUMERATOR(SCATTER_DTYPE_BOOL);
    ENUMERATOR(SCATTER_DTYPE_C64);
    ENUMERATOR(SCATTER_DTYPE_C128);
    ENUMERATOR(SCATTER_DTYPE_OPAQUE);
    ENUMERATOR(SCATTER_REDUCTION_DEFAULT);
    ENUMERATOR(SCATTER_REDUCTION_NONE);
    ENUMERATOR(SCATTER_REDUCTION_ADD);
    ENUMERATOR(SCATTER_REDUCTION_SUB);
    ENUMERATOR(SCATTER_REDUCTION_MUL);
    ENUMERATOR(SCATTER_REDUCTION_DIV);
    ENUMERATOR(SCATTER_REDUCTION_MAX);
    ENUMERATOR(SCATTER_REDUCTION_MIN);
    ENUMERATOR(SCATTER_REDUCTION_MEAN);
    ENUMERATOR(SCATTER_OUT_OF_RANGE_DEFAULT);
    ENUMERATOR(SCATTER_OUT_OF_RANGE_ERROR);
    ENUMERATOR(SCATTER_OUT_OF_RANGE_SKIP);
    ENUMERATOR(SCATTER_OUT_OF_RANGE_CLAMP);
    ENUMERATOR(SCATTER_BACKEND_AUTO);
    ENUMERATOR(SCATTER_BACKEND_CPU);
    ENUMERATOR(SCATTER_BACKEND_VULKAN);
    ENUMERATOR(SCATTER_OPTION_EXCLUDE_SELF);
    ENUMERATOR(SCATTER_OPTION_ALLOW_NONDETERMINISM);
    ENUMERATOR(SCATTER_CONTEXT_FLAG_ALLOW_NONDETERMINISM);
    ENUMERATOR(SCATTER_CONTEXT_FLAG_VALIDATION);
    ENUMERATOR(SCATTER_VERSION_MAJOR);
    return 0;
}
