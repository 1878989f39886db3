// Runs the .npy fuzz target (fuzz_npy.cpp) without libFuzzer, so every compiler tests it:
// deterministic mutations of valid files (every truncation, every byte replaced by interesting
// values, random edits of the header dict with the length field kept consistent), plus any files
// named on the command line (e.g. crash reproducers saved by libFuzzer).
#include "npy.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size);

namespace {

size_t g_inputs_run = 0;

void run(const std::vector<uint8_t>& input) {
    LLVMFuzzerTestOneInput(input.data(), input.size());
    ++g_inputs_run;
}

std::vector<uint8_t> image_of(int major, const std::string& dict, size_t data_size) {
    std::string bytes = "\x93NUMPY";
    bytes += static_cast<char>(major);
    bytes += '\0';
    const std::string header = dict + "\n";
    const uint32_t length = static_cast<uint32_t>(header.size());
    for (int i = 0; i < (major == 1 ? 2 : 4); ++i) bytes += static_cast<char>((length >> (8 * i)) & 0xff);
    bytes += header;
    std::vector<uint8_t> image(bytes.begin(), bytes.end());
    for (size_t i = 0; i < data_size; ++i) image.push_back(static_cast<uint8_t>(i * 37 + 11));
    return image;
}

struct Seed {
    int major;
    std::string dict;
    size_t data_size;
};

const Seed kSeeds[] = {
    {1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 24},
    {1, "{'descr': '>i8', 'fortran_order': True, 'shape': (3, 2), }", 48},
    {2, "{'descr': '<c16', 'fortran_order': False, 'shape': (2,), }", 32},
    {3, "{'descr': '|S3', 'fortran_order': True, 'shape': (2, 2, 1), }", 12},
    {1, "{'descr': '>U2', 'fortran_order': False, 'shape': (), }", 8},
    {1, "{\"shape\": (0, 5), \"fortran_order\": False, \"descr\": \"|b1\"}", 0},
    {1, "{'descr': '<f2', 'fortran_order': True, 'shape': (1, 2, 1, 2), }", 8},
};

const uint8_t kInterestingBytes[] = {0x00, 0xff, 0x80, ' ', '\'', '"', '(', ')', ',', ':', '{', '}',
                                     '0', '9', 'L', '<', '>', '|', 'T', 'F', '\n', '\\', '['};

class Random {
public:
    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    size_t below(size_t bound) { return bound == 0 ? 0 : static_cast<size_t>(next() % bound); }

private:
    uint64_t state_ = 0;
};

const char* const kDictFragments[] = {
    "(", ")", ",", "18446744073709551616", "9223372036854775807", "4294967296", "0", "-1",
    "True", "False", "'descr'", "'shape'", "'fortran_order'", "'<U1073741824'", "'|S0'", "'>c8'",
    "'<V3'", "[", "]", "'", "\"", " ", "}", "{", "L", ":",
};

void mutate_bytes(const Seed& seed) {
    const std::vector<uint8_t> image = image_of(seed.major, seed.dict, seed.data_size);
    for (size_t length = 0; length < image.size(); ++length)
        run(std::vector<uint8_t>(image.begin(), image.begin() + static_cast<std::ptrdiff_t>(length)));
    for (size_t position = 0; position < image.size(); ++position) {
        for (uint8_t value : kInterestingBytes) {
            std::vector<uint8_t> mutated = image;
            mutated[position] = value;
            run(mutated);
        }
    }
}

// Edits the dict text and rebuilds a consistent preamble, so the parser itself is reached.
void mutate_dict(const Seed& seed, Random& random) {
    for (int round = 0; round < 1500; ++round) {
        std::string dict = seed.dict;
        const int edits = 1 + static_cast<int>(random.below(3));
        for (int e = 0; e < edits; ++e) {
            const size_t position = random.below(dict.size() + 1);
            const std::string fragment = kDictFragments[random.below(std::size(kDictFragments))];
            switch (random.below(3)) {
            case 0: dict.insert(position, fragment); break;
            case 1: dict.erase(position, 1 + random.below(4)); break;
            default: dict.replace(position, 1 + random.below(3), fragment); break;
            }
        }
        const size_t data_size = random.below(2) ? seed.data_size : random.below(64);
        run(image_of(seed.major, dict, data_size));
    }
}

void run_files(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        std::ifstream file(argv[i], std::ios::binary);
        if (!file) {
            std::fprintf(stderr, "cannot open %s\n", argv[i]);
            continue;
        }
        run(std::vector<uint8_t>(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()));
    }
}

}  // namespace

int main(int argc, char** argv) {
    Random random;
    for (const Seed& seed : kSeeds) {
        mutate_bytes(seed);
        mutate_dict(seed, random);
    }
    run_files(argc, argv);
    std::printf("%zu inputs decoded or rejected without a crash\n", g_inputs_run);
    return 0;
}
