/* The public header compiled as strict C99 (-std=c99 -Wall -Wextra -pedantic -Werror), every
 * *_INIT macro used, and a few calls linked against the library and run. */
#include <scatter/scatter.h>

#include <stdio.h>
#include <string.h>

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "%s:%d: check failed: %s (%s)\n", __FILE__,      \
                    __LINE__, #cond, scatter_last_error_message());          \
            return 1;                                                        \
        }                                                                    \
    } while (0)

#define COUNT_STATUS(name, value, description) +1
static const int status_count = 0 SCATTER_STATUS_LIST(COUNT_STATUS);
#undef COUNT_STATUS

int main(void) {
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    scatter_options options = SCATTER_OPTIONS_INIT;
    scatter_tensor data = SCATTER_TENSOR_INIT;
    scatter_tensor indices = SCATTER_TENSOR_INIT;
    scatter_tensor updates = SCATTER_TENSOR_INIT;
    scatter_tensor out = SCATTER_TENSOR_INIT;
    scatter_context context = NULL;
    const int64_t data_shape[2] = {3, 2};
    const int64_t index_shape[1] = {2};
    const int64_t update_shape[2] = {2, 2};
    float data_values[6] = {1, 2, 3, 4, 5, 6};
    int32_t index_values[2] = {2, -3}; /* rows 2 and 0 */
    float update_values[4] = {10, 20, 30, 40};
    float out_values[6] = {0};
    const float expected[6] = {31, 42, 3, 4, 15, 26};
    scatter_backend backend = SCATTER_BACKEND_AUTO;
    scatter_gather_options gather_options = SCATTER_GATHER_OPTIONS_INIT;
    const int64_t gathered_shape[2] = {2, 2};
    float gathered[4] = {0};
    const float expected_gathered[4] = {5, 6, 1, 2};
    scatter_message_passing_options message_options = SCATTER_MESSAGE_PASSING_OPTIONS_INIT;
    scatter_tensor dst = SCATTER_TENSOR_INIT;
    scatter_tensor weights = SCATTER_TENSOR_INIT;
    int64_t dst_values[2] = {0, 0};
    float weight_values[2] = {1.0f, 0.5f};
    float aggregated[6] = {0};
    const float expected_aggregated[6] = {6.5f, 9, 3, 4, 5, 6};
    float grad_data[6] = {0};
    const float expected_grad_data[6] = {1, 2, 0, 0, 5, 6};

    CHECK(scatter_version() == SCATTER_VERSION);
    CHECK(strcmp(scatter_status_name(SCATTER_ERROR_INTERNAL), "SCATTER_ERROR_INTERNAL") == 0);
    CHECK(status_count == 10);
    CHECK(scatter_dtype_size(SCATTER_DTYPE_F32) == sizeof(float));

    desc.backend = SCATTER_BACKEND_CPU;
    desc.thread_count = 1;
    CHECK(scatter_context_create(&desc, &context) == SCATTER_OK);
    CHECK(scatter_context_backend(context, &backend) == SCATTER_OK);
    CHECK(backend == SCATTER_BACKEND_CPU);

    data.dtype = SCATTER_DTYPE_F32;
    data.rank = 2;
    data.shape = data_shape;
    data.data = data_values;
    out = data;
    out.data = out_values;
    indices.dtype = SCATTER_DTYPE_I32;
    indices.rank = 1;
    indices.shape = index_shape;
    indices.data = index_values;
    updates.dtype = SCATTER_DTYPE_F32;
    updates.rank = 2;
    updates.shape = update_shape;
    updates.data = update_values;
    options.reduction = SCATTER_REDUCTION_ADD;

    CHECK(scatter_rows(context, &data, &indices, &updates, &options, &out) == SCATTER_OK);
    CHECK(memcmp(out_values, expected, sizeof(expected)) == 0);
    CHECK(scatter_rows(NULL, &data, &indices, &updates, &options, &out) ==
          SCATTER_ERROR_INVALID_ARGUMENT);
    CHECK(strlen(scatter_last_error_message()) > 0);

    /* The gather mirror: rows 2 and 0 of data. */
    out.shape = gathered_shape;
    out.data = gathered;
    CHECK(scatter_gather_rows(context, &data, &indices, &gather_options, &out) == SCATTER_OK);
    CHECK(memcmp(gathered, expected_gathered, sizeof(expected_gathered)) == 0);
    gather_options.out_of_range = SCATTER_OUT_OF_RANGE_SKIP;
    CHECK(scatter_gather_rows(context, &data, &indices, &gather_options, &out) ==
          SCATTER_ERROR_INVALID_ARGUMENT);

    /* Its backward: the gathered rows' gradient (here the gathered values) back at rows 2 and 0. */
    gather_options.out_of_range = SCATTER_OUT_OF_RANGE_ERROR;
    data.data = grad_data;
    CHECK(scatter_gather_rows_backward(context, &indices, &out, &gather_options, &data) == SCATTER_OK);
    CHECK(memcmp(grad_data, expected_grad_data, sizeof(expected_grad_data)) == 0);
    data.data = data_values; /* the forward data again */
    /* Message passing: out[dst[e]] += x[src[e]] * weights[e], with x = data and src = indices. */
    dst.dtype = SCATTER_DTYPE_I64;
    dst.rank = 1;
    dst.shape = index_shape;
    dst.data = dst_values;
    weights.dtype = SCATTER_DTYPE_F32;
    weights.rank = 1;
    weights.shape = index_shape;
    weights.data = weight_values;
    out.shape = data_shape;
    out.data = aggregated;
    CHECK(scatter_message_passing(context, &data, &data, &indices, &dst, &weights, &message_options, &out) ==
          SCATTER_OK);
    CHECK(memcmp(aggregated, expected_aggregated, sizeof(expected_aggregated)) == 0);
    message_options.src_out_of_range = SCATTER_OUT_OF_RANGE_SKIP;
    CHECK(scatter_message_passing(context, &data, &data, &indices, &dst, &weights, &message_options, &out) ==
          SCATTER_ERROR_INVALID_ARGUMENT);

    scatter_context_destroy(context);
    printf("libscatter %s from C99: ok\n", scatter_version_string());
    return 0;
}
