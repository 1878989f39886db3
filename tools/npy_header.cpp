// The preamble of a .npy file: magic, version, header length and the header dict, a Python
// literal such as {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }. Parsed by hand,
// accepting exactly what NumPy writes (and any spacing, quotes or key order).
#include "npy.h"

#include <cstring>

namespace npy {
namespace {

constexpr uint8_t kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

class DictParser {
public:
    DictParser(const char* begin, const char* end) : pos_(begin), end_(end) {}

    void parse(NpyHeader* header) {
        bool have_descr = false, have_order = false, have_shape = false;
        skip_space();
        expect('{');
        skip_space();
        while (!at('}')) {
            const std::string key = parse_string();
            skip_space();
            expect(':');
            skip_space();
            if (key == "descr") {
                if (have_descr) fail("key 'descr' appears twice");
                if (at('[')) fail("structured dtypes (a list as 'descr') are not supported");
                header->dtype = parse_descr(parse_string(), &header->big_endian);
                have_descr = true;
            } else if (key == "fortran_order") {
                if (have_order) fail("key 'fortran_order' appears twice");
                header->fortran_order = parse_bool();
                have_order = true;
            } else if (key == "shape") {
                if (have_shape) fail("key 'shape' appears twice");
                header->shape = parse_shape();
                have_shape = true;
            } else {
                fail("unexpected key '" + key + "'");
            }
            skip_space();
            if (at(',')) {
                ++pos_;
                skip_space();
            } else if (!at('}')) {
                fail("expected ',' or '}' after the value of '" + key + "'");
            }
        }
        ++pos_;
        skip_space();
        if (pos_ != end_) fail("unexpected text after the closing '}'");
        if (!have_descr) fail("key 'descr' is missing");
        if (!have_order) fail("key 'fortran_order' is missing");
        if (!have_shape) fail("key 'shape' is missing");
    }

private:
    [[noreturn]] void fail(const std::string& what) { throw NpyError("header: " + what); }

    bool at(char c) const { return pos_ < end_ && *pos_ == c; }

    void expect(char c) {
        if (pos_ >= end_) fail(std::string("header ends where '") + c + "' was expected");
        if (!at(c)) fail(std::string("expected '") + c + "'");
        ++pos_;
    }

    void skip_space() {
        while (pos_ < end_ && (*pos_ == ' ' || *pos_ == '\t' || *pos_ == '\n' || *pos_ == '\r'))
            ++pos_;
    }

    // A quoted string without escapes (no NumPy key or descr needs one).
    std::string parse_string() {
        if (pos_ >= end_) fail("header ends where a quoted string was expected");
        if (!at('\'') && !at('"')) fail("expected a quoted string");
        const char quote = *pos_++;
        const char* start = pos_;
        while (pos_ < end_ && *pos_ != quote) {
            if (*pos_ == '\\' || *pos_ == '\n') fail("unterminated string, or an escape or line break in one");
            ++pos_;
        }
        if (pos_ >= end_) fail("unterminated string");
        return std::string(start, pos_++);
    }

    bool parse_word(const char* word) {
        const size_t length = std::strlen(word);
        if (static_cast<size_t>(end_ - pos_) < length || std::memcmp(pos_, word, length) != 0)
            return false;
        pos_ += length;
        return true;
    }

    bool parse_bool() {
        if (parse_word("True")) return true;
        if (parse_word("False")) return false;
        fail("'fortran_order' must be True or False");
    }

    int64_t parse_dimension() {
        if (pos_ >= end_) fail("header ends inside the shape");
        if (pos_ >= end_ || *pos_ < '0' || *pos_ > '9') fail("a shape entry is not a non-negative integer");
        int64_t value = 0;
        while (pos_ < end_ && *pos_ >= '0' && *pos_ <= '9') {
            const int digit = *pos_++ - '0';
            if (value > (INT64_MAX - digit) / 10) fail("a shape entry exceeds 2^63 - 1");
            value = value * 10 + digit;
        }
        if (at('L')) ++pos_;  // Python 2 long literal, as old NumPy wrote
        return value;
    }

    // "()", "(3,)", "(3, 4)", "(3, 4,)"; "(3)" is an int in Python, not a tuple.
    std::vector<int64_t> parse_shape() {
        std::vector<int64_t> shape;
        expect('(');
        skip_space();
        bool trailing_comma = false;
        while (!at(')')) {
            if (shape.size() == kMaxFileRank)
                fail("shape has more than " + std::to_string(kMaxFileRank) + " dimensions");
            shape.push_back(parse_dimension());
            skip_space();
            trailing_comma = at(',');
            if (trailing_comma) {
                ++pos_;
                skip_space();
            } else if (!at(')')) {
                fail("expected ',' or ')' in the shape");
            }
        }
        ++pos_;
        if (shape.size() == 1 && !trailing_comma) fail("shape (n) is not a tuple; write (n,)");
        return shape;
    }

    const char* pos_;
    const char* end_;
};

uint32_t read_le(const uint8_t* bytes, int count) {
    uint32_t value = 0;
    for (int i = count - 1; i >= 0; --i) value = (value << 8) | bytes[i];
    return value;
}

}  // namespace

uint64_t preamble_length(const uint8_t* bytes, size_t size) {
    if (size < 10 || std::memcmp(bytes, kMagic, sizeof kMagic) != 0)
        throw NpyError("not a .npy file (no \\x93NUMPY magic)");
    const int major_version = bytes[6];
    if (major_version < 1 || major_version > 3 || bytes[7] != 0)
        throw NpyError("unsupported .npy format version " + std::to_string(bytes[6]) + "." +
                       std::to_string(bytes[7]));
    const int length_bytes = major_version == 1 ? 2 : 4;
    const uint64_t prefix = 8 + static_cast<uint64_t>(length_bytes);
    if (size < prefix) throw NpyError("file ends inside the header length");
    const uint64_t dict_length = read_le(bytes + 8, length_bytes);
    if (dict_length > kMaxHeaderLength)
        throw NpyError("header length " + std::to_string(dict_length) + " exceeds the " +
                       std::to_string(kMaxHeaderLength) + " bytes this reader accepts");
    return prefix + dict_length;
}

NpyHeader parse_preamble(const uint8_t* bytes, size_t size) {
    const uint64_t length = preamble_length(bytes, size);
    NpyHeader header;
    header.major_version = bytes[6];
    const uint64_t prefix = header.major_version == 1 ? 10 : 12;
    if (length > size)
        throw NpyError("header length " + std::to_string(length - prefix) + " runs past the end of the file");
    const char* dict = reinterpret_cast<const char*>(bytes + prefix);
    DictParser(dict, dict + (length - prefix)).parse(&header);
    header.data_offset = length;

    // A zero extent makes the array empty however large the other extents are.
    uint64_t count = 1;
    for (int64_t extent : header.shape) {
        if (extent == 0) count = 0;
    }
    for (int64_t extent : header.shape) {
        if (count != 0 && __builtin_mul_overflow(count, static_cast<uint64_t>(extent), &count))
            throw NpyError("the element count of the shape overflows 64 bits");
    }
    if (__builtin_mul_overflow(count, static_cast<uint64_t>(header.dtype.element_size), &header.data_size) ||
        header.data_size > static_cast<uint64_t>(INT64_MAX))
        throw NpyError("the data size of the shape overflows 64 bits");
    return header;
}

void check_data_size(const NpyHeader& header, uint64_t present) {
    if (present < header.data_size)
        throw NpyError("file is truncated: the header promises " + std::to_string(header.data_size) +
                       " data bytes, the file holds " + std::to_string(present));
    if (present > header.data_size)
        throw NpyError("file has " + std::to_string(present - header.data_size) +
                       " bytes after the data the header describes");
}

NpyHeader parse_header(const uint8_t* bytes, size_t size) {
    const NpyHeader header = parse_preamble(bytes, size);
    check_data_size(header, size - header.data_offset);
    return header;
}

}  // namespace npy
