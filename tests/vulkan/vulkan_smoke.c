/* A Vulkan smoke test through the public C API only, so that it builds for every target (the
 * gtest suites of this folder are POSIX-only): on Windows it runs under wine, whose vulkan-1.dll
 * reaches the host's lavapipe. A Vulkan context must be created (with the validation layer when
 * installed); operations with duplicates on every path (winner, sort, atomic, 64-bit atomic, exact
 * division) must give the CPU's bytes, and failures (index errors, a zero integer divisor) must
 * leave out untouched on the sort and the atomic path. */
#include <scatter/scatter.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { N = 4096, TARGETS = 61 };

static int failures = 0;

/* Validation-layer errors (and any other error the library logs) fail the test. */
static void log_message(void* user, scatter_log_level level, const char* message) {
    (void)user;
    printf("log %d: %s\n", (int)level, message);
    if (level == SCATTER_LOG_ERROR) ++failures;
}

static void check(int ok, const char* what) {
    if (!ok) {
        printf("FAILED: %s (%s)\n", what, scatter_last_error_message());
        ++failures;
    }
}

/* A contiguous host tensor of rank 1. */
static scatter_tensor vector(scatter_dtype dtype, const int64_t* shape, void* data) {
    scatter_tensor t = SCATTER_TENSOR_INIT;
    t.dtype = dtype;
    t.rank = 1;
    t.shape = shape;
    t.data = data;
    return t;
}

/* A call that must fail with `expected` and leave out's 4 elements as they were. */
static void expect_failure(scatter_context vulkan, scatter_dtype dtype, const void* indices_in, const void* updates_in,
                           uint32_t flags, scatter_reduction reduction, scatter_status expected, const char* what) {
    int32_t data[4] = {1, 2, 3, 4}, updates[2], out[4] = {9, 9, 9, 9};
    int32_t indices[2];
    memcpy(indices, indices_in, sizeof indices);
    memcpy(updates, updates_in, sizeof updates);
    if (dtype == SCATTER_DTYPE_F32)
        for (int e = 0; e < 4; ++e) { float f = (float)data[e]; memcpy(&data[e], &f, 4); }
    int64_t data_shape[1] = {4}, index_shape[1] = {2};
    scatter_tensor d = vector(dtype, data_shape, data), i = vector(SCATTER_DTYPE_I32, index_shape, indices);
    scatter_tensor u = vector(dtype, index_shape, updates), o = vector(dtype, data_shape, out);
    scatter_options options = SCATTER_OPTIONS_INIT;
    options.reduction = reduction;
    options.flags = flags;
    check(scatter_elements(vulkan, &d, &i, &u, &options, &o) == expected, what);
    check(out[0] == 9 && out[1] == 9 && out[2] == 9 && out[3] == 9, what);
}

/* elements on a 1-D tensor of `dtype`, indices in [-TARGETS, TARGETS), on both contexts. */
static void compare(scatter_context cpu, scatter_context vulkan, scatter_dtype dtype, scatter_reduction reduction,
                    const char* what) {
    static unsigned char data[TARGETS * 8], updates[N * 8], out_cpu[TARGETS * 8], out_vulkan[TARGETS * 8];
    static int32_t indices[N];
    const size_t size = scatter_dtype_size(dtype);
    uint32_t state = 12345u + (uint32_t)dtype * 31u + (uint32_t)reduction;
    for (size_t b = 0; b < sizeof data; ++b) data[b] = (unsigned char)((state = state * 1664525u + 1013904223u) >> 24);
    for (size_t b = 0; b < sizeof updates; ++b) updates[b] = (unsigned char)((state = state * 1664525u + 1013904223u) >> 24);
    if (dtype == SCATTER_DTYPE_F32) { /* finite values, some tiny (subnormal sums) */
        for (int e = 0; e < N; ++e) {
            float v = (float)((int)((state = state * 1664525u + 1013904223u) >> 20) - 2048) * (e % 7 == 0 ? 1e-41f : 0.01f);
            memcpy(updates + e * 4, &v, 4);
        }
        for (int e = 0; e < TARGETS; ++e) {
            float v = (float)e * 0.5f;
            memcpy(data + e * 4, &v, 4);
        }
    }
    for (int e = 0; e < N; ++e) indices[e] = (int32_t)((state = state * 1664525u + 1013904223u) >> 8) % TARGETS;
    int64_t data_shape[1] = {TARGETS}, index_shape[1] = {N};
    scatter_tensor d = vector(dtype, data_shape, data), i = vector(SCATTER_DTYPE_I32, index_shape, indices);
    scatter_tensor u = vector(dtype, index_shape, updates), o = vector(dtype, data_shape, out_cpu);
    scatter_options options = SCATTER_OPTIONS_INIT;
    options.reduction = reduction;
    check(scatter_elements(cpu, &d, &i, &u, &options, &o) == SCATTER_OK, what);
    o.data = out_vulkan;
    check(scatter_elements(vulkan, &d, &i, &u, &options, &o) == SCATTER_OK, what);
    check(memcmp(out_cpu, out_vulkan, TARGETS * size) == 0, what);
}

int main(void) {
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = SCATTER_BACKEND_VULKAN;
    desc.flags = SCATTER_CONTEXT_FLAG_VALIDATION;
    desc.log = log_message;
    scatter_context vulkan = NULL, cpu = NULL;
    if (scatter_context_create(&desc, &vulkan) != SCATTER_OK) {
        printf("FAILED: no Vulkan context: %s\n", scatter_last_error_message());
        return 1;
    }
    desc.backend = SCATTER_BACKEND_CPU;
    desc.flags = 0;
    if (scatter_context_create(&desc, &cpu) != SCATTER_OK) return 1;

    compare(cpu, vulkan, SCATTER_DTYPE_F32, SCATTER_REDUCTION_NONE, "f32 none (winner)");
    compare(cpu, vulkan, SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD, "f32 add (sort, subnormals)");
    compare(cpu, vulkan, SCATTER_DTYPE_F32, SCATTER_REDUCTION_DIV, "f32 div (exact division)");
    compare(cpu, vulkan, SCATTER_DTYPE_I16, SCATTER_REDUCTION_MUL, "i16 mul (atomic, sub-word)");
    compare(cpu, vulkan, SCATTER_DTYPE_I64, SCATTER_REDUCTION_MAX, "i64 max (64-bit atomic)");
    compare(cpu, vulkan, SCATTER_DTYPE_U8, SCATTER_REDUCTION_ADD, "u8 add (atomic, sub-word)");

    /* Failures before any write, on the sort path and on the atomic path. */
    const int32_t bad_index[2] = {1, 4}, good_index[2] = {1, 1}, ones[2] = {1, 1}, zero_divisor[2] = {1, 0};
    float float_ones[2] = {1.0f, 1.0f};
    expect_failure(vulkan, SCATTER_DTYPE_F32, bad_index, float_ones, 0, SCATTER_REDUCTION_NONE,
                   SCATTER_ERROR_INDEX_OUT_OF_RANGE, "f32 none: index error, out untouched");
    expect_failure(vulkan, SCATTER_DTYPE_I32, bad_index, ones, 0, SCATTER_REDUCTION_ADD,
                   SCATTER_ERROR_INDEX_OUT_OF_RANGE, "i32 add (atomic): index error, out untouched");
    expect_failure(vulkan, SCATTER_DTYPE_I32, good_index, zero_divisor, SCATTER_OPTION_ALLOW_NONDETERMINISM,
                   SCATTER_REDUCTION_DIV, SCATTER_ERROR_INVALID_ARGUMENT,
                   "i32 div (atomic): zero divisor, out untouched");

    scatter_context_destroy(cpu);
    scatter_context_destroy(vulkan);
    printf("%s\n", failures == 0 ? "vulkan smoke: all passed" : "vulkan smoke: FAILED");
    return failures == 0 ? 0 : 1;
}
