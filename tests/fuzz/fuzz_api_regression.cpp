// Runs the C-API fuzz target (fuzz_api.cpp) without libFuzzer, so every compiler tests it: the
// files and folders named on the command line (the committed corpus, crash inputs libFuzzer
// saved), then SCATTER_FUZZ_RANDOM_INPUTS pseudo-random inputs (default 20000) from a fixed seed.
// The backends come from SCATTER_FUZZ_BACKENDS as for the fuzzer ("cpu" or "cpu,vulkan").
// A folder's files run in name order; SCATTER_FUZZ_CORPUS_STRIDE=N runs every Nth of them only
// (a fixed sample, for slow backends).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <algorithm>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size);

namespace {

size_t g_inputs_run = 0;

void run(const std::vector<uint8_t>& input) {
    LLVMFuzzerTestOneInput(input.data(), input.size());
    ++g_inputs_run;
}

bool run_file(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return false;
    if (std::getenv("SCATTER_FUZZ_VERBOSE") != nullptr) std::fprintf(stderr, "%s:\n", path.c_str());
    run(std::vector<uint8_t>(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()));
    return true;
}

uint64_t next_random(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// A slow input is a finding too (a hang in the making): saved for replay with SCATTER_FUZZ_VERBOSE=1.
void save_slow_input(const std::vector<uint8_t>& input, long index, double seconds) {
    const std::string name = "slow-input-" + std::to_string(index);
    std::ofstream(name, std::ios::binary).write(reinterpret_cast<const char*>(input.data()), std::streamsize(input.size()));
    std::fprintf(stderr, "random input %ld took %.1f s: saved as %s\n", index, seconds, name.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    LLVMFuzzerInitialize(&argc, &argv);
    const char* stride_text = std::getenv("SCATTER_FUZZ_CORPUS_STRIDE");
    const size_t stride = stride_text != nullptr && std::atol(stride_text) > 0 ? size_t(std::atol(stride_text)) : 1;
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path path = argv[i];
        std::error_code error;
        if (std::filesystem::is_directory(path, error)) {
            std::vector<std::filesystem::path> files;
            for (const auto& entry : std::filesystem::directory_iterator(path))
                if (entry.is_regular_file()) files.push_back(entry.path());
            std::sort(files.begin(), files.end());
            for (size_t f = 0; f < files.size(); f += stride) run_file(files[f]);
        } else if (!run_file(path)) {
            std::fprintf(stderr, "cannot open %s\n", argv[i]);
            return 1;
        }
    }
    const size_t corpus_inputs = g_inputs_run;
    const char* count_text = std::getenv("SCATTER_FUZZ_RANDOM_INPUTS");
    const long count = count_text != nullptr ? std::atol(count_text) : 20000;
    uint64_t state = 0x5ca77e5;
    for (long i = 0; i < count; ++i) {
        std::vector<uint8_t> input(8 + next_random(state) % 120);
        for (uint8_t& byte : input) byte = uint8_t(next_random(state));
        const auto start = std::chrono::steady_clock::now();
        run(input);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (seconds > 0.5) save_slow_input(input, i, seconds);
    }
    std::printf("%zu corpus inputs and %zu random inputs kept every promise\n", corpus_inputs,
                g_inputs_run - corpus_inputs);
    return 0;
}
