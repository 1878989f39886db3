#include "api_case.h"

#include <algorithm>
#include <cstring>
#include <sstream>

namespace fuzz_api {
namespace {

// A tensor above this many bytes or elements (zero strides make many elements of few bytes) is
// skipped when the library could accept it: the work of a call grows with the elements its
// caller declares, and the fuzzer's budget is thousands of calls per second, not one big one.
constexpr size_t kMaxImageBytes = 1u << 20;
constexpr int64_t kMaxElements = 1 << 20;

constexpr int64_t kHugeDims[] = {int64_t(1) << 31, (int64_t(1) << 31) - 1, int64_t(1) << 32,
                                 int64_t(1) << 40, int64_t(1) << 62,       INT64_MAX,
                                 -1,               INT64_MIN};
constexpr int64_t kHugeStrides[] = {INT64_MAX, INT64_MIN, int64_t(1) << 62, -(int64_t(1) << 62),
                                    int64_t(1) << 32, int64_t(1) << 40, INT64_MAX / 2 + 1};

// Reads the fuzzer's bytes in order; past the end every read is 0, so any prefix decodes.
class ByteSource {
public:
    ByteSource(const uint8_t* bytes, size_t size) : bytes_(bytes), size_(size) {}
    uint8_t byte() { return position_ < size_ ? bytes_[position_++] : 0; }
    uint32_t below(uint32_t bound) { return bound <= 1 ? 0 : uint32_t(word() % bound); }
    bool one_in(uint32_t n) { return byte() % n == 0; }
    uint32_t word() { return uint32_t(byte()) | uint32_t(byte()) << 8; }
    uint64_t seed() {
        uint64_t value = 0;
        for (int i = 0; i < 8; ++i) value = value << 8 | byte();
        return value;
    }
    template <class T, size_t N>
    T pick(const T (&values)[N]) { return values[byte() % N]; }

private:
    const uint8_t* bytes_;
    size_t size_;
    size_t position_ = 0;
};

// Fills memory from a seed instead of from input bytes, which libFuzzer keeps for structure.
class Filler {
public:
    explicit Filler(uint64_t seed) : state_(seed) {}
    uint64_t next() {
        uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }

private:
    uint64_t state_;
};

constexpr scatter_dtype kValueDtypes[] = {
    SCATTER_DTYPE_F16, SCATTER_DTYPE_BF16, SCATTER_DTYPE_F32,  SCATTER_DTYPE_F64,  SCATTER_DTYPE_I8,
    SCATTER_DTYPE_I16, SCATTER_DTYPE_I32,  SCATTER_DTYPE_I64,  SCATTER_DTYPE_U8,   SCATTER_DTYPE_U16,
    SCATTER_DTYPE_U32, SCATTER_DTYPE_U64,  SCATTER_DTYPE_BOOL, SCATTER_DTYPE_C64,  SCATTER_DTYPE_C128,
    SCATTER_DTYPE_OPAQUE};

// Bytes per element as the memory image is sized: the dtype's size, the tensor's element_size
// for OPAQUE, and something plausible for invalid dtypes (which the library must refuse).
size_t element_bytes(const TensorCase& t) {
    const size_t size = scatter_dtype_size(t.dtype);
    if (size != 0) return size;
    return t.element_size != 0 && t.element_size <= 64 ? t.element_size : 4;
}

int64_t dim(ByteSource& in) {
    const uint8_t b = in.byte();
    if (b < 160) return b % 6;
    if (b < 200) return 6 + b % 59;
    if (b < 236) return 64 + (b - 200) * 8 + in.below(8);
    return kHugeDims[b % (sizeof(kHugeDims) / sizeof(kHugeDims[0]))];
}

void decode_strides(ByteSource& in, TensorCase& t) {
    if (!in.one_in(3)) return;
    t.strides.resize(t.shape.size());
    for (int64_t& stride : t.strides) {
        const uint8_t b = in.byte();
        stride = b < 240 ? int64_t(b % 9) - 4 : in.pick(kHugeStrides);
    }
}

// Changes one dimension or the rank, so shapes that break the op's rules keep coming.
void perturb_shape(ByteSource& in, std::vector<int64_t>& shape) {
    switch (in.byte() % 3) {
    case 0:
        if (!shape.empty()) shape[in.below(uint32_t(shape.size()))] = dim(in);
        break;
    case 1: shape.push_back(dim(in)); break;
    default:
        if (!shape.empty()) shape.pop_back();
        break;
    }
}

// Row-major shapes that fit the op's rules (docs/semantics.md, "Shapes and memory"), bent now and then.
void decode_shapes(ByteSource& in, ApiCase& c) {
    const uint32_t rank = in.one_in(32) ? in.below(SCATTER_MAX_RANK + 2) : 1 + in.below(4);
    for (uint32_t d = 0; d < rank; ++d) c.data.shape.push_back(dim(in));
    const int32_t r = int32_t(rank);
    c.options.axis = c.op == SCATTER_OP_ND && !in.one_in(16) ? 0 : int32_t(in.below(uint32_t(2 * r + 2))) - (r + 1);
    const int32_t axis = c.options.axis < 0 ? c.options.axis + r : c.options.axis;
    const bool axis_valid = axis >= 0 && axis < r;
    std::vector<int64_t>& data = c.data.shape;

    if (c.op == SCATTER_OP_ELEMENTS) {
        for (int32_t d = 0; d < r; ++d) {
            const int64_t limit = std::min<int64_t>(data[size_t(d)], 300);
            const bool free_dim = d == axis || in.one_in(16) || limit < 0;
            c.indices.shape.push_back(free_dim ? dim(in) : int64_t(in.below(uint32_t(limit) + 1)));
        }
        c.updates.shape = c.indices.shape;
    } else if (c.op == SCATTER_OP_ROWS) {
        const uint32_t q = in.below(3);
        for (uint32_t d = 0; d < q; ++d) c.indices.shape.push_back(dim(in));
        if (axis_valid) {
            c.updates.shape.assign(data.begin(), data.begin() + axis);
            c.updates.shape.insert(c.updates.shape.end(), c.indices.shape.begin(), c.indices.shape.end());
            c.updates.shape.insert(c.updates.shape.end(), data.begin() + axis + 1, data.end());
        } else {
            c.updates.shape = data;
        }
    } else {
        const uint32_t batch_rank = in.below(3);
        for (uint32_t d = 0; d < batch_rank; ++d) c.indices.shape.push_back(dim(in));
        const uint32_t k = in.one_in(16) ? in.below(rank + 2) : 1 + in.below(rank == 0 ? 1 : rank);
        c.updates.shape = c.indices.shape;
        if (k <= rank) c.updates.shape.insert(c.updates.shape.end(), data.begin() + k, data.end());
        c.indices.shape.push_back(int64_t(k));
    }
    if (in.one_in(16)) perturb_shape(in, c.indices.shape);
    if (in.one_in(16)) perturb_shape(in, c.updates.shape);
    if (in.one_in(32)) perturb_shape(in, c.out.shape);
}

// The byte range of a tensor's elements relative to element 0 and their count, or false when
// they overflow int64.
bool extent(const TensorCase& t, __int128& low, __int128& high, __int128& count) {
    low = 0;
    high = 0;
    count = 1;
    for (size_t d = 0; d < t.shape.size(); ++d) {
        const __int128 n = t.shape[d];
        if (n <= 0) {  // empty (or a negative dimension, which the library refuses)
            count = 0;
            return true;
        }
        count *= n;
        if (count > INT64_MAX) count = __int128(INT64_MAX) + 1;
    }
    __int128 row_major = 1;
    for (size_t d = t.shape.size(); d-- > 0;) {
        const __int128 stride = t.strides.empty() ? row_major : __int128(t.strides[d]);
        // Clamped so 17 extreme dimensions cannot overflow __int128; past 2^63 is unaddressable anyway.
        const __int128 limit = __int128(1) << 70;
        const __int128 reach = std::max(-limit, std::min(limit, (__int128(t.shape[d]) - 1) * stride));
        (reach < 0 ? low : high) += reach;
        row_major *= t.shape[d];
        if (row_major > INT64_MAX) row_major = __int128(INT64_MAX) + 1;
    }
    const __int128 size = __int128(element_bytes(t));
    low *= size;
    high = (high + 1) * size;
    return count * size <= INT64_MAX && low >= INT64_MIN && high <= INT64_MAX;
}

// Sizes the image; false when the tensor is addressable but over the budget.
bool size_image(ByteSource& in, TensorCase& t) {
    bool empty = false;
    for (int64_t n : t.shape) empty = empty || n <= 0;
    __int128 low = 0, high = 0, count = 0;
    const bool addressable = extent(t, low, high, count);
    if (empty) {
        t.null_pointer = in.one_in(2);
        return true;
    }
    // Extents no memory can have: byte offsets that overflow int64, or that reach further below
    // element 0 than any user-space address lies above 0 (2^62 bools at stride -2: issue 43, an
    // in-place call wrote at a wrapped address). A one-element image: the library must refuse
    // them, and ASan reports it if it does not.
    constexpr __int128 kBelowAnyPointer = __int128(1) << 57;
    if (!addressable || -low > kBelowAnyPointer) {
        t.image.resize(element_bytes(t));
        return true;
    }
    if (high - low > __int128(kMaxImageBytes) || count > kMaxElements) return false;
    t.offset = size_t(-low);
    t.image.resize(size_t(high - low));
    return true;
}

// Encodes a small integer (or its nearest value) in the dtype, so reductions see ordinary numbers.
void store_small(scatter_dtype dtype, int value, uint8_t* slot, size_t size) {
    const auto put = [&](auto v) { std::memcpy(slot, &v, sizeof(v)); };
    switch (dtype) {
    case SCATTER_DTYPE_F16: {
        uint16_t bits = value < 0 ? 0x8000 : 0;
        const unsigned magnitude = unsigned(value < 0 ? -value : value);
        if (magnitude != 0) {
            unsigned exponent = 0;
            while ((magnitude >> (exponent + 1)) != 0) ++exponent;
            bits = uint16_t(bits | (exponent + 15) << 10 | ((magnitude << (10 - exponent)) & 0x3ff));
        }
        put(bits);
        break;
    }
    case SCATTER_DTYPE_BF16: {
        const float f = float(value);
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        put(uint16_t(bits >> 16));
        break;
    }
    case SCATTER_DTYPE_F32: put(float(value)); break;
    case SCATTER_DTYPE_F64: put(double(value)); break;
    case SCATTER_DTYPE_C64: put(float(value)); std::memcpy(slot + 4, slot, 4); break;
    case SCATTER_DTYPE_C128: put(double(value)); std::memcpy(slot + 8, slot, 8); break;
    case SCATTER_DTYPE_BOOL: slot[0] = uint8_t(value & 1); break;
    case SCATTER_DTYPE_I16: case SCATTER_DTYPE_U16: put(int16_t(value)); break;
    case SCATTER_DTYPE_I32: case SCATTER_DTYPE_U32: put(int32_t(value)); break;
    case SCATTER_DTYPE_I64: case SCATTER_DTYPE_U64: put(int64_t(value)); break;
    default: std::memset(slot, uint8_t(value), size); break;
    }
}

// Values: random bytes (NaN payloads, infinities, subnormals, extreme integers), small numbers,
// or a mix element by element.
void fill_values(ByteSource& in, Filler& filler, TensorCase& t) {
    const size_t size = element_bytes(t);
    const uint8_t mode = in.byte() % 3;
    for (size_t at = 0; at + size <= t.image.size(); at += size) {
        const uint64_t r = filler.next();
        const bool random = mode == 0 || (mode == 2 && (r & 1));
        if (random) {
            for (size_t i = 0; i < size; ++i) t.image[at + i] = uint8_t(filler.next() >> 17);
        } else {
            store_small(t.dtype, int((r >> 8) % 9) - 3, &t.image[at], size);
        }
    }
}

// Index values near the bound of the dimension they select: [-s - 1, s + 1], sometimes extreme.
void fill_indices(ByteSource& in, Filler& filler, const ApiCase& c, TensorCase& t) {
    const size_t size = element_bytes(t);
    const size_t rank = c.data.shape.size();
    const int32_t axis = c.options.axis < 0 ? c.options.axis + int32_t(rank) : c.options.axis;
    const int64_t k = c.indices.shape.empty() ? 1 : std::max<int64_t>(c.indices.shape.back(), 1);
    const uint8_t extremes = in.byte();  // how often an extreme value comes: 0 = never
    size_t slot = 0;
    for (size_t at = 0; at + size <= t.image.size(); at += size, ++slot) {
        size_t d = c.op == SCATTER_OP_ND ? size_t(int64_t(slot) % k) : size_t(axis);
        const int64_t s = d < rank ? c.data.shape[d] : 3;
        const uint64_t r = filler.next();
        int64_t value;
        if (extremes != 0 && r % 64 < extremes % 8) {
            const uint64_t u = uint64_t(s);  // wrapping: s may be INT64_MIN
            const int64_t kExtremes[] = {INT64_MIN, INT64_MAX, INT32_MIN, INT32_MAX,
                                         s,         int64_t(~u), int64_t(0 - u), int64_t(u - 1)};
            value = kExtremes[(r >> 8) % 8];
        } else if (s > 0 && s < (int64_t(1) << 31)) {
            value = int64_t((r >> 8) % uint64_t(2 * s + 3)) - s - 1;
        } else {
            value = int64_t((r >> 8) % 5) - 2;
        }
        if (size == 8) {
            std::memcpy(&t.image[at], &value, 8);
        } else {
            const int32_t narrow = int32_t(value);
            std::memcpy(&t.image[at], &narrow, std::min<size_t>(size, 4));
        }
    }
}

scatter_dtype decode_dtype(ByteSource& in) {
    if (in.one_in(64)) return scatter_dtype(in.pick({0, 17, 255, 0x7fffffff, -1}));
    return in.pick(kValueDtypes);
}

}  // namespace

bool decode_case(const uint8_t* bytes, size_t size, ApiCase& c) {
    ByteSource in(bytes, size);
    c = ApiCase{};
    c.op = scatter_op(1 + in.byte() % 3);
    const scatter_dtype dtype = decode_dtype(in);
    c.data.dtype = c.updates.dtype = c.out.dtype = dtype;
    if (dtype == SCATTER_DTYPE_OPAQUE) c.data.element_size = 1 + in.byte() % 12;
    else if (in.one_in(4)) c.data.element_size = uint32_t(scatter_dtype_size(dtype));
    c.updates.element_size = c.out.element_size = c.data.element_size;
    if (in.one_in(64)) c.updates.dtype = decode_dtype(in);
    if (in.one_in(64)) c.out.element_size = in.byte() % 17;
    c.indices.dtype = in.one_in(64) ? decode_dtype(in) : in.one_in(2) ? SCATTER_DTYPE_I32 : SCATTER_DTYPE_I64;

    const uint8_t reduction = in.byte();
    c.options.reduction = scatter_reduction(reduction < 250 ? reduction % 9 : reduction);
    const uint8_t policy = in.byte();
    c.options.out_of_range = scatter_out_of_range(policy < 250 ? policy % 4 : policy);
    const uint8_t flags = in.byte();
    c.options.flags = flags < 250 ? flags % 4 : flags;
    c.null_options = in.one_in(32);
    c.in_place = in.one_in(4);

    decode_shapes(in, c);
    c.out.shape = c.in_place || !in.one_in(32) ? c.data.shape : c.out.shape;
    decode_strides(in, c.data);
    decode_strides(in, c.indices);
    decode_strides(in, c.updates);
    if (c.in_place) c.out.strides = c.data.strides;
    else decode_strides(in, c.out);

    for (TensorCase* t : {&c.data, &c.indices, &c.updates, &c.out})
        if (!size_image(in, *t)) return false;

    Filler filler(in.seed());
    fill_values(in, filler, c.data);
    fill_values(in, filler, c.updates);
    fill_values(in, filler, c.out);
    fill_indices(in, filler, c, c.indices);
    return true;
}

std::string describe(const ApiCase& c) {
    std::ostringstream text;
    const char* ops[] = {"?", "elements", "rows", "nd"};
    text << "op " << ops[c.op <= 3 ? c.op : 0] << ", reduction " << int(c.options.reduction) << ", policy "
         << int(c.options.out_of_range) << ", flags " << c.options.flags << ", axis " << c.options.axis
         << (c.null_options ? " (options NULL)" : "") << (c.in_place ? ", in place" : "") << "\n";
    const std::pair<const char*, const TensorCase*> tensors[] = {
        {"data", &c.data}, {"indices", &c.indices}, {"updates", &c.updates}, {"out", &c.out}};
    for (const auto& [name, t] : tensors) {
        text << "  " << name << ": dtype " << int(t->dtype) << " element_size " << t->element_size << " shape [";
        for (int64_t n : t->shape) text << n << " ";
        text << "] strides [";
        for (int64_t s : t->strides) text << s << " ";
        text << "] image " << t->image.size() << " bytes, element 0 at " << t->offset
             << (t->null_pointer ? ", NULL pointer" : "") << "\n";
    }
    return text.str();
}

}  // namespace fuzz_api
