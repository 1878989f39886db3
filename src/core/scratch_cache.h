// ScratchCache: freed scratch blocks a context keeps for its next calls. A fresh block costs a
// page fault per 4 KiB at first touch (13 us each on the 2-core CI VM: W12's 8 MB table of
// targets cost ~25 ms of a ~75 ms call), and glibc returns large blocks to the system at free.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>

namespace scatter {

class ScratchCache {
public:
    // Smaller blocks come from malloc's heap without new pages; larger ones are kept.
    static constexpr size_t kMinBytes = size_t(64) << 10;
    // The most a context keeps between calls, in all and in blocks.
    static constexpr size_t kMaxBytes = size_t(256) << 20;
    static constexpr int kSlots = 8;
    static constexpr size_t kAlignment = 64;

    ScratchCache() = default;
    ScratchCache(const ScratchCache&) = delete;
    ScratchCache& operator=(const ScratchCache&) = delete;
    ~ScratchCache();

    // A block of at least `size` bytes (aligned to kAlignment): a kept one of at most twice that
    // size, else a new one; *capacity is its size. nullptr when out of memory.
    void* allocate(size_t size, size_t* capacity);
    // Keeps the block for a later allocate (the oldest kept blocks go when over the limits), or
    // frees it.
    void release(void* block, size_t capacity);
    // Bytes kept now (for tests).
    size_t kept_bytes();

private:
    struct Block {
        void* data = nullptr;
        size_t capacity = 0;
        uint64_t last_use = 0;
    };
    void drop(int slot);  // frees slot's block; the last slot moves into it

    std::mutex mutex_;
    Block blocks_[kSlots];
    int count_ = 0;
    size_t bytes_ = 0;
    uint64_t clock_ = 0;
};

}  // namespace scatter
