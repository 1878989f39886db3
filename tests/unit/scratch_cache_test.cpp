// The context's cache of freed scratch blocks (src/core/scratch_cache.h): reuse, its limits, and
// the application's allocator seeing every block.
#include "core/host_allocator.h"
#include "core/scratch_cache.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
#ifdef _WIN32
#include <malloc.h>
#endif

namespace {

using scatter::HostAllocator;
using scatter::ScratchArray;
using scatter::ScratchCache;

constexpr size_t kMiB = size_t(1) << 20;

TEST(ScratchCache, ReusesAFreedBlockOfAFittingSize) {
    ScratchCache cache;
    size_t capacity = 0;
    void* first = cache.allocate(8 * kMiB, &capacity);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(capacity, 8 * kMiB);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(first) % ScratchCache::kAlignment, 0u);
    std::memset(first, 1, capacity);
    cache.release(first, capacity);
    EXPECT_EQ(cache.kept_bytes(), 8 * kMiB);

    // A smaller request (at least half the block) gets the same block, with its full capacity.
    void* again = cache.allocate(5 * kMiB, &capacity);
    EXPECT_EQ(again, first);
    EXPECT_EQ(capacity, 8 * kMiB);
    EXPECT_EQ(cache.kept_bytes(), 0u);
    // Less than half of it: a new block, the kept one stays kept.
    cache.release(again, capacity);
    void* small = cache.allocate(3 * kMiB, &capacity);
    EXPECT_NE(small, first);
    EXPECT_EQ(capacity, 3 * kMiB);
    EXPECT_EQ(cache.kept_bytes(), 8 * kMiB);
    cache.release(small, capacity);
    // Larger than it: a new block.
    void* large = cache.allocate(9 * kMiB, &capacity);
    EXPECT_NE(large, first);
    cache.release(large, capacity);
}

TEST(ScratchCache, TakesTheSmallestFittingBlock) {
    ScratchCache cache;
    size_t c16 = 0, c10 = 0, capacity = 0;
    void* b16 = cache.allocate(16 * kMiB, &c16);
    void* b10 = cache.allocate(10 * kMiB, &c10);
    cache.release(b16, c16);
    cache.release(b10, c10);
    EXPECT_EQ(cache.allocate(9 * kMiB, &capacity), b10);
    EXPECT_EQ(cache.allocate(9 * kMiB, &capacity), b16);
    cache.release(b10, c10);
    cache.release(b16, c16);
}

TEST(ScratchCache, SmallAndHugeBlocksAreNotKept) {
    ScratchCache cache;
    size_t capacity = 0;
    void* small = cache.allocate(ScratchCache::kMinBytes - 1, &capacity);
    cache.release(small, capacity);
    EXPECT_EQ(cache.kept_bytes(), 0u);
    void* zero = cache.allocate(0, &capacity);
    ASSERT_NE(zero, nullptr);
    cache.release(zero, capacity);
    void* huge = cache.allocate(ScratchCache::kMaxBytes + 1, &capacity);
    ASSERT_NE(huge, nullptr);
    cache.release(huge, capacity);
    EXPECT_EQ(cache.kept_bytes(), 0u);
}

TEST(ScratchCache, KeepsAtMostItsLimitsDroppingTheOldest) {
    ScratchCache cache;
    // More blocks than slots: the newest kSlots stay.
    std::vector<std::pair<void*, size_t>> blocks;
    for (int i = 0; i < ScratchCache::kSlots + 3; ++i) {
        size_t capacity = 0;
        blocks.emplace_back(cache.allocate(kMiB + size_t(i) * 4096, &capacity), capacity);
    }
    for (auto& b : blocks) cache.release(b.first, b.second);
    size_t newest = 0;
    for (size_t i = blocks.size() - ScratchCache::kSlots; i < blocks.size(); ++i) newest += blocks[i].second;
    EXPECT_EQ(cache.kept_bytes(), newest);
    size_t capacity = 0;
    EXPECT_EQ(cache.allocate(blocks.back().second, &capacity), blocks.back().first);
    cache.release(blocks.back().first, capacity);

    // Bytes: two blocks of 3/4 of the limit do not both stay.
    ScratchCache bytes;
    const size_t big = ScratchCache::kMaxBytes / 4 * 3;
    void* a = bytes.allocate(big, &capacity);
    void* b = bytes.allocate(big, &capacity);
    bytes.release(a, big);
    bytes.release(b, big);
    EXPECT_EQ(bytes.kept_bytes(), big);
    EXPECT_EQ(bytes.allocate(big, &capacity), b);
    bytes.release(b, capacity);
}

TEST(ScratchCache, ManyThreadsAtOnce) {
    ScratchCache cache;
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t)
        threads.emplace_back([&cache, t] {
            for (int i = 0; i < 200; ++i) {
                size_t capacity = 0;
                const size_t size = kMiB / 8 * size_t(1 + (t + i) % 5);
                auto* p = static_cast<unsigned char*>(cache.allocate(size, &capacity));
                ASSERT_NE(p, nullptr);
                ASSERT_GE(capacity, size);
                std::memset(p, t, size);  // no other thread holds this block
                for (size_t at = 0; at < size; at += 4096) ASSERT_EQ(p[at], t);
                cache.release(p, capacity);
            }
        });
    for (auto& t : threads) t.join();
    EXPECT_LE(cache.kept_bytes(), ScratchCache::kMaxBytes);
}

struct Counting {
    int live = 0, calls = 0;
    static void* alloc(void* user, size_t size, size_t alignment) {
        auto* c = static_cast<Counting*>(user);
        ++c->live;
        ++c->calls;
#ifdef _WIN32
        return _aligned_malloc(size, alignment);
#else
        return std::aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
#endif
    }
    static void release(void* user, void* p) {
        if (p == nullptr) return;
        --static_cast<Counting*>(user)->live;
#ifdef _WIN32
        _aligned_free(p);
#else
        std::free(p);
#endif
    }
};

TEST(ScratchCache, TheApplicationsAllocatorSeesEveryBlockComeBack) {
    Counting counting;
    const scatter_allocator custom = {&counting, &Counting::alloc, &Counting::release};
    const HostAllocator allocator(custom);
    for (int i = 0; i < 3; ++i) {
        ScratchArray<int64_t> array(allocator);
        ASSERT_TRUE(array.allocate(kMiB));
        EXPECT_EQ(counting.live, 1);
    }
    EXPECT_EQ(counting.live, 0);
    EXPECT_EQ(counting.calls, 3);
    EXPECT_EQ(allocator.kept_scratch_bytes(), 0u);
}

TEST(ScratchCache, ScratchArraysOfOneContextReuseTheirBlocks) {
    const HostAllocator allocator;
    const int64_t* first = nullptr;
    {
        ScratchArray<int64_t> array(allocator);
        ASSERT_TRUE(array.allocate(kMiB));
        first = array.data();
    }
    EXPECT_EQ(allocator.kept_scratch_bytes(), kMiB * sizeof(int64_t));
    ScratchArray<int64_t> again(allocator);
    ASSERT_TRUE(again.allocate(kMiB - 1));
    EXPECT_EQ(again.data(), first);
    // Reallocating gives the block back first.
    ASSERT_TRUE(again.allocate(kMiB));
    EXPECT_EQ(again.data(), first);
    ScratchArray<int64_t> overflow(allocator);
    EXPECT_FALSE(overflow.allocate(SIZE_MAX / 4));
}

}  // namespace
