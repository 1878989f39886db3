// libFuzzer entry point for the C API (scatter_elements / scatter_rows / scatter_nd). Each input
// decodes to one call (api_case.h) that runs on a 1-thread CPU context, a 3-thread CPU context and,
// with SCATTER_FUZZ_BACKENDS=cpu,vulkan, a Vulkan context; the promises checked:
// - a failure returns a listed status other than INTERNAL, sets a non-empty message and leaves
//   every byte of every tensor unchanged;
// - a success never writes indices or updates, and never writes data unless in place;
// - 3 threads give the same status and bytes as 1 thread;
// - Vulkan gives the CPU's status and bytes, or a clean UNSUPPORTED / OUT_OF_MEMORY.
// The bitwise comparisons are skipped for calls that allow nondeterminism. A broken promise prints
// the case and aborts, which libFuzzer saves as a crash input.
#include "api_case.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

namespace fuzz_api {
namespace {

struct Contexts {
    scatter_context cpu_one_thread = nullptr;
    scatter_context cpu_three_threads = nullptr;
    scatter_context vulkan = nullptr;
};

// Created once and never destroyed: LeakSanitizer sees them as reachable from a global.
Contexts g_contexts;
bool g_verbose = false;  // SCATTER_FUZZ_VERBOSE=1: print each case before running it

[[noreturn]] void fail(const ApiCase& c, const std::string& what) {
    std::fprintf(stderr, "fuzz_api: %s\n%s", what.c_str(), describe(c).c_str());
    std::abort();
}

scatter_context make_context(scatter_backend backend, uint32_t threads) {
    scatter_context_desc desc = SCATTER_CONTEXT_DESC_INIT;
    desc.backend = backend;
    desc.thread_count = threads;
    scatter_context context = nullptr;
    const scatter_status status = scatter_context_create(&desc, &context);
    if (status != SCATTER_OK) {
        std::fprintf(stderr, "fuzz_api: cannot create a %s context: %s\n", scatter_backend_name(backend),
                     scatter_last_error_message());
        std::exit(2);
    }
    return context;
}

// The memory of one run: a heap block per tensor (out shares data's when in place), each
// allocated at its exact size so ASan sees the tensor's edges.
struct Memory {
    std::unique_ptr<uint8_t[]> blocks[4];
    size_t sizes[4] = {};
};

struct Outcome {
    scatter_status status = SCATTER_OK;
    std::string message;
    Memory memory;
};

enum Slot { kData, kIndices, kUpdates, kOut };

const TensorCase& tensor_of(const ApiCase& c, int slot) {
    const TensorCase* tensors[] = {&c.data, &c.indices, &c.updates, &c.out};
    return *tensors[slot];
}

scatter_tensor view(const TensorCase& t, uint8_t* block) {
    scatter_tensor tensor = SCATTER_TENSOR_INIT;
    tensor.dtype = t.dtype;
    tensor.element_size = t.element_size;
    tensor.rank = uint32_t(t.shape.size());
    tensor.shape = t.shape.empty() ? nullptr : t.shape.data();
    tensor.strides = t.strides.empty() ? nullptr : t.strides.data();
    tensor.data = t.null_pointer ? nullptr : block + t.offset;
    return tensor;
}

Outcome run(scatter_context context, const ApiCase& c) {
    Outcome outcome;
    scatter_tensor tensors[4];
    for (int slot = 0; slot < 4; ++slot) {
        if (slot == kOut && c.in_place) {
            tensors[kOut] = tensors[kData];
            tensors[kOut].element_size = c.out.element_size;
            continue;
        }
        const std::vector<uint8_t>& image = tensor_of(c, slot).image;
        outcome.memory.blocks[slot].reset(new uint8_t[image.size()]);
        outcome.memory.sizes[slot] = image.size();
        if (!image.empty()) std::memcpy(outcome.memory.blocks[slot].get(), image.data(), image.size());
        tensors[slot] = view(tensor_of(c, slot), outcome.memory.blocks[slot].get());
    }
    const scatter_options* options = c.null_options ? nullptr : &c.options;
    const auto call = c.op == SCATTER_OP_ELEMENTS ? scatter_elements
                      : c.op == SCATTER_OP_ROWS   ? scatter_rows
                                                  : scatter_nd;
    outcome.status = call(context, &tensors[kData], &tensors[kIndices], &tensors[kUpdates], options, &tensors[kOut]);
    if (outcome.status != SCATTER_OK) outcome.message = scatter_last_error_message();
    return outcome;
}

bool same_bytes(const Outcome& outcome, int slot, const std::vector<uint8_t>& expected) {
    return outcome.memory.sizes[slot] == expected.size() &&
           (expected.empty() || std::memcmp(outcome.memory.blocks[slot].get(), expected.data(), expected.size()) == 0);
}

bool same_bytes(const Outcome& a, const Outcome& b, int slot) {
    return a.memory.sizes[slot] == b.memory.sizes[slot] &&
           (a.memory.sizes[slot] == 0 ||
            std::memcmp(a.memory.blocks[slot].get(), b.memory.blocks[slot].get(), a.memory.sizes[slot]) == 0);
}

bool unchanged(const ApiCase& c, const Outcome& outcome, int slot) {
    if (slot == kOut && c.in_place) return true;  // it is data's block
    return same_bytes(outcome, slot, tensor_of(c, slot).image);
}

const char* slot_name(int slot) {
    const char* names[] = {"data", "indices", "updates", "out"};
    return names[slot];
}

// The rules every single run obeys, whatever the backend.
void check_run(const ApiCase& c, const Outcome& outcome, const char* backend) {
    const std::string where = std::string(backend) + ": " + scatter_status_name(outcome.status);
    const bool listed = outcome.status >= SCATTER_OK && outcome.status <= SCATTER_ERROR_INTERNAL;
    if (!listed || outcome.status == SCATTER_ERROR_INTERNAL) fail(c, where + " is not an allowed status");
    if (outcome.status == SCATTER_OK) {
        for (int slot : {kIndices, kUpdates})
            if (!unchanged(c, outcome, slot)) fail(c, where + ", yet the call wrote " + slot_name(slot));
        if (!c.in_place && !unchanged(c, outcome, kData)) fail(c, where + ", yet an out-of-place call wrote data");
        return;
    }
    if (outcome.message.empty()) fail(c, where + " with an empty message");
    for (int slot = 0; slot < 4; ++slot)
        if (!unchanged(c, outcome, slot))
            fail(c, where + " (" + outcome.message + "), yet the call changed " + slot_name(slot));
}

// " at byte N: 8 bytes there in hex, first run / second run".
std::string first_difference(const Outcome& a, const Outcome& b, int slot) {
    const size_t size = std::min(a.memory.sizes[slot], b.memory.sizes[slot]);
    const uint8_t* x = a.memory.blocks[slot].get();
    const uint8_t* y = b.memory.blocks[slot].get();
    size_t at = 0;
    while (at < size && x[at] == y[at]) ++at;
    const size_t start = at & ~size_t(7), end = std::min(start + 8, size);
    std::string text = " at byte " + std::to_string(at) + ":";
    char hex[4];
    for (const uint8_t* bytes : {x, y}) {
        text += bytes == x ? " " : " / ";
        for (size_t i = start; i < end; ++i) {
            std::snprintf(hex, sizeof(hex), "%02x", bytes[i]);
            text += hex;
        }
    }
    return text;
}

// A second run (more threads, or Vulkan) must match the first bit for bit.
void check_same(const ApiCase& c, const Outcome& first, const Outcome& second, const char* what) {
    if (first.status != second.status)
        fail(c, std::string(what) + ": " + scatter_status_name(first.status) + " (" + first.message + ") vs " +
                    scatter_status_name(second.status) + " (" + second.message + ")");
    const bool order_free = (c.null_options ? 0u : c.options.flags) & SCATTER_OPTION_ALLOW_NONDETERMINISM;
    if (order_free) return;
    for (int slot = 0; slot < 4; ++slot)
        if (!same_bytes(first, second, slot))
            fail(c, std::string(what) + ": the bytes of " + slot_name(slot) + " differ" + first_difference(first, second, slot));
}

}  // namespace
}  // namespace fuzz_api

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    using namespace fuzz_api;
    g_contexts.cpu_one_thread = make_context(SCATTER_BACKEND_CPU, 1);
    g_contexts.cpu_three_threads = make_context(SCATTER_BACKEND_CPU, 3);
    g_verbose = std::getenv("SCATTER_FUZZ_VERBOSE") != nullptr;
    const char* backends = std::getenv("SCATTER_FUZZ_BACKENDS");
    if (backends != nullptr && std::strstr(backends, "vulkan") != nullptr)
        g_contexts.vulkan = make_context(SCATTER_BACKEND_VULKAN, 1);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size) {
    using namespace fuzz_api;
    ApiCase c;
    if (!decode_case(bytes, size, c)) return 0;
    if (g_verbose) std::fprintf(stderr, "%s", describe(c).c_str());
    const Outcome one = run(g_contexts.cpu_one_thread, c);
    check_run(c, one, "cpu, 1 thread");
    const Outcome three = run(g_contexts.cpu_three_threads, c);
    check_run(c, three, "cpu, 3 threads");
    check_same(c, one, three, "1 thread vs 3 threads");
    if (g_contexts.vulkan != nullptr) {
        const Outcome gpu = run(g_contexts.vulkan, c);
        check_run(c, gpu, "vulkan");
        const bool declined = gpu.status == SCATTER_ERROR_UNSUPPORTED || gpu.status == SCATTER_ERROR_OUT_OF_MEMORY;
        if (!declined) check_same(c, one, gpu, "cpu vs vulkan");
    }
    return 0;
}
