// Reading and writing NumPy .npy files (format versions 1.0, 2.0 and 3.0).
//
// An array is held in memory as little-endian, C-order bytes whatever the file had: big-endian
// files are byte-swapped and Fortran-order files transposed on load. Every dtype of libscatter
// except bfloat16 (which NumPy lacks) has a .npy spelling; fixed-width strings ('S<n>', 'U<n>')
// and raw void ('V<n>') become SCATTER_DTYPE_OPAQUE elements and keep their descr for writing.
//
// Malformed input never crashes: every failure is an NpyError with a one-sentence message.
#pragma once

#include <scatter/scatter.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace npy {

class NpyError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The element type of an array, as libscatter and NumPy name it.
struct NpyDtype {
    scatter_dtype dtype = SCATTER_DTYPE_UNDEFINED;
    uint32_t element_size = 0;
    char kind = 0;          // NumPy kind letter: f i u b c S U V
    std::string descr;      // canonical descr for writing: "<f4", "|b1", "|S5", "<U5", "|V8"
};

struct NpyArray {
    NpyDtype dtype;
    std::vector<int64_t> shape;
    std::vector<uint8_t> bytes;  // C order, little-endian

    uint64_t element_count() const;
};

// What the header of a .npy file says, and where its data starts.
struct NpyHeader {
    int major_version = 0;
    NpyDtype dtype;
    bool big_endian = false;
    bool fortran_order = false;
    std::vector<int64_t> shape;
    uint64_t data_offset = 0;  // bytes before the data: magic, version, length, dict
    uint64_t data_size = 0;    // element count * element size, checked for overflow
};

// Largest rank accepted from a file (NumPy 2's limit); libscatter itself checks its own.
constexpr size_t kMaxFileRank = 64;

// Parses the descr string of a header ("<f4", ">i8", "|S5", "<U3"). Throws NpyError.
NpyDtype parse_descr(const std::string& descr, bool* big_endian);

// Bytes swapped as one unit when the byte order changes (1: nothing to swap).
uint32_t byte_swap_unit(const NpyDtype& dtype);

// Returns the dtype for a libscatter dtype (OPAQUE elements as raw void 'V<n>'). Throws
// NpyError for bfloat16 and undefined dtypes.
NpyDtype dtype_for(scatter_dtype dtype, uint32_t opaque_size = 0);

// Longest header dict accepted (NumPy writes under 1 KiB for any shape libscatter takes): a
// reader must not follow a corrupt length into gigabytes of input.
constexpr uint64_t kMaxHeaderLength = 1 << 20;

// The length of the preamble (magic, version, header length, dict) of the file that starts with
// `bytes`, from its first 12 bytes (or fewer, if the file is that short). Throws NpyError.
uint64_t preamble_length(const uint8_t* bytes, size_t size);

// Parses the preamble at the start of `bytes`, which need not hold any data. Throws NpyError.
NpyHeader parse_preamble(const uint8_t* bytes, size_t size);

// Checks that `present` bytes follow the preamble: exactly the data the header promises.
// Throws NpyError ("file is truncated ...", "file has N bytes after the data ...").
void check_data_size(const NpyHeader& header, uint64_t present);

// parse_preamble and check_data_size on a whole file image. Throws NpyError.
NpyHeader parse_header(const uint8_t* bytes, size_t size);

// Parses a whole .npy file image. Throws NpyError.
NpyArray decode(const uint8_t* bytes, size_t size);

// Reads a .npy file: the preamble first, then exactly the data it promises. A regular file's size
// is checked against the header before any data is read; any other file (a FIFO, a device) is
// read no further than the promised data plus one byte. Throws NpyError naming the path.
NpyArray load(const std::string& path);

// The bytes that precede the data of `array` in a .npy file (version 1.0, or 2.0 when the header
// is too long for 1.0), padded to a multiple of 64 bytes.
std::string encode_header(const NpyDtype& dtype, const std::vector<int64_t>& shape);

// A whole .npy file image of `array` (used by tests; the CLI writes header and data directly).
std::vector<uint8_t> encode(const NpyArray& array);

}  // namespace npy
