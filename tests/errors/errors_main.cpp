// gtest main of the error tests. Under AddressSanitizer lavapipe leaks a little when the Vulkan
// loader unloads it at exit; loading the driver once with RTLD_NODELETE keeps it mapped (see
// shared/notes/vulkan-on-this-machine.md). Harmless where lavapipe is absent.
#include <gtest/gtest.h>

#include <dlfcn.h>

int main(int argc, char** argv) {
    dlopen("libvulkan_lvp.so", RTLD_NOW | RTLD_NODELETE);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
