#include "tensor_values.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "dtypes.h"

namespace scatter_test {
namespace {

template <class T> std::vector<uint8_t> bytes_of(T value) {
    std::vector<uint8_t> b(sizeof value);
    std::memcpy(b.data(), &value, sizeof value);
    return b;
}

bool chance(Rng& rng, double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }

double random_real(Rng& rng, bool specials) {
    if (specials && chance(rng, 0.3)) {
        static const double picks[] = {
            std::numeric_limits<double>::quiet_NaN(), INFINITY, -INFINITY, 0.0, -0.0, 1e-40,
            -1e-42, 6e-8, 65504.0, 70000.0, 3e38, 1e300};
        return picks[rng() % (sizeof picks / sizeof picks[0])];
    }
    if (chance(rng, 0.4)) return double(int64_t(rng() % 17) - 8);
    return std::uniform_real_distribution<double>(-100, 100)(rng);
}

template <class I> I random_integer(Rng& rng) {
    uint64_t bits = rng();
    if (chance(rng, 0.5)) return I(int64_t(bits % 21) - 10);
    I value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

std::vector<uint8_t> random_element(scatter_dtype dtype, size_t size, const ValueProfile& p,
                                    Rng& rng) {
    switch (dtype) {
        case SCATTER_DTYPE_F16:
        case SCATTER_DTYPE_BF16:
        case SCATTER_DTYPE_F32:
        case SCATTER_DTYPE_F64: {
            std::vector<uint8_t> b(dtype_size(dtype));
            encode_value(dtype, 0, random_real(rng, p.specials), b.data());
            return b;
        }
        case SCATTER_DTYPE_C64: {
            float parts[2] = {float(random_real(rng, p.specials)), float(random_real(rng, p.specials))};
            std::vector<uint8_t> b(8);
            std::memcpy(b.data(), parts, 8);
            return b;
        }
        case SCATTER_DTYPE_C128: {
            double parts[2] = {random_real(rng, p.specials), random_real(rng, p.specials)};
            std::vector<uint8_t> b(16);
            std::memcpy(b.data(), parts, 16);
            return b;
        }
        case SCATTER_DTYPE_I8: return bytes_of(random_integer<int8_t>(rng));
        case SCATTER_DTYPE_I16: return bytes_of(random_integer<int16_t>(rng));
        case SCATTER_DTYPE_I32: return bytes_of(random_integer<int32_t>(rng));
        case SCATTER_DTYPE_I64: return bytes_of(random_integer<int64_t>(rng));
        case SCATTER_DTYPE_U8: return bytes_of(random_integer<uint8_t>(rng));
        case SCATTER_DTYPE_U16: return bytes_of(random_integer<uint16_t>(rng));
        case SCATTER_DTYPE_U32: return bytes_of(random_integer<uint32_t>(rng));
        case SCATTER_DTYPE_U64: return bytes_of(random_integer<uint64_t>(rng));
        case SCATTER_DTYPE_BOOL:
            return {uint8_t(p.loose_bools && chance(rng, 0.3) ? rng() % 256 : rng() % 2)};
        default: {
            std::vector<uint8_t> b(size);
            for (auto& byte : b) byte = uint8_t(rng());
            return b;
        }
    }
}

bool all_zero(const uint8_t* p, size_t n) {
    for (size_t i = 0; i < n; ++i)
        if (p[i]) return false;
    return true;
}

}  // namespace

void fill_values(HostTensor& t, const std::vector<double>& values) {
    size_t i = 0;
    for_each_coordinate(t.shape(), [&](const int64_t* p) {
        encode_value(t.dtype(), t.element_size(), values.at(i++), t.element(p));
    });
}

void fill_random_values(HostTensor& t, const ValueProfile& profile, Rng& rng) {
    for (auto& byte : t.storage()) byte = uint8_t(rng());
    size_t size = t.element_size();
    std::vector<uint8_t*> elements;
    for_each_coordinate(t.shape(), [&](const int64_t* p) {
        std::vector<uint8_t> b = random_element(t.dtype(), size, profile, rng);
        bool divisor = profile.avoid_zero || profile.plant_zero;
        if (divisor && is_integer(t.dtype()) && all_zero(b.data(), size)) b[0] = 1;
        std::memcpy(t.element(p), b.data(), size);
        elements.push_back(t.element(p));
    });
    if (profile.plant_zero && is_integer(t.dtype()) && !elements.empty())
        std::memset(elements[rng() % elements.size()], 0, size);
}

void fill_random_indices(HostTensor& indices, const std::function<int64_t(const int64_t*)>& extent,
                         const IndexProfile& profile, Rng& rng) {
    for (auto& byte : indices.storage()) byte = uint8_t(rng());
    bool i32 = indices.dtype() == SCATTER_DTYPE_I32;
    for_each_coordinate(indices.shape(), [&](const int64_t* p) {
        int64_t s = extent(p);
        int64_t value;
        if (s == 0 || chance(rng, profile.out_of_range_rate)) {
            if (profile.extremes && chance(rng, 0.3)) {
                bool low = rng() % 2;
                value = i32 ? (low ? INT32_MIN : INT32_MAX) : (low ? INT64_MIN : INT64_MAX);
            } else {
                value = rng() % 2 ? s + int64_t(rng() % 3) : -s - 1 - int64_t(rng() % 3);
            }
        } else {
            int64_t range = profile.hot_targets > 0 ? std::min(profile.hot_targets, s) : s;
            value = int64_t(rng() % uint64_t(range));
            if (chance(rng, profile.negative_rate)) value -= s;
        }
        if (i32) {
            int32_t narrow = int32_t(value);
            std::memcpy(indices.element(p), &narrow, 4);
        } else {
            std::memcpy(indices.element(p), &value, 8);
        }
    });
}

}  // namespace scatter_test
