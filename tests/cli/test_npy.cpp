// Unit tests of the .npy reader/writer in tools/npy.h: every dtype, byte order, memory order and
// format version, and a clear error for each kind of malformed file.
#include "npy.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace {

// A .npy file image with the given version, header dict (padded with spaces + '\n') and data.
std::vector<uint8_t> file_image(int major, const std::string& dict, const std::vector<uint8_t>& data) {
    std::string header = dict + "\n";
    std::string bytes = "\x93NUMPY";
    bytes += static_cast<char>(major);
    bytes += '\0';
    const uint32_t length = static_cast<uint32_t>(header.size());
    const int length_bytes = major == 1 ? 2 : 4;
    for (int i = 0; i < length_bytes; ++i) bytes += static_cast<char>((length >> (8 * i)) & 0xff);
    bytes += header;
    std::vector<uint8_t> image(bytes.begin(), bytes.end());
    image.insert(image.end(), data.begin(), data.end());
    return image;
}

std::string dict_for(const std::string& descr, bool fortran, const std::string& shape) {
    return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
           ", 'shape': " + shape + ", }";
}

std::vector<uint8_t> iota_bytes(size_t count) {
    std::vector<uint8_t> bytes(count);
    for (size_t i = 0; i < count; ++i) bytes[i] = static_cast<uint8_t>(i * 7 + 1);
    return bytes;
}

npy::NpyArray decode_image(const std::vector<uint8_t>& image) {
    return npy::decode(image.data(), image.size());
}

std::string decode_error(const std::vector<uint8_t>& image) {
    try {
        npy::decode(image.data(), image.size());
    } catch (const npy::NpyError& error) {
        return error.what();
    }
    return "(no error)";
}

struct DtypeCase {
    const char* descr;
    scatter_dtype dtype;
    uint32_t element_size;
    const char* canonical;
};

const DtypeCase kDtypeCases[] = {
    {"<f2", SCATTER_DTYPE_F16, 2, "<f2"},     {"<f4", SCATTER_DTYPE_F32, 4, "<f4"},
    {"<f8", SCATTER_DTYPE_F64, 8, "<f8"},     {"|i1", SCATTER_DTYPE_I8, 1, "|i1"},
    {"<i2", SCATTER_DTYPE_I16, 2, "<i2"},     {"<i4", SCATTER_DTYPE_I32, 4, "<i4"},
    {"<i8", SCATTER_DTYPE_I64, 8, "<i8"},     {"|u1", SCATTER_DTYPE_U8, 1, "|u1"},
    {"<u2", SCATTER_DTYPE_U16, 2, "<u2"},     {"<u4", SCATTER_DTYPE_U32, 4, "<u4"},
    {"<u8", SCATTER_DTYPE_U64, 8, "<u8"},     {"|b1", SCATTER_DTYPE_BOOL, 1, "|b1"},
    {"<c8", SCATTER_DTYPE_C64, 8, "<c8"},     {"<c16", SCATTER_DTYPE_C128, 16, "<c16"},
    {"|S5", SCATTER_DTYPE_OPAQUE, 5, "|S5"},  {"<U3", SCATTER_DTYPE_OPAQUE, 12, "<U3"},
    {">U3", SCATTER_DTYPE_OPAQUE, 12, "<U3"}, {"|V7", SCATTER_DTYPE_OPAQUE, 7, "|V7"},
    {">f8", SCATTER_DTYPE_F64, 8, "<f8"},     {"=i4", SCATTER_DTYPE_I32, 4, "<i4"},
    {"<i1", SCATTER_DTYPE_I8, 1, "|i1"},
};

TEST(NpyDescr, EveryDtypeParsesToItsCanonicalSpelling) {
    for (const DtypeCase& c : kDtypeCases) {
        bool big_endian = false;
        const npy::NpyDtype dtype = npy::parse_descr(c.descr, &big_endian);
        EXPECT_EQ(dtype.dtype, c.dtype) << c.descr;
        EXPECT_EQ(dtype.element_size, c.element_size) << c.descr;
        EXPECT_EQ(dtype.descr, c.canonical) << c.descr;
        EXPECT_EQ(big_endian, c.descr[0] == '>') << c.descr;
    }
}

TEST(NpyDescr, UnsupportedAndMalformedDescrsAreRejected) {
    for (const char* descr : {"", "<", "<f", "<f3", "<f16", "<i16", "|O8", "<M8", "<m8", "|S0",
                              "<U0", "<f4x", "<fx4", "|S99999999999", "<U2000000000", "V"}) {
        bool big_endian = false;
        EXPECT_THROW(npy::parse_descr(descr, &big_endian), npy::NpyError) << descr;
    }
}

TEST(NpyDescr, DtypeForMatchesEveryNumericDtype) {
    for (const DtypeCase& c : kDtypeCases) {
        if (c.dtype == SCATTER_DTYPE_OPAQUE || c.descr[0] != '<') continue;
        EXPECT_EQ(npy::dtype_for(c.dtype).descr, c.canonical);
    }
    EXPECT_EQ(npy::dtype_for(SCATTER_DTYPE_OPAQUE, 9).descr, "|V9");
    EXPECT_THROW(npy::dtype_for(SCATTER_DTYPE_BF16), npy::NpyError);
    EXPECT_THROW(npy::dtype_for(SCATTER_DTYPE_OPAQUE, 0), npy::NpyError);
}

TEST(NpyRoundTrip, EncodeThenDecodeKeepsEveryDtypeAndShape) {
    const std::vector<std::vector<int64_t>> shapes = {{}, {0}, {5}, {2, 3}, {2, 0, 4}, {1, 2, 1, 3}};
    for (const DtypeCase& c : kDtypeCases) {
        for (const auto& shape : shapes) {
            npy::NpyArray array;
            bool big_endian = false;
            array.dtype = npy::parse_descr(c.canonical, &big_endian);
            array.shape = shape;
            array.bytes = iota_bytes(array.element_count() * array.dtype.element_size);
            const std::vector<uint8_t> image = npy::encode(array);
            ASSERT_EQ(npy::parse_header(image.data(), image.size()).data_offset % 64, 0u);
            const npy::NpyArray back = decode_image(image);
            EXPECT_EQ(back.dtype.descr, array.dtype.descr);
            EXPECT_EQ(back.shape, shape);
            EXPECT_EQ(back.bytes, array.bytes);
        }
    }
}

TEST(NpyRead, BigEndianIsSwappedPerUnit) {
    const std::vector<uint8_t> data = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
    EXPECT_EQ(decode_image(file_image(1, dict_for(">i4", false, "(2,)"), data)).bytes,
              (std::vector<uint8_t>{4, 3, 2, 1, 8, 7, 6, 5}));
    EXPECT_EQ(decode_image(file_image(1, dict_for(">c8", false, "(1,)"), data)).bytes,
              (std::vector<uint8_t>{4, 3, 2, 1, 8, 7, 6, 5}));
    EXPECT_EQ(decode_image(file_image(1, dict_for(">u2", false, "(4,)"), data)).bytes,
              (std::vector<uint8_t>{2, 1, 4, 3, 6, 5, 8, 7}));
    EXPECT_EQ(decode_image(file_image(1, dict_for(">U2", false, "(1,)"), data)).bytes,
              (std::vector<uint8_t>{4, 3, 2, 1, 8, 7, 6, 5}));
    EXPECT_EQ(decode_image(file_image(1, dict_for("|S4", false, "(2,)"), data)).bytes, data);
}

TEST(NpyRead, FortranOrderIsTransposedToCOrder) {
    // A 2x3 int8 array [[0,1,2],[3,4,5]] stored column by column.
    const std::vector<uint8_t> fortran = {0, 3, 1, 4, 2, 5};
    const npy::NpyArray array = decode_image(file_image(1, dict_for("|i1", true, "(2, 3)"), fortran));
    EXPECT_EQ(array.bytes, (std::vector<uint8_t>{0, 1, 2, 3, 4, 5}));

    // 2x3x2 with 2-byte elements: element (i,j,k) has value i*6 + j*2 + k.
    std::vector<uint8_t> data3;
    for (int k = 0; k < 2; ++k)
        for (int j = 0; j < 3; ++j)
            for (int i = 0; i < 2; ++i) {
                data3.push_back(static_cast<uint8_t>(i * 6 + j * 2 + k));
                data3.push_back(0);
            }
    const npy::NpyArray array3 = decode_image(file_image(1, dict_for("<i2", true, "(2, 3, 2)"), data3));
    for (int v = 0; v < 12; ++v) EXPECT_EQ(array3.bytes[2 * v], v);
}

TEST(NpyRead, VersionsTwoAndThreeAndSpellingVariants) {
    const std::vector<uint8_t> data = iota_bytes(8);
    for (int major : {1, 2, 3}) {
        EXPECT_EQ(decode_image(file_image(major, dict_for("<i4", false, "(2,)"), data)).bytes, data);
    }
    const std::vector<std::string> dicts = {
        "{\"shape\": (2,), \"fortran_order\": False, \"descr\": \"<i4\"}",
        "{'descr':'<i4','fortran_order':False,'shape':(2,)}",
        "  { 'descr' : '<i4' , 'fortran_order' : False , 'shape' : ( 2 , ) , }   ",
        "{'descr': '<i4', 'fortran_order': False, 'shape': (2L,), }",
        "{'descr': '<i4', 'fortran_order': False, 'shape': (1, 2), }",
    };
    for (const std::string& dict : dicts) EXPECT_EQ(decode_image(file_image(1, dict, data)).bytes, data) << dict;
    EXPECT_TRUE(decode_image(file_image(1, dict_for("<i4", false, "()"), iota_bytes(4))).shape.empty());
}

TEST(NpyRead, MalformedFilesGiveClearErrors) {
    const std::vector<uint8_t> data = iota_bytes(8);
    const std::string good = dict_for("<i4", false, "(2,)");
    struct Bad {
        std::vector<uint8_t> image;
        const char* message_part;
    };
    std::vector<uint8_t> bad_magic = file_image(1, good, data);
    bad_magic[1] = 'X';
    std::vector<uint8_t> bad_version = file_image(1, good, data);
    bad_version[6] = 4;
    std::vector<uint8_t> long_length = file_image(1, good, data);
    long_length[8] = 0xff;
    long_length[9] = 0xff;
    std::vector<uint8_t> version2_prefix_only = file_image(2, good, data);
    version2_prefix_only.resize(10);
    std::vector<uint8_t> truncated = file_image(1, good, data);
    truncated.pop_back();
    std::vector<uint8_t> extra = file_image(1, good, data);
    extra.push_back(0);
    const std::vector<Bad> cases = {
        {{}, "magic"},
        {{0x93, 'N', 'U'}, "magic"},
        {bad_magic, "magic"},
        {bad_version, "version 4.0"},
        {version2_prefix_only, "header length"},
        {long_length, "runs past the end"},
        {truncated, "truncated"},
        {extra, "after the data"},
        {file_image(1, "", data), "'{' was expected"},
        {file_image(1, "{'descr': '<i4', 'fortran_order': False}", data), "'shape' is missing"},
        {file_image(1, "{'descr': '<i4', 'shape': (2,)}", data), "'fortran_order' is missing"},
        {file_image(1, "{'fortran_order': False, 'shape': (2,)}", data), "'descr' is missing"},
        {file_image(1, "{'descr': '<i4', 'descr': '<i4', 'fortran_order': False, 'shape': (2,)}", data), "twice"},
        {file_image(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2,), 'x': 1}", data), "unexpected key"},
        {file_image(1, "{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (2,)}", data), "structured"},
        {file_image(1, "{'descr': '<i4', 'fortran_order': 0, 'shape': (2,)}", data), "True or False"},
        {file_image(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2)}", data), "not a tuple"},
        {file_image(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (-2,)}", data), "non-negative"},
        {file_image(1, "{'descr': '<i4', 'fortran_order': False, 'shape': [2]}", data), "expected '('"},
        {file_image(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2,) 'x'}", data), "expected ','"},
        {file_image(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2,)} junk", data), "after the closing"},
        {file_image(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2,", data), "ends inside the shape"},
        {file_image(1, "{'descr: '<i4', 'fortran_order': False, 'shape': (2,)}", data), "expected ':'"},
        {file_image(1, "{'descr': '<i4", data), "unterminated"},
        {file_image(1, dict_for("<i4", false, "(99999999999999999999,)"), data), "2^63"},
        {file_image(1, dict_for("<i4", false, "(4294967296, 4294967296)"), data), "overflows"},
        {file_image(1, dict_for("<i8", false, "(1152921504606846976,)"), data), "overflows"},
        {file_image(1, dict_for("<O8", false, "(2,)"), data), "not supported"},
    };
    for (const Bad& bad : cases) {
        const std::string message = decode_error(bad.image);
        EXPECT_NE(message.find(bad.message_part), std::string::npos)
            << "expected '" << bad.message_part << "' in: " << message;
    }
}

TEST(NpyRead, TooManyDimensionsAreRejected) {
    std::string shape = "(";
    for (int d = 0; d < 65; ++d) shape += "1, ";
    shape += ")";
    EXPECT_NE(decode_error(file_image(1, dict_for("<i4", false, shape), iota_bytes(4))).find("more than 64"),
              std::string::npos);
}

TEST(NpyRead, ZeroExtentMakesHugeShapesEmpty) {
    const npy::NpyArray array =
        decode_image(file_image(1, dict_for("<f8", false, "(4611686018427387904, 4611686018427387904, 0)"), {}));
    EXPECT_EQ(array.element_count(), 0u);
    EXPECT_TRUE(array.bytes.empty());
}

TEST(NpyLoad, MissingFileNamesThePath) {
    try {
        npy::load("/nonexistent/dir/x.npy");
        FAIL() << "no error";
    } catch (const npy::NpyError& error) {
        EXPECT_NE(std::string(error.what()).find("/nonexistent/dir/x.npy"), std::string::npos);
    }
}

TEST(NpyWrite, HeaderLooksLikeNumpys) {
    const std::string header = npy::encode_header(npy::dtype_for(SCATTER_DTYPE_F32), {3});
    EXPECT_EQ(header.size() % 64, 0u);
    EXPECT_EQ(header.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
    EXPECT_NE(header.find("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }"), std::string::npos);
    EXPECT_EQ(header.back(), '\n');
    EXPECT_NE(npy::encode_header(npy::dtype_for(SCATTER_DTYPE_F32), {}).find("'shape': ()"), std::string::npos);
    EXPECT_NE(npy::encode_header(npy::dtype_for(SCATTER_DTYPE_F32), {2, 3}).find("'shape': (2, 3)"), std::string::npos);
}

}  // namespace
