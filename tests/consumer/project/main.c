/* A program outside the project: finds libscatter through its installed package, scatters one
 * row, and prints the result. */
#include <scatter/scatter.h>

#include <stdio.h>

int main(void) {
    scatter_context context = NULL;
    scatter_tensor data = SCATTER_TENSOR_INIT, indices = SCATTER_TENSOR_INIT;
    scatter_tensor updates = SCATTER_TENSOR_INIT, out = SCATTER_TENSOR_INIT;
    const int64_t data_shape[1] = {4}, index_shape[1] = {2};
    int64_t data_values[4] = {1, 2, 3, 4}, out_values[4] = {0, 0, 0, 0};
    int64_t index_values[2] = {3, 1}, update_values[2] = {40, 20};
    scatter_status status;

    if (scatter_context_create(NULL, &context) != SCATTER_OK) {
        fprintf(stderr, "context: %s\n", scatter_last_error_message());
        return 1;
    }
    data.dtype = SCATTER_DTYPE_I64;
    data.rank = 1;
    data.shape = data_shape;
    data.data = data_values;
    out = data;
    out.data = out_values;
    indices = data;
    indices.shape = index_shape;
    indices.data = index_values;
    updates = indices;
    updates.data = update_values;
    status = scatter_elements(context, &data, &indices, &updates, NULL, &out);
    scatter_context_destroy(context);
    if (status != SCATTER_OK || out_values[0] != 1 || out_values[1] != 20 || out_values[2] != 3 ||
        out_values[3] != 40) {
        fprintf(stderr, "scatter: %s %s\n", scatter_status_name(status),
                scatter_last_error_message());
        return 1;
    }
    printf("consumer of libscatter %s: ok\n", scatter_version_string());
    return 0;
}
