/* Prints the layout of the structs and the values of the enums the bindings declare, as the C
 * compiler sees them, for each binding's tests to compare with its own declarations (C#:
 * ScatterTests; Python: tests/test_layout.py):
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

    STRUCT(scatter_device_info);
    FIELD(scatter_device_info, struct_size);
    FIELD(scatter_device_info, backend);
    FIELD(scatter_device_info, index);
    FIELD(scatter_device_info, type);
    FIELD(scatter_device_info, name);
    FIELD(scatter_device_info, vendor_id);
    FIELD(scatter_device_info, device_id);
    FIELD(scatter_device_info, api_version);
    FIELD(scatter_device_info, thread_count);
    FIELD(scatter_device_info, features);
    FIELD(scatter_device_info, max_buffer_range);

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
    ENUMERATOR(SCATTER_CONTEXT_FLAG_PROFILE);
    ENUMERATOR(SCATTER_LOG_DEBUG);
    ENUMERATOR(SCATTER_LOG_INFO);
    ENUMERATOR(SCATTER_LOG_WARNING);
    ENUMERATOR(SCATTER_LOG_ERROR);
    ENUMERATOR(SCATTER_DEVICE_TYPE_OTHER);
    ENUMERATOR(SCATTER_DEVICE_TYPE_INTEGRATED_GPU);
    ENUMERATOR(SCATTER_DEVICE_TYPE_DISCRETE_GPU);
    ENUMERATOR(SCATTER_DEVICE_TYPE_VIRTUAL_GPU);
    ENUMERATOR(SCATTER_DEVICE_TYPE_CPU);
    ENUMERATOR(SCATTER_FEATURE_INT8);
    ENUMERATOR(SCATTER_FEATURE_INT16);
    ENUMERATOR(SCATTER_FEATURE_INT64);
    ENUMERATOR(SCATTER_FEATURE_FLOAT16);
    ENUMERATOR(SCATTER_FEATURE_FLOAT64);
    ENUMERATOR(SCATTER_FEATURE_STORAGE8);
    ENUMERATOR(SCATTER_FEATURE_STORAGE16);
    ENUMERATOR(SCATTER_FEATURE_INT64_ATOMICS);
    ENUMERATOR(SCATTER_FEATURE_FLOAT32_ATOMIC_ADD);
    ENUMERATOR(SCATTER_FEATURE_FLOAT32_ATOMIC_MINMAX);
    ENUMERATOR(SCATTER_FEATURE_SUBGROUPS);
    ENUMERATOR(SCATTER_FEATURE_BUFFER_DEVICE_ADDRESS);
    ENUMERATOR(SCATTER_FEATURE_DENORM_PRESERVE32);
    ENUMERATOR(SCATTER_FEATURE_DENORM_PRESERVE64);
    ENUMERATOR(SCATTER_FEATURE_SHARED_INT64_ATOMICS);
    ENUMERATOR(SCATTER_MAX_RANK);
    ENUMERATOR(SCATTER_VERSION_MAJOR);
    return 0;
}
