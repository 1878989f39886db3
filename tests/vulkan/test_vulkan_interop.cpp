// Batches, engine interop and the pipeline cache. The interop test plays the engine: it creates
// its own VkInstance/VkDevice on lavapipe, hands them in, wraps its own VkBuffers, records a
// scatter into its own command buffer, submits it itself and checks the result against the CPU.
#include "vulkan_case.h"
#include "vulkan_env.h"

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

#include <dlfcn.h>

#include <cstring>

namespace vulkan_test {
namespace {

using Batches = VulkanTest;

// A case's three inputs and its out in scatter buffers of `ctx`.
struct BufferTensors {
    scatter_buffer data = nullptr, indices = nullptr, updates = nullptr;
    int64_t data_shape[3], index_shape[3], update_shape[3];
    scatter_tensor d = SCATTER_TENSOR_INIT, i = SCATTER_TENSOR_INIT, u = SCATTER_TENSOR_INIT;
    ~BufferTensors() {
        scatter_buffer_destroy(data);
        scatter_buffer_destroy(indices);
        scatter_buffer_destroy(updates);
    }
};

void make_buffers(scatter_context ctx, const Case& c, BufferTensors* t) {
    ASSERT_EQ(scatter_buffer_create(ctx, c.data.size(), &t->data), SCATTER_OK);
    ASSERT_EQ(scatter_buffer_create(ctx, c.indices.size(), &t->indices), SCATTER_OK);
    ASSERT_EQ(scatter_buffer_create(ctx, c.updates.size(), &t->updates), SCATTER_OK);
    ASSERT_EQ(scatter_buffer_write(t->data, 0, c.data.data(), c.data.size()), SCATTER_OK);
    ASSERT_EQ(scatter_buffer_write(t->indices, 0, c.indices.data(), c.indices.size()), SCATTER_OK);
    ASSERT_EQ(scatter_buffer_write(t->updates, 0, c.updates.data(), c.updates.size()), SCATTER_OK);
    std::copy(c.data_shape.begin(), c.data_shape.end(), t->data_shape);
    std::copy(c.index_shape.begin(), c.index_shape.end(), t->index_shape);
    std::copy(c.update_shape.begin(), c.update_shape.end(), t->update_shape);
    t->d.dtype = t->u.dtype = c.dtype;
    t->i.dtype = c.index_i64 ? SCATTER_DTYPE_I64 : SCATTER_DTYPE_I32;
    t->d.rank = uint32_t(c.data_shape.size());
    t->i.rank = uint32_t(c.index_shape.size());
    t->u.rank = uint32_t(c.update_shape.size());
    t->d.shape = t->data_shape;
    t->i.shape = t->index_shape;
    t->u.shape = t->update_shape;
    t->d.buffer = t->data;
    t->i.buffer = t->indices;
    t->u.buffer = t->updates;
}

std::vector<uint8_t> read_all(scatter_buffer b, size_t size) {
    std::vector<uint8_t> bytes(size);
    EXPECT_EQ(scatter_buffer_read(b, 0, bytes.data(), size), SCATTER_OK);
    return bytes;
}

TEST_F(Batches, SeveralOperationsOneSubmission) {
    // Three in-place adds chained on one buffer, the middle one with a bad index: it fails
    // alone, the others apply, and wait reports it by position.
    std::mt19937_64 rng(23);
    Case c = random_case(rng, Op::rows, SCATTER_DTYPE_I32, SCATTER_REDUCTION_ADD);
    c.options.out_of_range = SCATTER_OUT_OF_RANGE_ERROR;
    for (size_t e = 0; e < c.indices.size(); e += c.index_i64 ? 8 : 4) std::memset(&c.indices[e], 0, c.index_i64 ? 8 : 4);
    BufferTensors t;
    make_buffers(vulkan, c, &t);
    Case bad = c;
    int32_t huge = 1 << 20;
    std::memcpy(bad.indices.data(), &huge, 4);
    if (bad.index_i64) std::memset(bad.indices.data() + 4, 0, 4);
    BufferTensors bad_t;
    make_buffers(vulkan, bad, &bad_t);
    bad_t.d.buffer = t.data;  // same out as the others

    scatter_batch batch = nullptr;
    ASSERT_EQ(scatter_batch_create(vulkan, &batch), SCATTER_OK);
    EXPECT_EQ(scatter_batch_wait(batch), SCATTER_ERROR_INVALID_ARGUMENT);  // not submitted yet
    ASSERT_EQ(scatter_batch_record(batch, SCATTER_OP_ROWS, &t.d, &t.i, &t.u, &c.options, &t.d), SCATTER_OK);
    ASSERT_EQ(scatter_batch_record(batch, SCATTER_OP_ROWS, &bad_t.d, &bad_t.i, &bad_t.u, &c.options, &bad_t.d),
              SCATTER_OK);
    ASSERT_EQ(scatter_batch_record(batch, SCATTER_OP_ROWS, &t.d, &t.i, &t.u, &c.options, &t.d), SCATTER_OK);
    ASSERT_EQ(scatter_batch_submit(batch), SCATTER_OK);
    EXPECT_EQ(scatter_batch_submit(batch), SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(scatter_batch_wait(batch), SCATTER_ERROR_INDEX_OUT_OF_RANGE);
    EXPECT_EQ(std::string(scatter_last_error_message()).rfind("batch operation 1: indices", 0), 0u)
        << scatter_last_error_message();
    scatter_batch_destroy(batch);

    Case twice = c;
    twice.data = run_reference(c).out;
    std::vector<uint8_t> want = run_reference(twice).out;
    EXPECT_EQ(read_all(t.data, c.data.size()), want);
}

TEST_F(Batches, HostOutIsRefused) {
    scatter_batch batch = nullptr;
    ASSERT_EQ(scatter_batch_create(vulkan, &batch), SCATTER_OK);
    float data[2] = {1, 2}, upd[1] = {3};
    int32_t idx[1] = {1};
    int64_t two = 2, one = 1;
    scatter_tensor d = SCATTER_TENSOR_INIT, i = SCATTER_TENSOR_INIT, u = SCATTER_TENSOR_INIT;
    d.dtype = u.dtype = SCATTER_DTYPE_F32;
    i.dtype = SCATTER_DTYPE_I32;
    d.rank = i.rank = u.rank = 1;
    d.shape = &two;
    i.shape = u.shape = &one;
    d.data = data;
    i.data = idx;
    u.data = upd;
    EXPECT_EQ(scatter_batch_record(batch, SCATTER_OP_ELEMENTS, &d, &i, &u, nullptr, &d), SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(scatter_batch_record(batch, scatter_op(9), &d, &i, &u, nullptr, &d), SCATTER_ERROR_INVALID_ARGUMENT);
    scatter_batch_destroy(batch);
}

TEST_F(Batches, NonVulkanContextsAnswerUnsupported) {
    scatter_batch batch = nullptr;
    EXPECT_EQ(scatter_batch_create(cpu, &batch), SCATTER_ERROR_UNSUPPORTED);
    scatter_buffer wrapped = nullptr;
    EXPECT_EQ(scatter_buffer_wrap_vulkan(cpu, 1234, 0, 16, &wrapped), SCATTER_ERROR_UNSUPPORTED);
    size_t size = 0;
    EXPECT_EQ(scatter_pipeline_cache_data(cpu, nullptr, &size), SCATTER_ERROR_UNSUPPORTED);
    scatter_recording recording = nullptr;
    int dummy = 0;
    EXPECT_EQ(scatter_record_vulkan(cpu, &dummy, SCATTER_OP_ELEMENTS, nullptr, nullptr, nullptr, nullptr, nullptr,
                                    &recording),
              SCATTER_ERROR_UNSUPPORTED);
    EXPECT_EQ(scatter_batch_wait(nullptr), SCATTER_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(scatter_recording_result(nullptr), SCATTER_ERROR_INVALID_ARGUMENT);
}

TEST_F(Batches, PipelineCacheRoundTrip) {
    std::mt19937_64 rng(29);
    Case c = random_case(rng, Op::elements, SCATTER_DTYPE_F32, SCATTER_REDUCTION_MAX);
    ASSERT_EQ(run_case(vulkan, c, Layout::Host).status, run_reference(c).status);
    size_t size = 0;
    ASSERT_EQ(scatter_pipeline_cache_data(vulkan, nullptr, &size), SCATTER_OK);
    ASSERT_GT(size, 0u);
    std::vector<uint8_t> blob(size);
    ASSERT_EQ(scatter_pipeline_cache_data(vulkan, blob.data(), &size), SCATTER_OK);
    size_t too_small = size - 1;
    EXPECT_EQ(scatter_pipeline_cache_data(vulkan, blob.data(), &too_small), SCATTER_ERROR_INVALID_ARGUMENT);

    scatter_vulkan_device_desc device = SCATTER_VULKAN_DEVICE_DESC_INIT;
    device.pipeline_cache_data = blob.data();
    device.pipeline_cache_size = blob.size();
    scatter_context warm = nullptr;
    ASSERT_EQ(scatter_context_create_vulkan(nullptr, &device, &warm), SCATTER_OK);
    Result got = run_case(warm, c, Layout::Host);
    EXPECT_EQ(got.out, run_case(vulkan, c, Layout::Host).out);
    scatter_context_destroy(warm);
}

// ---- interop: the test is the engine ----

struct Engine {
    void* library = nullptr;
    PFN_vkGetInstanceProcAddr gipa = nullptr;
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physical = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE;
    uint32_t family = 0;
    PFN_vkGetDeviceProcAddr gdpa = nullptr;

    template <class F>
    F instance_fn(const char* name) { return reinterpret_cast<F>(gipa(instance, name)); }
    template <class F>
    F device_fn(const char* name) { return reinterpret_cast<F>(gdpa(device, name)); }

    bool start() {
        library = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) return false;
        gipa = reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(library, "vkGetInstanceProcAddr"));
        auto create_instance = instance_fn<PFN_vkCreateInstance>("vkCreateInstance");
        VkApplicationInfo app{};
        app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
        app.apiVersion = VK_API_VERSION_1_1;
        VkInstanceCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
        info.pApplicationInfo = &app;
        if (create_instance(&info, nullptr, &instance) != VK_SUCCESS) return false;
        uint32_t count = 1;
        auto enumerate = instance_fn<PFN_vkEnumeratePhysicalDevices>("vkEnumeratePhysicalDevices");
        if (enumerate(instance, &count, &physical) < 0 || count == 0) return false;
        auto families = instance_fn<PFN_vkGetPhysicalDeviceQueueFamilyProperties>("vkGetPhysicalDeviceQueueFamilyProperties");
        uint32_t n = 0;
        families(physical, &n, nullptr);
        std::vector<VkQueueFamilyProperties> props(n);
        families(physical, &n, props.data());
        while (family < n && !(props[family].queueFlags & VK_QUEUE_COMPUTE_BIT)) ++family;
        float priority = 1;
        VkDeviceQueueCreateInfo queue_info{};
        queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
        queue_info.queueFamilyIndex = family;
        queue_info.queueCount = 1;
        queue_info.pQueuePriorities = &priority;
        VkDeviceCreateInfo device_info{};
        device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
        device_info.queueCreateInfoCount = 1;
        device_info.pQueueCreateInfos = &queue_info;
        if (instance_fn<PFN_vkCreateDevice>("vkCreateDevice")(physical, &device_info, nullptr, &device) != VK_SUCCESS)
            return false;
        gdpa = instance_fn<PFN_vkGetDeviceProcAddr>("vkGetDeviceProcAddr");
        device_fn<PFN_vkGetDeviceQueue>("vkGetDeviceQueue")(device, family, 0, &queue);
        return true;
    }

    // A host-visible storage buffer holding `bytes`.
    struct HostBuffer {
        VkBuffer buffer = VK_NULL_HANDLE;
        VkDeviceMemory memory = VK_NULL_HANDLE;
        void* mapped = nullptr;
    };
    HostBuffer buffer(const std::vector<uint8_t>& bytes) {
        HostBuffer b;
        VkBufferCreateInfo info{};
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
        info.size = bytes.size();
        info.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
        device_fn<PFN_vkCreateBuffer>("vkCreateBuffer")(device, &info, nullptr, &b.buffer);
        VkMemoryRequirements req;
        device_fn<PFN_vkGetBufferMemoryRequirements>("vkGetBufferMemoryRequirements")(device, b.buffer, &req);
        VkPhysicalDeviceMemoryProperties mem;
        instance_fn<PFN_vkGetPhysicalDeviceMemoryProperties>("vkGetPhysicalDeviceMemoryProperties")(physical, &mem);
        uint32_t type = 0;
        const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        while (!((req.memoryTypeBits >> type) & 1u) || (mem.memoryTypes[type].propertyFlags & want) != want) ++type;
        VkMemoryAllocateInfo alloc{};
        alloc.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
        alloc.allocationSize = req.size;
        alloc.memoryTypeIndex = type;
        device_fn<PFN_vkAllocateMemory>("vkAllocateMemory")(device, &alloc, nullptr, &b.memory);
        device_fn<PFN_vkBindBufferMemory>("vkBindBufferMemory")(device, b.buffer, b.memory, 0);
        device_fn<PFN_vkMapMemory>("vkMapMemory")(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped);
        std::memcpy(b.mapped, bytes.data(), bytes.size());
        return b;
    }
    void release(HostBuffer& b) {
        device_fn<PFN_vkDestroyBuffer>("vkDestroyBuffer")(device, b.buffer, nullptr);
        device_fn<PFN_vkFreeMemory>("vkFreeMemory")(device, b.memory, nullptr);
    }

    ~Engine() {
        if (device != VK_NULL_HANDLE) device_fn<PFN_vkDestroyDevice>("vkDestroyDevice")(device, nullptr);
        if (instance != VK_NULL_HANDLE) instance_fn<PFN_vkDestroyInstance>("vkDestroyInstance")(instance, nullptr);
    }
};

using Interop = VulkanTest;

TEST_F(Interop, RecordIntoTheApplicationsCommandBuffer) {
    Engine engine;
    ASSERT_TRUE(engine.start()) << "the test could not create its own Vulkan device";
    scatter_vulkan_device_desc desc = SCATTER_VULKAN_DEVICE_DESC_INIT;
    desc.instance = engine.instance;
    desc.physical_device = engine.physical;
    desc.device = engine.device;
    desc.queue = engine.queue;
    desc.queue_family_index = engine.family;
    desc.get_instance_proc_addr = reinterpret_cast<scatter_vk_get_instance_proc_addr>(engine.gipa);
    scatter_context ctx = nullptr;
    ASSERT_EQ(scatter_context_create_vulkan(nullptr, &desc, &ctx), SCATTER_OK) << scatter_last_error_message();

    std::mt19937_64 rng(31);
    Case c = random_case(rng, Op::nd, SCATTER_DTYPE_F32, SCATTER_REDUCTION_ADD);
    c.in_place = true;
    Engine::HostBuffer data = engine.buffer(c.data), indices = engine.buffer(c.indices), updates = engine.buffer(c.updates);
    scatter_buffer d_buf = nullptr, i_buf = nullptr, u_buf = nullptr;
    ASSERT_EQ(scatter_buffer_wrap_vulkan(ctx, uint64_t(reinterpret_cast<uintptr_t>(data.buffer)), 0, c.data.size(), &d_buf),
              SCATTER_OK);
    ASSERT_EQ(scatter_buffer_wrap_vulkan(ctx, uint64_t(reinterpret_cast<uintptr_t>(indices.buffer)), 0, c.indices.size(), &i_buf),
              SCATTER_OK);
    ASSERT_EQ(scatter_buffer_wrap_vulkan(ctx, uint64_t(reinterpret_cast<uintptr_t>(updates.buffer)), 0, c.updates.size(), &u_buf),
              SCATTER_OK);
    scatter_tensor d = SCATTER_TENSOR_INIT, i = SCATTER_TENSOR_INIT, u = SCATTER_TENSOR_INIT;
    d.dtype = u.dtype = SCATTER_DTYPE_F32;
    i.dtype = c.index_i64 ? SCATTER_DTYPE_I64 : SCATTER_DTYPE_I32;
    d.rank = uint32_t(c.data_shape.size());
    i.rank = uint32_t(c.index_shape.size());
    u.rank = uint32_t(c.update_shape.size());
    d.shape = c.data_shape.data();
    i.shape = c.index_shape.data();
    u.shape = c.update_shape.data();
    d.buffer = d_buf;
    i.buffer = i_buf;
    u.buffer = u_buf;

    VkCommandPoolCreateInfo pool_info{};
    pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    pool_info.queueFamilyIndex = engine.family;
    VkCommandPool pool;
    engine.device_fn<PFN_vkCreateCommandPool>("vkCreateCommandPool")(engine.device, &pool_info, nullptr, &pool);
    VkCommandBufferAllocateInfo alloc{};
    alloc.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    alloc.commandPool = pool;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VkCommandBuffer cmd;
    engine.device_fn<PFN_vkAllocateCommandBuffers>("vkAllocateCommandBuffers")(engine.device, &alloc, &cmd);
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    engine.device_fn<PFN_vkBeginCommandBuffer>("vkBeginCommandBuffer")(cmd, &begin);
    scatter_recording recording = nullptr;
    ASSERT_EQ(scatter_record_vulkan(ctx, cmd, SCATTER_OP_ND, &d, &i, &u, &c.options, &d, &recording), SCATTER_OK)
        << scatter_last_error_message();
    engine.device_fn<PFN_vkEndCommandBuffer>("vkEndCommandBuffer")(cmd);
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    ASSERT_EQ(engine.device_fn<PFN_vkQueueSubmit>("vkQueueSubmit")(engine.queue, 1, &submit, VK_NULL_HANDLE), VK_SUCCESS);
    engine.device_fn<PFN_vkQueueWaitIdle>("vkQueueWaitIdle")(engine.queue);

    Result want = run_reference(c);
    EXPECT_EQ(scatter_recording_result(recording), want.status);
    std::vector<uint8_t> got(c.data.size());
    std::memcpy(got.data(), data.mapped, got.size());
    EXPECT_EQ(got, want.out);

    scatter_recording_destroy(recording);
    engine.device_fn<PFN_vkDestroyCommandPool>("vkDestroyCommandPool")(engine.device, pool, nullptr);
    scatter_buffer_destroy(d_buf);
    scatter_buffer_destroy(i_buf);
    scatter_buffer_destroy(u_buf);
    scatter_context_destroy(ctx);
    engine.release(data);
    engine.release(indices);
    engine.release(updates);
}

}  // namespace
}  // namespace vulkan_test
