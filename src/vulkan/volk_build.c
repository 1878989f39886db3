/* volk's implementation, compiled into libscatter with hidden visibility (the library never links
 * libvulkan). Only src/vulkan includes volk.h. */
#define VOLK_IMPLEMENTATION
#include <volk.h>
