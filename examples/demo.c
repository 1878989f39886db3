/* The README's demo: lists the devices, runs one scatter on the CPU and on Vulkan, prints both. */
#include <scatter/scatter.h>

#include <stdio.h>
#include <string.h>

static int run_on(scatter_backend backend) {
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = backend;
    scatter_context ctx;
    scatter_status s = scatter_context_create(&desc, &ctx);
    if (s != SCATTER_OK) {
        printf("%-6s: not available (%s: %s)\n", scatter_backend_name(backend), scatter_status_name(s),
               scatter_last_error_message());
        return backend == SCATTER_BACKEND_CPU;
    }
    /* ONNX ScatterElements with reduction add and a duplicate index. */
    float data[1][5] = {{1.0f, 2.0f, 3.0f, 4.0f, 5.0f}};
    int64_t idx[1][2] = {{1, 1}};
    float upd[1][2] = {{1.1f, 2.1f}};
    float out[1][5];
    int64_t dshape[2] = {1, 5}, ishape[2] = {1, 2};
    scatter_tensor d = SCATTER_TENSOR_INIT, i = SCATTER_TENSOR_INIT, u = SCATTER_TENSOR_INIT, o = SCATTER_TENSOR_INIT;
    d.dtype = o.dtype = u.dtype = SCATTER_DTYPE_F32;
    i.dtype = SCATTER_DTYPE_I64;
    d.rank = o.rank = i.rank = u.rank = 2;
    d.shape = o.shape = dshape;
    i.shape = u.shape = ishape;
    d.data = data;
    i.data = idx;
    u.data = upd;
    o.data = out;
    scatter_options opt = SCATTER_OPTIONS_INIT;
    opt.axis = 1;
    opt.reduction = SCATTER_REDUCTION_ADD;
    s = scatter_elements(ctx, &d, &i, &u, &opt, &o);
    if (s != SCATTER_OK) {
        printf("%-6s: %s: %s\n", scatter_backend_name(backend), scatter_status_name(s), scatter_last_error_message());
        scatter_context_destroy(ctx);
        return 0;
    }
    printf("%-6s: elements axis=1 add [1 2 3 4 5] at [1 1] += [1.1 2.1] -> [%g %g %g %g %g]\n",
           scatter_backend_name(backend), out[0][0], out[0][1], out[0][2], out[0][3], out[0][4]);
    scatter_context_destroy(ctx);
    return 1;
}

int main(void) {
    printf("libscatter %s\n", scatter_version_string());
    uint32_t count = 0;
    if (scatter_devices(NULL, &count) != SCATTER_OK) return 1;
    scatter_device_info infos[16];
    if (count > 16) count = 16;
    for (uint32_t k = 0; k < count; ++k) {
        memset(&infos[k], 0, sizeof infos[k]);
        infos[k].struct_size = sizeof infos[k];
    }
    if (scatter_devices(infos, &count) != SCATTER_OK) return 1;
    for (uint32_t k = 0; k < count; ++k)
        printf("device %u: %-6s %s\n", k, scatter_backend_name(infos[k].backend), infos[k].name);
    int ok = run_on(SCATTER_BACKEND_CPU);
    run_on(SCATTER_BACKEND_VULKAN);
    return ok ? 0 : 1;
}
