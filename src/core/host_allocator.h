// HostAllocator: the context's allocator for scratch memory (the application's, or malloc).
#pragma once

#include <scatter/scatter.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#ifdef _WIN32
#include <malloc.h>  // _aligned_malloc: the Windows C runtime has no aligned_alloc
#endif

namespace scatter {

class HostAllocator {
public:
    HostAllocator() = default;
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

private:
    scatter_allocator custom_{};
    bool has_custom_ = false;
};

// An owned array of T from a HostAllocator; empty after a failed allocate().
template <class T>
class ScratchArray {
public:
    explicit ScratchArray(const HostAllocator& allocator) : allocator_(&allocator) {}
    ScratchArray(const ScratchArray&) = delete;
    ScratchArray& operator=(const ScratchArray&) = delete;
    ~ScratchArray() { allocator_->release(data_); }

    // Allocates `count` elements (uninitialized); false when out of memory or the size overflows.
    bool allocate(size_t count) {
        allocator_->release(data_);
        data_ = nullptr;
        if (count > SIZE_MAX / sizeof(T)) return false;
        data_ = static_cast<T*>(allocator_->allocate(count * sizeof(T), alignof(T) < 64 ? 64 : alignof(T)));
        return data_ != nullptr;
    }
    T* data() const { return data_; }
    T& operator[](size_t i) const { return data_[i]; }

private:
    const HostAllocator* allocator_;
    T* data_ = nullptr;
};

}  // namespace scatter
