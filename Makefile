# The two commands of the README: `make demo` and `make test`. Both install missing Debian
# packages first (scripts/install-deps.sh), then configure and build with CMake. `make demo`
# installs only the build dependencies and builds only the library and the demo, in its own tree.
BUILD ?= build
BUILD_DEMO ?= build-demo
# The demo's scatter is tiny: an unoptimized library compiles in under half the time of a Release
# one (58 s against 131 s from scratch on 2 busy cores). Build Release for real use.
DEMO_BUILD_TYPE ?= Debug
BUILD_ASAN ?= build-asan
BUILD_TSAN ?= build-tsan
BUILD_AARCH64 ?= build-aarch64
BUILD_MINGW ?= build-mingw
BUILD_FUZZ ?= build-fuzz
FUZZ_SECONDS ?= 120
# The sanitizer builds (sanitize, tsan, fuzz) at -Og with line tables only (-g1); their reports
# name file and line. gcc's -O1 under ASan + UBSan spent 150-210 s on each of the two largest
# kernel files (src/cpu/scatter_elements.cpp: 36 s at -Og, 29 s at -O0), most of the stage's
# build (CI time); -Og keeps most of -O1's code quality for the tests' CPU work. (clang, the
# fuzz build's compiler, takes -Og as -O1.)
SANITIZER_BUILD_FLAGS = -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-Og -g1 -DNDEBUG" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-Og -g1 -DNDEBUG"
JOBS ?= $(shell nproc)
# New build trees use Ninja: it compiles the tests' sources while the library's are still
# compiling (the Makefile generator waits for each target's dependencies first), which left one of
# the two cores idle behind the two largest kernels' files (CI time). A tree configured before
# keeps its generator (CMake refuses to change it).
generator = $(if $(wildcard $(1)/CMakeCache.txt),,-G Ninja)
CMAKE_FLAGS ?=
# The sanitizer, fuzz and cross builds embed the shader modules that $(BUILD) compiled, where it
# has them (cmake/shaders.cmake, SCATTER_SHADERS_FROM_BUILD: about a minute of glslang,
# spirv-val and embedding saved per build, CI time), after bringing them up to date there.
SHADERS_FROM = $(if $(wildcard $(BUILD)/src/vulkan/shaders/index.h),$(CURDIR)/$(BUILD))
UPDATE_SHADERS = $(if $(SHADERS_FROM),cmake --build $(BUILD) -j $(JOBS) --target scatter_objects_shaders,true)
SHADERS_FLAG = -DSCATTER_SHADERS_FROM_BUILD=$(SHADERS_FROM)
# The sanitizer builds' Vulkan tests share $(BUILD)'s Mesa shader cache (tests/CMakeLists.txt): the pipelines
# make test compiled are not compiled again (CI time).
MESA_CACHE_FLAG = -DSCATTER_TEST_MESA_CACHE_DIR=$(CURDIR)/$(BUILD)/mesa-shader-cache

.PHONY: all deps deps-build build demo test test-long sanitize tsan fuzz bench micro-bench cross-aarch64 cross-mingw cross-test clean

all: build

deps:
	bash scripts/install-deps.sh

deps-build:
	bash scripts/install-deps.sh --build

build: deps
	cmake -S . -B $(BUILD) $(call generator,$(BUILD)) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

demo: deps-build
	cmake -S . -B $(BUILD_DEMO) $(call generator,$(BUILD_DEMO)) -DCMAKE_BUILD_TYPE=$(DEMO_BUILD_TYPE) -DSCATTER_BUILD_TESTS=OFF -DSCATTER_BUILD_TOOLS=OFF \
	  -DSCATTER_BUILD_EXAMPLES=ON $(CMAKE_FLAGS)
	cmake --build $(BUILD_DEMO) -j $(JOBS) --target scatter_demo
	$(BUILD_DEMO)/examples/scatter_demo

# lavapipe and mono are installed by deps, so a missing Vulkan device or C# toolchain is a
# failure, never a skip.
# Two tiers (docs/testing.md): `make test` runs every test but the label `long` (every public
# call, error path, operation x reduction x dtype, and every Vulkan path and switch at least once);
# `make test-long` the exhaustive rest: the random reruns' full case counts, every conformance case
# on Vulkan, the fuzz corpus on lavapipe, the long runs, the builds of the library from source
# inside a parent project and inside cargo. .ci/run runs make test and half of the long tier.
TEST_ENV = SCATTER_TEST_REQUIRE_VULKAN=1 SCATTER_TEST_REQUIRE_CSHARP=1
test: build
	cd $(BUILD) && $(TEST_ENV) ctest --output-on-failure -j $(JOBS) -LE long

# LONG_SHARD=K/N runs share K of N of the long tier (scripts/long_tier_shard.py; .ci/run runs one
# half per run); empty, all of it.
LONG_SHARD ?=
test-long: build
	cd $(BUILD) && pattern=.* && \
	  $(if $(LONG_SHARD),pattern=$$(python3 $(CURDIR)/scripts/long_tier_shard.py . $(subst /, ,$(LONG_SHARD))) &&) \
	  $(TEST_ENV) ctest --output-on-failure -j $(JOBS) -L long -R "$$pattern"

# ASan records each allocation's stack: 6 frames instead of 30, because lavapipe's LLVM compiles
# every pipeline with many small allocations through frame-pointer-less code, and the deep walks
# made the Vulkan tests ~4x slower (a Vulkan differential run: 170 s against 48 s). Reports still
# give the full stack of the bad access and 6 frames of where its memory came from.
ASAN_TEST_OPTIONS = detect_leaks=1:malloc_context_size=6
# ASan + UBSan over the suite but the labels no_sanitizer (reruns that only switch shaders or
# device paths) and vulkan_shaders (the suites that check shader results over many pipelines:
# tests/vulkan/CMakeLists.txt); make test runs those.
sanitize: deps
	$(UPDATE_SHADERS)
	cmake -S . -B $(BUILD_ASAN) $(call generator,$(BUILD_ASAN)) $(SANITIZER_BUILD_FLAGS) $(SHADERS_FLAG) $(MESA_CACHE_FLAG) -DSCATTER_SANITIZE=ON \
	  -DSCATTER_BUILD_MICRO_BENCHMARKS=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	cd $(BUILD_ASAN) && SCATTER_TEST_REQUIRE_VULKAN=1 ASAN_OPTIONS=$(ASAN_TEST_OPTIONS) LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS) -LE 'no_sanitizer|vulkan_shaders'

# ThreadSanitizer on the tests that share contexts between threads: the CPU backend's concurrency
# and context tests, the differential suite at 1, 2 and 7 threads and through a parallel_for
# callback, its large cases (work split between threads) but the 32 MiB staged `none` (90 s
# under TSan; ElementsAxis0StagedMaxInPlaceTail takes the same staged path), one Vulkan context
# used from several threads, batches and interop. (Not the unit tests' gather backward on
# lavapipe against the oracle: one thread, 67 s of the stage's 8 minutes under TSan in CI.)
tsan: deps
	$(UPDATE_SHADERS)
	cmake -S . -B $(BUILD_TSAN) $(call generator,$(BUILD_TSAN)) $(SANITIZER_BUILD_FLAGS) $(SHADERS_FLAG) $(MESA_CACHE_FLAG) -DSCATTER_SANITIZE_THREAD=ON -DSCATTER_BUILD_MICRO_BENCHMARKS=OFF \
	  -DCMAKE_GTEST_DISCOVER_TESTS_DISCOVERY_MODE=PRE_TEST $(CMAKE_FLAGS)
	cmake --build $(BUILD_TSAN) -j $(JOBS) --target scatter_unit_tests scatter_diff_random_cpu scatter_diff_large_cpu \
	  scatter_vulkan_interop scatter_vulkan_atomics scatter_vulkan_basics scatter_vulkan_long_run
	cd $(BUILD_TSAN)/tests && export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$(CURDIR)/tests/tsan.supp && \
	  ./unit/scatter_unit_tests --gtest_filter=-Backward.GatherBackwardOnVulkanAgainstTheOracle && \
	  SCATTER_TEST_ITERATIONS=1000 ./diff/scatter_diff_random_cpu && \
	  ./diff/scatter_diff_large_cpu --gtest_filter=-DiffLarge.ElementsAxis0StagedNone && \
	  export SCATTER_TEST_REQUIRE_VULKAN=1 && ./vulkan/scatter_vulkan_interop && ./vulkan/scatter_vulkan_atomics && \
	  ./vulkan/scatter_vulkan_basics --gtest_filter=Basics.OneContextFromSeveralThreads && \
	  ./vulkan/scatter_vulkan_long_run --gtest_filter=SharedDevice.ContextsCreatedAndDestroyedFromSeveralThreads

# The clang build: ASan + UBSan with libFuzzer coverage on the library (static, so the fuzzers
# see its branches). Each libFuzzer target (the C API on the CPU, the C API on the CPU + lavapipe,
# the .npy parser) replays its committed corpus (lavapipe: a fixed sample of it) and fuzzes for
# FUZZ_SECONDS (scripts/fuzz.sh;
# docs/testing.md: how to run it for hours). Only the fuzzers are built: the tests run under
# ASan + UBSan in `make sanitize` (CI time).
fuzz: deps
	$(UPDATE_SHADERS)
	CC=clang CXX=clang++ cmake -S . -B $(BUILD_FUZZ) $(call generator,$(BUILD_FUZZ)) $(SANITIZER_BUILD_FLAGS) $(SHADERS_FLAG) -DSCATTER_SANITIZE=ON \
	  -DSCATTER_BUILD_FUZZERS=ON -DSCATTER_BUILD_SHARED=OFF -DSCATTER_BUILD_MICRO_BENCHMARKS=OFF \
	  "-DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link -fno-sanitize-recover=all" \
	  "-DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link -fno-sanitize-recover=all" $(CMAKE_FLAGS)
	cmake --build $(BUILD_FUZZ) -j $(JOBS) --target fuzz_api fuzz_npy
	bash scripts/fuzz.sh $(BUILD_FUZZ) $(FUZZ_SECONDS)

# Cross builds (docs/embedding.md): aarch64 Linux tested under qemu-user, Windows (mingw-w64)
# tested under wine. Each script installs its own packages.
cross-aarch64:
	$(UPDATE_SHADERS)
	JOBS=$(JOBS) SCATTER_SHADERS_FROM_BUILD=$(SHADERS_FROM) bash scripts/cross-aarch64.sh $(BUILD_AARCH64)

cross-mingw:
	$(UPDATE_SHADERS)
	JOBS=$(JOBS) SCATTER_SHADERS_FROM_BUILD=$(SHADERS_FROM) bash scripts/cross-mingw.sh $(BUILD_MINGW)

cross-test: cross-aarch64 cross-mingw

bench: build
	$(BUILD)/tools/scatter bench --workload all

# One Google Benchmark per CPU kernel family (benchmarks/micro), at 1 and 2 threads.
micro-bench: build
	$(BUILD)/benchmarks/micro/scatter_micro_bench

clean:
	rm -rf $(BUILD) $(BUILD_DEMO) $(BUILD_ASAN) $(BUILD_TSAN) $(BUILD_FUZZ) $(BUILD_AARCH64) $(BUILD_MINGW)
