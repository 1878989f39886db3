/* The rest of scatter.h that bindings/native_layout.c (shared by every binding) does not print:
 * the structs and constants only scatter-sys declares. Same output format:
 *   struct <name> <sizeof>   field <struct> <name> <offsetof> <sizeof>   enum <name> <value> */
#include <stddef.h>
#include <stdio.h>

#include "scatter/scatter.h"

#define STRUCT(type) printf("struct %s %zu\n", #type, sizeof(type))
#define FIELD(type, field) \
    printf("field %s %s %zu %zu\n", #type, #field, offsetof(type, field), sizeof(((type*)0)->field))
#define ENUMERATOR(name) printf("enum %s %lld\n", #name, (long long)(name))

int main(void) {
    STRUCT(scatter_allocator);
    FIELD(scatter_allocator, user);
    FIELD(scatter_allocator, alloc);
    FIELD(scatter_allocator, free);

    STRUCT(scatter_gather_options);
    FIELD(scatter_gather_options, struct_size);
    FIELD(scatter_gather_options, axis);
    FIELD(scatter_gather_options, batch_dims);
    FIELD(scatter_gather_options, out_of_range);
    FIELD(scatter_gather_options, fill_value);
    FIELD(scatter_gather_options, flags);
    ENUMERATOR(SCATTER_OUT_OF_RANGE_FILL);

    STRUCT(scatter_message_passing_options);
    FIELD(scatter_message_passing_options, struct_size);
    FIELD(scatter_message_passing_options, reduction);
    FIELD(scatter_message_passing_options, src_out_of_range);
    FIELD(scatter_message_passing_options, dst_out_of_range);
    FIELD(scatter_message_passing_options, fill_value);
    FIELD(scatter_message_passing_options, flags);

    STRUCT(scatter_profile_pass);
    FIELD(scatter_profile_pass, name);
    FIELD(scatter_profile_pass, invocations);
    FIELD(scatter_profile_pass, time_us);

    STRUCT(scatter_profile);
    FIELD(scatter_profile, struct_size);
    FIELD(scatter_profile, backend);
    FIELD(scatter_profile, status);
    FIELD(scatter_profile, pass_count);
    FIELD(scatter_profile, validate_us);
    FIELD(scatter_profile, record_us);
    FIELD(scatter_profile, submit_us);
    FIELD(scatter_profile, wait_us);
    FIELD(scatter_profile, read_back_us);
    FIELD(scatter_profile, total_us);
    FIELD(scatter_profile, gpu_us);
    FIELD(scatter_profile, route);
    FIELD(scatter_profile, passes);

    STRUCT(scatter_vulkan_device_desc);
    FIELD(scatter_vulkan_device_desc, struct_size);
    FIELD(scatter_vulkan_device_desc, instance);
    FIELD(scatter_vulkan_device_desc, physical_device);
    FIELD(scatter_vulkan_device_desc, device);
    FIELD(scatter_vulkan_device_desc, queue);
    FIELD(scatter_vulkan_device_desc, queue_family_index);
    FIELD(scatter_vulkan_device_desc, get_instance_proc_addr);
    FIELD(scatter_vulkan_device_desc, enabled_features);
    FIELD(scatter_vulkan_device_desc, pipeline_cache_data);
    FIELD(scatter_vulkan_device_desc, pipeline_cache_size);

    ENUMERATOR(SCATTER_OP_UNDEFINED);
    ENUMERATOR(SCATTER_OP_ELEMENTS);
    ENUMERATOR(SCATTER_OP_ROWS);
    ENUMERATOR(SCATTER_OP_ND);
    ENUMERATOR(SCATTER_PROFILE_MAX_PASSES);
    ENUMERATOR(SCATTER_MAX_THREAD_COUNT);
    ENUMERATOR(SCATTER_VERSION_MINOR);
    ENUMERATOR(SCATTER_VERSION_PATCH);
    ENUMERATOR(SCATTER_VERSION);
    printf("enum SCATTER_MAKE_VERSION(3,2,1) %lld\n", (long long)SCATTER_MAKE_VERSION(3, 2, 1));
#define ENUM_SIZE(type) printf("enum sizeof(%s) %zu\n", #type, sizeof(type))
    ENUM_SIZE(scatter_status);
    ENUM_SIZE(scatter_dtype);
    ENUM_SIZE(scatter_reduction);
    ENUM_SIZE(scatter_out_of_range);
    ENUM_SIZE(scatter_backend);
    ENUM_SIZE(scatter_log_level);
    ENUM_SIZE(scatter_device_type);
    ENUM_SIZE(scatter_op);
    return 0;
}
