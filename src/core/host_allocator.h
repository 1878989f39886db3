// HostAllocator: the context's allocator for buffers and scratch memory (the application's, or
// malloc with a cache of freed scratch blocks).
#pragma once

#include "core/scratch_cache.h"

#include <scatter/scatter.h>

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#ifdef _WIN32
#include <malloc.h>  // _aligned_malloc: the Windows C runtime has no aligned_alloc
#endif

namespace scatter {

class HostAllocator {
public:
    HostAllocator() : scratch_cache_(std::make_shared<ScratchCache>()) {}
    // The application's allocator sees every block: no scratch is kept between calls.
    explicit HostAllocator(const scatter_allocator& custom) : custom_(custom), has_custom_(true) {}

    // Returns nullptr when out of memory. alignment is a power of two <= 4096.
    void* allocate(size_t size, size_t alignment = 64) const {
        if (size == 0) size = 1;
        if (has_custom_) return custom_.alloc(custom_.user, size, alignment);
        size_t rounded = (size + alignment - 1) / alignment * alignment;
        if (rounded < size) return nullptr;
#ifdef _WIN32
        return _aligned_malloc(rounded, alignment);
#else
        return std::aligned_alloc(alignment, rounded);
#endif
    }

    void release(void* p) const {
        if (p == nullptr) return;
        if (has_custom_) custom_.free(custom_.user, p);
#ifdef _WIN32
        else _aligned_free(p);
#else
        else std::free(p);
#endif
    }

    // Scratch for one call, aligned to 64 bytes: with malloc, a block freed by an earlier call when
    // one fits (scratch_cache.h). *capacity is what to pass to release_scratch.
    void* allocate_scratch(size_t size, size_t* capacity) const {
        if (scratch_cache_ != nullptr) return scratch_cache_->allocate(size, capacity);
        *capacity = size;
        return allocate(size, ScratchCache::kAlignment);
    }
    void release_scratch(void* p, size_t capacity) const {
        if (scratch_cache_ != nullptr) scratch_cache_->release(p, capacity);
        else release(p);
    }
    // Freed scratch kept for later calls, in bytes (0 with the application's allocator).
    size_t kept_scratch_bytes() const { return scratch_cache_ != nullptr ? scratch_cache_->kept_bytes() : 0; }

private:
    scatter_allocator custom_{};
    bool has_custom_ = false;
    // Shared by copies (a buffer keeps a copy of its context's allocator).
    std::shared_ptr<ScratchCache> scratch_cache_;
};

// An owned array of T from a HostAllocator; empty after a failed allocate().
template <class T>
class ScratchArray {
public:
    explicit ScratchArray(const HostAllocator& allocator) : allocator_(&allocator) {}
    ScratchArray(const ScratchArray&) = delete;
    ScratchArray& operator=(const ScratchArray&) = delete;
    ~ScratchArray() { allocator_->release_scratch(data_, capacity_); }

    // Allocates `count` elements (uninitialized: a reused block holds an earlier call's bytes);
    // false when out of memory or the size overflows.
    bool allocate(size_t count) {
        static_assert(alignof(T) <= ScratchCache::kAlignment, "scratch blocks are aligned to 64 bytes");
        allocator_->release_scratch(data_, capacity_);
        data_ = nullptr;
        if (count > SIZE_MAX / sizeof(T)) return false;
        data_ = static_cast<T*>(allocator_->allocate_scratch(count * sizeof(T), &capacity_));
        return data_ != nullptr;
    }
    T* data() const { return data_; }
    T& operator[](size_t i) const { return data_[i]; }

private:
    const HostAllocator* allocator_;
    T* data_ = nullptr;
    size_t capacity_ = 0;
};

}  // namespace scatter
