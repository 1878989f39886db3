#include "fill_value.h"

#include "cli_error.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace {

[[noreturn]] void not_a_value(const std::string& text, const npy::NpyDtype& dtype, const char* expected) {
    throw CliError(SCATTER_ERROR_INVALID_ARGUMENT, "--fill-value '" + text + "' is not " + expected +
                                                       " for data dtype '" + dtype.descr + "'");
}

[[noreturn]] void does_not_fit(const std::string& text, const npy::NpyDtype& dtype, const char* why) {
    throw CliError(SCATTER_ERROR_TYPE_MISMATCH,
                   "--fill-value '" + text + "' " + why + " data dtype '" + dtype.descr + "'");
}

template <typename T>
std::vector<uint8_t> bytes_of(T value) {
    std::vector<uint8_t> bytes(sizeof value);
    std::memcpy(bytes.data(), &value, sizeof value);  // little-endian hosts only, as npy.cpp
    return bytes;
}

// The whole text as a double (strtod's spelling: decimal, hex, inf, nan), or false.
bool parse_double(const std::string& text, double* value) {
    if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
    char* end = nullptr;
    errno = 0;
    *value = std::strtod(text.c_str(), &end);
    // ERANGE: an overflow gives inf (refused below as a finite value that overflows), an
    // underflow a (sub)normal or zero: the nearest value, as numpy would round it.
    return end == text.c_str() + text.size();
}

// binary16 bits of `value`, rounded to nearest even straight from double (no double rounding
// through float). `value` is finite and below 65520 in magnitude, or inf or nan.
uint16_t half_bits(double value) {
    const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
    if (std::isnan(value)) return sign | 0x7e00;
    const double magnitude = std::fabs(value);
    if (std::isinf(magnitude)) return sign | 0x7c00;
    if (magnitude < 0x1p-14) {  // subnormal (or rounds up to the smallest normal, 0x0400)
        return sign | static_cast<uint16_t>(std::nearbyint(magnitude * 0x1p24));
    }
    int exponent = 0;
    std::frexp(magnitude, &exponent);  // magnitude = f * 2^exponent, f in [0.5, 1)
    --exponent;                        // magnitude = 1.m * 2^exponent
    double mantissa = std::nearbyint(std::ldexp(magnitude, 10 - exponent));  // in [1024, 2048]
    if (mantissa == 2048) {
        mantissa = 1024;
        ++exponent;
    }
    return sign | static_cast<uint16_t>((exponent + 15) << 10) | static_cast<uint16_t>(mantissa - 1024);
}

// A finite value that becomes infinite in a dtype `element_size` bytes wide.
bool overflows(double value, uint32_t element_size) {
    if (!std::isfinite(value)) return false;
    if (element_size == 2) return std::fabs(value) >= 65520.0;  // what rounds beyond 65504
    if (element_size == 4) return std::isinf(static_cast<float>(value));
    return false;
}

bool spells_infinity(const std::string& text) {
    std::string lower = text;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return lower.find("inf") != std::string::npos;
}

std::vector<uint8_t> float_bytes(const std::string& text, const npy::NpyDtype& dtype) {
    double value = 0;
    if (!parse_double(text, &value)) not_a_value(text, dtype, "a number");
    if ((std::isinf(value) && !spells_infinity(text)) || overflows(value, dtype.element_size))
        does_not_fit(text, dtype, "is out of the range of");
    switch (dtype.element_size) {
    case 2: return bytes_of(half_bits(value));
    case 4: return bytes_of(static_cast<float>(value));
    default: return bytes_of(value);
    }
}

std::vector<uint8_t> integer_bytes(const std::string& text, const npy::NpyDtype& dtype) {
    if (text.empty() || !(std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '-' || text[0] == '+'))
        not_a_value(text, dtype, "an integer");
    char* end = nullptr;
    errno = 0;
    const unsigned bits = 8 * dtype.element_size;
    if (dtype.kind == 'u') {
        if (text[0] == '-') {
            // "-0" is zero; any other negative value does not fit.
            const long long negative = std::strtoll(text.c_str(), &end, 10);
            if (end != text.c_str() + text.size()) not_a_value(text, dtype, "an integer");
            if (negative != 0 || errno == ERANGE) does_not_fit(text, dtype, "does not convert exactly to");
            return std::vector<uint8_t>(dtype.element_size, 0);
        }
        const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
        if (end != text.c_str() + text.size()) not_a_value(text, dtype, "an integer");
        if (errno == ERANGE || (bits < 64 && value >> bits != 0))
            does_not_fit(text, dtype, "does not convert exactly to");
        std::vector<uint8_t> bytes(dtype.element_size);
        for (unsigned i = 0; i < dtype.element_size; ++i) bytes[i] = uint8_t(value >> (8 * i));
        return bytes;
    }
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (end != text.c_str() + text.size()) not_a_value(text, dtype, "an integer");
    const long long low = bits < 64 ? -(1ll << (bits - 1)) : std::numeric_limits<long long>::min();
    const long long high = bits < 64 ? (1ll << (bits - 1)) - 1 : std::numeric_limits<long long>::max();
    if (errno == ERANGE || value < low || value > high) does_not_fit(text, dtype, "does not convert exactly to");
    std::vector<uint8_t> bytes(dtype.element_size);
    for (unsigned i = 0; i < dtype.element_size; ++i) bytes[i] = uint8_t(static_cast<unsigned long long>(value) >> (8 * i));
    return bytes;
}

std::vector<uint8_t> bool_bytes(const std::string& text, const npy::NpyDtype& dtype) {
    if (text == "true" || text == "True" || text == "1") return {1};
    if (text == "false" || text == "False" || text == "0") return {0};
    not_a_value(text, dtype, "true, false, 1 or 0");
}

// Python's complex spelling: "re", "imj", "re+imj", "re-imj", each optionally in parentheses.
std::vector<uint8_t> complex_bytes(const std::string& text, const npy::NpyDtype& dtype) {
    std::string body = text;
    if (body.size() >= 2 && body.front() == '(' && body.back() == ')') body = body.substr(1, body.size() - 2);
    double real = 0, imaginary = 0;
    if (!body.empty() && (body.back() == 'j' || body.back() == 'J')) {
        body.pop_back();
        // The sign that starts the imaginary part: not the first character, not an exponent's.
        size_t split = std::string::npos;
        for (size_t i = body.size(); i-- > 1;)
            if ((body[i] == '+' || body[i] == '-') && body[i - 1] != 'e' && body[i - 1] != 'E') {
                split = i;
                break;
            }
        std::string imaginary_text = split == std::string::npos ? body : body.substr(split);
        if (imaginary_text == "+" || imaginary_text == "-" || imaginary_text.empty()) imaginary_text += "1";
        if (!parse_double(imaginary_text, &imaginary)) not_a_value(text, dtype, "a complex number");
        if (split != std::string::npos && !parse_double(body.substr(0, split), &real))
            not_a_value(text, dtype, "a complex number");
    } else if (!parse_double(body, &real)) {
        not_a_value(text, dtype, "a complex number");
    }
    if ((std::isinf(real) || std::isinf(imaginary)) && !spells_infinity(text))
        does_not_fit(text, dtype, "is out of the range of");
    if (overflows(real, dtype.element_size / 2) || overflows(imaginary, dtype.element_size / 2))
        does_not_fit(text, dtype, "is out of the range of");
    if (dtype.element_size == 8) {
        const float parts[2] = {float(real), float(imaginary)};
        std::vector<uint8_t> bytes(8);
        std::memcpy(bytes.data(), parts, 8);
        return bytes;
    }
    const double parts[2] = {real, imaginary};
    std::vector<uint8_t> bytes(16);
    std::memcpy(bytes.data(), parts, 16);
    return bytes;
}

// UTF-8 to code points; false for malformed text.
bool decode_utf8(const std::string& text, std::vector<uint32_t>* code_points) {
    for (size_t i = 0; i < text.size();) {
        const unsigned char lead = static_cast<unsigned char>(text[i]);
        const int length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xe ? 3 : (lead >> 3) == 0x1e ? 4 : 0;
        if (length == 0 || i + size_t(length) > text.size()) return false;
        uint32_t point = length == 1 ? lead : lead & (0x7f >> length);
        for (int k = 1; k < length; ++k) {
            const unsigned char next = static_cast<unsigned char>(text[i + size_t(k)]);
            if ((next >> 6) != 0x2) return false;
            point = (point << 6) | (next & 0x3f);
        }
        static const uint32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
        if (point < kSmallest[length] || point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) return false;
        code_points->push_back(point);
        i += size_t(length);
    }
    return true;
}

std::vector<uint8_t> string_bytes(const std::string& text, const npy::NpyDtype& dtype) {
    std::vector<uint8_t> bytes(dtype.element_size, 0);
    if (dtype.kind == 'S') {
        if (text.size() > dtype.element_size) does_not_fit(text, dtype, "is longer than the elements of");
        std::memcpy(bytes.data(), text.data(), text.size());
        return bytes;
    }
    std::vector<uint32_t> points;
    if (!decode_utf8(text, &points)) not_a_value(text, dtype, "UTF-8 text");
    if (points.size() * 4 > dtype.element_size) does_not_fit(text, dtype, "is longer than the elements of");
    for (size_t i = 0; i < points.size(); ++i)
        for (int b = 0; b < 4; ++b) bytes[4 * i + size_t(b)] = uint8_t(points[i] >> (8 * b));
    return bytes;
}

std::vector<uint8_t> raw_bytes(const std::string& text, const npy::NpyDtype& dtype) {
    const size_t digits = 2 * size_t(dtype.element_size);
    if (text.size() != digits + 2 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X'))
        not_a_value(text, dtype, ("0x and " + std::to_string(digits) + " hex digits").c_str());
    std::vector<uint8_t> bytes(dtype.element_size);
    for (size_t i = 0; i < bytes.size(); ++i) {
        const std::string pair = text.substr(2 + 2 * i, 2);
        if (!std::isxdigit(static_cast<unsigned char>(pair[0])) || !std::isxdigit(static_cast<unsigned char>(pair[1])))
            not_a_value(text, dtype, ("0x and " + std::to_string(digits) + " hex digits").c_str());
        bytes[i] = uint8_t(std::strtoul(pair.c_str(), nullptr, 16));
    }
    return bytes;
}

}  // namespace

std::vector<uint8_t> fill_value_bytes(const std::string& text, const npy::NpyDtype& dtype) {
    switch (dtype.kind) {
    case 'f': return float_bytes(text, dtype);
    case 'i': case 'u': return integer_bytes(text, dtype);
    case 'b': return bool_bytes(text, dtype);
    case 'c': return complex_bytes(text, dtype);
    case 'S': case 'U': return string_bytes(text, dtype);
    default: return raw_bytes(text, dtype);
    }
}
