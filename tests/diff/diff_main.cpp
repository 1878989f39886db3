// gtest main for the differential tests. Under AddressSanitizer, lavapipe leaks a little when
// the Vulkan loader unloads it at exit; loading the driver once with RTLD_NODELETE keeps it
// mapped so that leak never happens (docs: shared/notes/vulkan-on-this-machine.md).
#include "test_backends.h"

#include <gtest/gtest.h>

#include <dlfcn.h>

int main(int argc, char** argv) {
    dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NODELETE);
    ::testing::InitGoogleTest(&argc, argv);
    const int result = RUN_ALL_TESTS();
    scatter_test::destroy_backends();
    return result;
}
