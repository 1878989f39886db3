// Loading .npy files into little-endian C-order arrays, and encoding arrays back.
#include "npy.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sys/stat.h>

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "arrays are held little-endian; a big-endian host would need swaps on load and save");

namespace npy {
namespace {

void swap_bytes_in_place(std::vector<uint8_t>* bytes, uint32_t unit) {
    if (unit <= 1) return;
    for (size_t offset = 0; offset + unit <= bytes->size(); offset += unit)
        std::reverse(bytes->begin() + offset, bytes->begin() + offset + unit);
}

// Reorders Fortran-order elements into C order.
std::vector<uint8_t> fortran_to_c_order(const std::vector<uint8_t>& source,
                                        const std::vector<int64_t>& shape, size_t element_size) {
    std::vector<uint8_t> result(source.size());
    const size_t rank = shape.size();
    if (result.empty() || rank < 2) {
        result = source;
        return result;
    }
    std::vector<size_t> source_stride(rank);  // in elements; dimension 0 varies fastest
    size_t stride = 1;
    for (size_t d = 0; d < rank; ++d) {
        source_stride[d] = stride;
        stride *= static_cast<size_t>(shape[d]);
    }
    // Walk the C-order destination; the last dimension is the inner loop.
    std::vector<int64_t> position(rank, 0);
    const size_t inner = static_cast<size_t>(shape[rank - 1]);
    uint8_t* out = result.data();
    for (;;) {
        size_t base = 0;
        for (size_t d = 0; d + 1 < rank; ++d) base += static_cast<size_t>(position[d]) * source_stride[d];
        for (size_t i = 0; i < inner; ++i, out += element_size)
            std::memcpy(out, source.data() + (base + i * source_stride[rank - 1]) * element_size, element_size);
        size_t d = rank - 1;
        while (d > 0) {
            --d;
            if (++position[d] < shape[d]) break;
            position[d] = 0;
            if (d == 0) return result;
        }
    }
}

// Turns the data bytes described by `header` into a little-endian C-order array.
NpyArray finish(const NpyHeader& header, std::vector<uint8_t> data) {
    NpyArray array;
    array.dtype = header.dtype;
    array.shape = header.shape;
    if (header.big_endian) swap_bytes_in_place(&data, byte_swap_unit(header.dtype));
    if (header.fortran_order)
        array.bytes = fortran_to_c_order(data, header.shape, header.dtype.element_size);
    else
        array.bytes = std::move(data);
    return array;
}

using File = std::unique_ptr<FILE, int (*)(FILE*)>;

// Appends up to `count` bytes from `file` to `bytes`, fewer only at the end of the file. The
// buffer grows as data arrives, so a stream that ends early never costs the memory it promised.
void read_up_to(FILE* file, const std::string& path, uint64_t count, std::vector<uint8_t>* bytes) {
    const size_t goal = bytes->size() + static_cast<size_t>(count);
    size_t used = bytes->size();
    while (used < goal) {
        bytes->resize(std::min<size_t>(goal, std::max<size_t>(used + (1 << 16), used * 2)));
        const size_t got = std::fread(bytes->data() + used, 1, bytes->size() - used, file);
        used += got;
        if (got == 0) break;
    }
    bytes->resize(used);
    if (std::ferror(file)) throw NpyError("cannot read '" + path + "': " + std::strerror(errno));
}

NpyArray load_file(const std::string& path) {
    File file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file) throw NpyError("cannot open '" + path + "': " + std::strerror(errno));
    std::vector<uint8_t> preamble;
    read_up_to(file.get(), path, 12, &preamble);
    const uint64_t length = preamble_length(preamble.data(), preamble.size());
    if (length > preamble.size()) read_up_to(file.get(), path, length - preamble.size(), &preamble);
    const NpyHeader header = parse_preamble(preamble.data(), preamble.size());

    // A regular file's size tells at once whether the data fits the header, before a byte of it
    // is read (an 8 GiB tail is an error to report, not memory to spend).
    struct stat info;
    const bool regular = ::fstat(::fileno(file.get()), &info) == 0 && S_ISREG(info.st_mode);
    if (regular) check_data_size(header, static_cast<uint64_t>(info.st_size) - header.data_offset);

    // Anything else is read no further than the data plus one byte, which tells a longer stream.
    std::vector<uint8_t> data;
    if (regular) data.reserve(static_cast<size_t>(header.data_size));  // known to be there
    read_up_to(file.get(), path, header.data_size, &data);
    check_data_size(header, data.size());
    const int extra = std::fgetc(file.get());
    if (extra != EOF)
        throw NpyError("file goes on after the " + std::to_string(header.data_size) +
                       " data bytes the header describes");
    if (std::ferror(file.get())) throw NpyError("cannot read '" + path + "': " + std::strerror(errno));
    return finish(header, std::move(data));
}

}  // namespace

uint64_t NpyArray::element_count() const {
    uint64_t count = 1;
    for (int64_t extent : shape) count *= static_cast<uint64_t>(extent);
    return count;
}

NpyArray decode(const uint8_t* bytes, size_t size) {
    const NpyHeader header = parse_header(bytes, size);
    const uint8_t* data = bytes + header.data_offset;
    return finish(header, std::vector<uint8_t>(data, data + header.data_size));
}

NpyArray load(const std::string& path) {
    try {
        return load_file(path);
    } catch (const NpyError& error) {
        const std::string message = error.what();
        if (message.find(path) != std::string::npos) throw;
        throw NpyError("'" + path + "': " + message);
    }
}

std::string encode_header(const NpyDtype& dtype, const std::vector<int64_t>& shape) {
    std::string dict = "{'descr': '" + dtype.descr + "', 'fortran_order': False, 'shape': (";
    for (size_t d = 0; d < shape.size(); ++d) {
        if (d > 0) dict += ", ";
        dict += std::to_string(shape[d]);
    }
    dict += shape.size() == 1 ? ",), }" : "), }";

    // Pad with spaces and end with a newline so that the data starts at a multiple of 64.
    const size_t alignment = 64;
    const bool fits_version_1 = 10 + dict.size() + 1 + alignment <= 65535;
    const size_t prefix = fits_version_1 ? 10 : 12;
    const size_t total = (prefix + dict.size() + 1 + alignment - 1) / alignment * alignment;
    dict.append(total - prefix - dict.size() - 1, ' ');
    dict += '\n';

    std::string result = "\x93NUMPY";
    result += static_cast<char>(fits_version_1 ? 1 : 2);
    result += '\0';
    const uint32_t length = static_cast<uint32_t>(dict.size());
    for (size_t i = 0; i < prefix - 8; ++i) result += static_cast<char>((length >> (8 * i)) & 0xff);
    return result + dict;
}

std::vector<uint8_t> encode(const NpyArray& array) {
    const std::string header = encode_header(array.dtype, array.shape);
    std::vector<uint8_t> result(header.begin(), header.end());
    result.insert(result.end(), array.bytes.begin(), array.bytes.end());
    return result;
}

}  // namespace npy
