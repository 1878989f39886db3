// Loading .npy files into little-endian C-order arrays, and encoding arrays back.
#include "npy.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

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

std::vector<uint8_t> read_whole_file(const std::string& path) {
    std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file) throw NpyError("cannot open '" + path + "': " + std::strerror(errno));
    std::vector<uint8_t> bytes;
    size_t used = 0;
    for (;;) {
        if (used == bytes.size()) bytes.resize(std::max<size_t>(1 << 16, bytes.size() * 2));
        const size_t got = std::fread(bytes.data() + used, 1, bytes.size() - used, file.get());
        used += got;
        if (got == 0) break;
    }
    if (std::ferror(file.get())) throw NpyError("cannot read '" + path + "': " + std::strerror(errno));
    bytes.resize(used);
    return bytes;
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
        std::vector<uint8_t> file = read_whole_file(path);
        const NpyHeader header = parse_header(file.data(), file.size());
        // Drop the preamble in place rather than copying the data.
        file.erase(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(header.data_offset));
        return finish(header, std::move(file));
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
