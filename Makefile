# The two commands of the README: `make demo` and `make test`. Both install missing Debian
# packages first (scripts/install-deps.sh), then configure and build with CMake.
BUILD ?= build
BUILD_ASAN ?= build-asan
BUILD_AARCH64 ?= build-aarch64
BUILD_MINGW ?= build-mingw
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps build demo test sanitize bench cross-aarch64 cross-mingw cross-test clean

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
	cd $(BUILD_ASAN) && SCATTER_TEST_REQUIRE_VULKAN=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS) -LE no_sanitizer

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
