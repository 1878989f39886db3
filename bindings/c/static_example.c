/* Links libscatter statically (scatter::scatter_static) and runs a rows scatter: the program
 * needs no libscatter.so at run time. Exit status 0 when the result is right.
 * With the argument --fully-static (a `cc -static` build, no dynamic loader), a Vulkan context
 * must be refused with BACKEND_UNAVAILABLE instead of crashing in glibc's static dlopen, and the
 * AUTO context above runs on the CPU. */
#include <stdio.h>
#include <string.h>

#include "scatter/scatter.h"

int main(int argc, char** argv) {
    /* data is 3x2; rows 2 and 0 get the two rows of updates, in place. */
    int32_t data[6] = {1, 2, 3, 4, 5, 6};
    int32_t indices[2] = {2, 0};
    int32_t updates[4] = {70, 80, 90, 100};
    const int32_t expected[6] = {90, 100, 3, 4, 70, 80};
    int64_t data_shape[2] = {3, 2}, index_shape[1] = {2}, update_shape[2] = {2, 2};

    scatter_tensor t_data = SCATTER_TENSOR_INIT;
    t_data.dtype = SCATTER_DTYPE_I32;
    t_data.rank = 2;
    t_data.shape = data_shape;
    t_data.data = data;
    scatter_tensor t_indices = SCATTER_TENSOR_INIT;
    t_indices.dtype = SCATTER_DTYPE_I32;
    t_indices.rank = 1;
    t_indices.shape = index_shape;
    t_indices.data = indices;
    scatter_tensor t_updates = t_data;
    t_updates.shape = update_shape;
    t_updates.data = updates;

    scatter_context context = NULL;
    scatter_status status = scatter_context_create(NULL, &context);
    if (status == SCATTER_OK) {
        status = scatter_rows(context, &t_data, &t_indices, &t_updates, NULL, &t_data);
    }
    scatter_context_destroy(context);
    if (status != SCATTER_OK) {
        fprintf(stderr, "error: %s: %s\n", scatter_status_name(status),
                scatter_last_error_message());
        return 1;
    }
    if (memcmp(data, expected, sizeof data) != 0) {
        fprintf(stderr, "wrong result\n");
        return 1;
    }
    if (argc > 1 && strcmp(argv[1], "--fully-static") == 0) {
        scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
        desc.backend = SCATTER_BACKEND_VULKAN;
        context = NULL;
        status = scatter_context_create(&desc, &context);
        if (status != SCATTER_ERROR_BACKEND_UNAVAILABLE || context != NULL) {
            fprintf(stderr, "a Vulkan context in a fully static program: %s, expected BACKEND_UNAVAILABLE\n",
                    scatter_status_name(status));
            return 1;
        }
        printf("Vulkan in a fully static program: %s: %s\n", scatter_status_name(status),
               scatter_last_error_message());
    }
    printf("libscatter %s (static): rows scatter in place ok\n", scatter_version_string());
    return 0;
}
