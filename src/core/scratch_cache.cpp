#include "core/scratch_cache.h"

#include <cstdlib>
#ifdef _WIN32
#include <malloc.h>  // _aligned_malloc: the Windows C runtime has no aligned_alloc
#endif

namespace scatter {
namespace {

void* allocate_aligned(size_t size) {
    const size_t rounded = (size + ScratchCache::kAlignment - 1) / ScratchCache::kAlignment * ScratchCache::kAlignment;
    if (rounded < size) return nullptr;
#ifdef _WIN32
    return _aligned_malloc(rounded, ScratchCache::kAlignment);
#else
    return std::aligned_alloc(ScratchCache::kAlignment, rounded);
#endif
}

void free_aligned(void* block) {
#ifdef _WIN32
    _aligned_free(block);
#else
    std::free(block);
#endif
}

}  // namespace

ScratchCache::~ScratchCache() {
    for (int slot = 0; slot < count_; ++slot) free_aligned(blocks_[slot].data);
}

void* ScratchCache::allocate(size_t size, size_t* capacity) {
    if (size == 0) size = 1;
    if (size >= kMinBytes) {
        std::lock_guard<std::mutex> lock(mutex_);
        int best = -1;
        for (int slot = 0; slot < count_; ++slot) {
            const size_t c = blocks_[slot].capacity;
            if (c >= size && c / 2 <= size && (best < 0 || c < blocks_[best].capacity)) best = slot;
        }
        if (best >= 0) {
            void* block = blocks_[best].data;
            *capacity = blocks_[best].capacity;
            bytes_ -= *capacity;
            blocks_[best] = blocks_[--count_];
            return block;
        }
    }
    *capacity = size;
    return allocate_aligned(size);
}

void ScratchCache::release(void* block, size_t capacity) {
    if (block == nullptr) return;
    if (capacity < kMinBytes || capacity > kMaxBytes) {
        free_aligned(block);
        return;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    while (count_ == kSlots || bytes_ + capacity > kMaxBytes) {
        int oldest = 0;
        for (int slot = 1; slot < count_; ++slot)
            if (blocks_[slot].last_use < blocks_[oldest].last_use) oldest = slot;
        drop(oldest);
    }
    blocks_[count_++] = Block{block, capacity, ++clock_};
    bytes_ += capacity;
}

size_t ScratchCache::kept_bytes() {
    std::lock_guard<std::mutex> lock(mutex_);
    return bytes_;
}

void ScratchCache::drop(int slot) {
    free_aligned(blocks_[slot].data);
    bytes_ -= blocks_[slot].capacity;
    blocks_[slot] = blocks_[--count_];
}

}  // namespace scatter
