/* Loads libscatter at run time (as a plugin host or a language runtime would), resolves the
 * functions it needs by name, checks the library's major version, and runs one scatter.
 * Usage: dlopen_example /path/to/libscatter.so   (Windows: dlopen_example scatter.dll)
 * Exit status 0 when the result is right. */
#include <stdio.h>
#include <string.h>

#include "scatter/scatter.h"

/* The three calls of a run-time loader: dlopen/dlsym/dlclose, or LoadLibrary/GetProcAddress/
 * FreeLibrary on Windows. */
#ifdef _WIN32
#include <windows.h>
static void* library_open(const char* path) { return (void*)LoadLibraryA(path); }
static void* library_symbol(void* library, const char* name) {
    FARPROC symbol = GetProcAddress((HMODULE)library, name);
    void* address;
    memcpy(&address, &symbol, sizeof address);
    return address;
}
static void library_close(void* library) { FreeLibrary((HMODULE)library); }
static const char* library_error(void) {
    static char text[32];
    snprintf(text, sizeof text, "error %lu", (unsigned long)GetLastError());
    return text;
}
#else
#include <dlfcn.h>
static void* library_open(const char* path) { return dlopen(path, RTLD_NOW | RTLD_LOCAL); }
static void* library_symbol(void* library, const char* name) { return dlsym(library, name); }
static void library_close(void* library) { dlclose(library); }
static const char* library_error(void) { return dlerror(); }
#endif

/* Only the types and macros of the header are used; every function comes from dlsym. */
typedef uint32_t (*version_fn)(void);
typedef const char* (*text_fn)(void);
typedef const char* (*status_name_fn)(scatter_status);
typedef scatter_status (*context_create_fn)(const scatter_context_desc*, scatter_context*);
typedef void (*context_destroy_fn)(scatter_context);
typedef scatter_status (*op_fn)(scatter_context, const scatter_tensor*, const scatter_tensor*,
                                const scatter_tensor*, const scatter_options*,
                                const scatter_tensor*);

struct scatter_api {
    version_fn version;
    text_fn version_string;
    text_fn last_error_message;
    status_name_fn status_name;
    context_create_fn context_create;
    context_destroy_fn context_destroy;
    op_fn elements;
};

/* Resolves one symbol into the function pointer at `slot`. ISO C has no cast from void* to a
 * function pointer, so the bytes are copied (POSIX and Windows give the two the same size). */
static int resolve(void* library, const char* name, void* slot) {
    void* symbol = library_symbol(library, name);
    if (symbol == NULL) {
        fprintf(stderr, "missing symbol %s: %s\n", name, library_error());
        return 0;
    }
    memcpy(slot, &symbol, sizeof symbol);
    return 1;
}

#define RESOLVE(lib, api, field, name) resolve(lib, name, &(api)->field)

static int load_api(void* library, struct scatter_api* api) {
    return RESOLVE(library, api, version, "scatter_version") &&
           RESOLVE(library, api, version_string, "scatter_version_string") &&
           RESOLVE(library, api, last_error_message, "scatter_last_error_message") &&
           RESOLVE(library, api, status_name, "scatter_status_name") &&
           RESOLVE(library, api, context_create, "scatter_context_create") &&
           RESOLVE(library, api, context_destroy, "scatter_context_destroy") &&
           RESOLVE(library, api, elements, "scatter_elements");
}

/* out = data with updates added at indices: [1, 2, 3, 4] + {0: 10, 3: 20, 0: 30}. */
static int run_scatter(const struct scatter_api* api) {
    float data[4] = {1, 2, 3, 4};
    int64_t indices[3] = {0, 3, 0};
    float updates[3] = {10, 20, 30};
    float out[4] = {0};
    const float expected[4] = {41, 2, 3, 24};
    int64_t shape4[1] = {4}, shape3[1] = {3};

    scatter_tensor t_data = SCATTER_TENSOR_INIT, t_indices = SCATTER_TENSOR_INIT;
    scatter_tensor t_updates = SCATTER_TENSOR_INIT, t_out = SCATTER_TENSOR_INIT;
    t_data.dtype = t_out.dtype = t_updates.dtype = SCATTER_DTYPE_F32;
    t_indices.dtype = SCATTER_DTYPE_I64;
    t_data.rank = t_indices.rank = t_updates.rank = t_out.rank = 1;
    t_data.shape = t_out.shape = shape4;
    t_indices.shape = t_updates.shape = shape3;
    t_data.data = data;
    t_indices.data = indices;
    t_updates.data = updates;
    t_out.data = out;
    scatter_options options = SCATTER_OPTIONS_INIT;
    options.reduction = SCATTER_REDUCTION_ADD;

    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = SCATTER_BACKEND_CPU;
    scatter_context context = NULL;
    scatter_status status = api->context_create(&desc, &context);
    if (status == SCATTER_OK) {
        status = api->elements(context, &t_data, &t_indices, &t_updates, &options, &t_out);
    }
    if (status != SCATTER_OK) {
        fprintf(stderr, "error: %s: %s\n", api->status_name(status), api->last_error_message());
        api->context_destroy(context);
        return 0;
    }
    api->context_destroy(context);
    for (int i = 0; i < 4; ++i) {
        if (out[i] != expected[i]) {
            fprintf(stderr, "out[%d] = %g, expected %g\n", i, out[i], expected[i]);
            return 0;
        }
    }
    printf("out = [%g, %g, %g, %g]\n", out[0], out[1], out[2], out[3]);
    return 1;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s /path/to/libscatter.so\n", argv[0]);
        return 2;
    }
    void* library = library_open(argv[1]);
    if (library == NULL) {
        fprintf(stderr, "loading %s failed: %s\n", argv[1], library_error());
        return 1;
    }
    struct scatter_api api;
    int ok = load_api(library, &api);
    if (ok) {
        uint32_t major = api.version() >> 22;
        printf("loaded libscatter %s from %s\n", api.version_string(), argv[1]);
        if (major != SCATTER_VERSION_MAJOR) {
            fprintf(stderr, "library major version %u, this program needs %d\n", major,
                    SCATTER_VERSION_MAJOR);
            ok = 0;
        }
    }
    ok = ok && run_scatter(&api);
    library_close(library);
    return ok ? 0 : 1;
}
