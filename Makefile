# The two commands of the README: `make demo` and `make test`. Both install missing Debian
# packages first (scripts/install-deps.sh), then configure and build with CMake.
BUILD ?= build
BUILD_ASAN ?= build-asan
BUILD_TSAN ?= build-tsan
BUILD_AARCH64 ?= build-aarch64
BUILD_MINGW ?= build-mingw
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps build demo test sanitize tsan bench cross-aarch64 cross-mingw cross-test clean

all: build

deps:
	bash scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/examples/scatter_demo

# lavapipe and mono are installed by deps, so a missing Vulkan device or C# toolchain is a
# failure, never a skip.
test: build
	cd $(BUILD) && SCATTER_TEST_REQUIRE_VULKAN=1 SCATTER_TEST_REQUIRE_CSHARP=1 ctest --output-on-failure -j $(JOBS)

sanitize: deps
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSCATTER_SANITIZE=ON -DSCATTER_BUILD_BENCHMARKS=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	cd $(BUILD_ASAN) && SCATTER_TEST_REQUIRE_VULKAN=1 ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS) -LE no_sanitizer

# ThreadSanitizer on the tests that share contexts between threads: the CPU backend's concurrency
# and context tests, the differential suite at 1, 2 and 7 threads and through a parallel_for
# callback, one Vulkan context used from several threads, batches and interop.
tsan: deps
	cmake -S . -B $(BUILD_TSAN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSCATTER_SANITIZE_THREAD=ON -DSCATTER_BUILD_BENCHMARKS=OFF \
	  -DCMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE=PRE_TEST $(CMAKE_FLAGS)
	cmake --build $(BUILD_TSAN) -j $(JOBS) --target scatter_unit_tests scatter_diff_test scatter_vulkan_tests
	cd $(BUILD_TSAN)/tests && export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$(CURDIR)/tests/tsan.supp && \
	  ./unit/scatter_unit_tests && \
	  SCATTER_TEST_BACKENDS=cpu SCATTER_TEST_ITERATIONS=1000 ./diff/scatter_diff_test --gtest_filter=DiffRandom.* && \
	  SCATTER_TEST_REQUIRE_VULKAN=1 ./vulkan/scatter_vulkan_tests \
	    --gtest_filter=Basics.OneContextFromSeveralThreads:Batches.*:Interop.*:Atomics.*:SharedDevice.ContextsCreatedAndDestroyedFromSeveralThreads

# Cross builds (docs/embedding.md): aarch64 Linux tested under qemu-user, Windows (mingw-w64)
# tested under wine. Each script installs its own packages.
cross-aarch64:
	JOBS=$(JOBS) bash scripts/cross-aarch64.sh $(BUILD_AARCH64)

cross-mingw:
	JOBS=$(JOBS) bash scripts/cross-mingw.sh $(BUILD_MINGW)

cross-test: cross-aarch64 cross-mingw

bench: build
	$(BUILD)/tools/scatter bench --workload all

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_AARCH64) $(BUILD_MINGW)
