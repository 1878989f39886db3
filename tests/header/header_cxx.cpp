// The public header compiled as C++ (built as C++11 and as C++17 with -Wall -Wextra -pedantic
// -Werror), every *_INIT macro used, and a few calls linked against the library and run.
#include <scatter/scatter.h>

#include <cstdio>
#include <cstring>

#define CHECK(cond)                                                                   \
    do {                                                                              \
        if (!(cond)) {                                                                \
            std::fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            return 1;                                                                 \
        }                                                                             \
    } while (0)

namespace {

#define SCATTER_HEADER_TEST_NAME(name, value, description) #name,
const char* const status_names[] = {SCATTER_STATUS_LIST(SCATTER_HEADER_TEST_NAME)};
#undef SCATTER_HEADER_TEST_NAME

}  // namespace

int main() {
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    scatter_options options = SCATTER_OPTIONS_INIT;
    scatter_tensor tensor = SCATTER_TENSOR_INIT;
    const scatter_context_desc constant_desc = SCATTER_CONTEXT_DESC_INIT;
    static const scatter_options static_options = SCATTER_OPTIONS_INIT;
    static const scatter_tensor static_tensor = SCATTER_TENSOR_INIT;

    CHECK(desc.struct_size == sizeof(scatter_context_desc));
    CHECK(options.struct_size == sizeof(scatter_options));
    CHECK(tensor.struct_size == sizeof(scatter_tensor));
    CHECK(constant_desc.device_index == -1);
    CHECK(static_options.reduction == SCATTER_REDUCTION_DEFAULT);
    CHECK(static_tensor.dtype == SCATTER_DTYPE_UNDEFINED);
    for (unsigned i = 0; i < sizeof(status_names) / sizeof(status_names[0]); ++i)
        CHECK(std::strcmp(scatter_status_name(static_cast<scatter_status>(i)), status_names[i]) == 0);

    desc.backend = SCATTER_BACKEND_CPU;
    scatter_context context = nullptr;
    CHECK(scatter_context_create(&desc, &context) == SCATTER_OK);
    scatter_context_destroy(context);
    std::printf("libscatter %s from C++%ld: ok\n", scatter_version_string(), __cplusplus / 100 % 100);
    return 0;
}
