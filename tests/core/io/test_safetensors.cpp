// Tests for safetensors reading/writing, F16/BF16 widening and atomic file writes:
// bit-exact round trips, hand-built files, a table of malformed headers, every truncation.
#include <unistd.h>

#include "bit_cast.h"
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <set>

#include "io/file_bytes.h"
#include "io/half_float.h"
#include "io/safetensors.h"
#include "parallel.h"

namespace fs = std::filesystem;
using namespace attnlab;
using namespace attnlab::io;

namespace {

// A fresh directory under the system temp dir, removed with everything in it.
struct TempDir {
    fs::path path;
    TempDir() {
        std::random_device rd;
        path = fs::temp_directory_path() /
               ("attnlab_test_safetensors_" + std::to_string(::getpid()) + "_" + std::to_string(rd()));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::set<std::string> entries() const {
        std::set<std::string> names;
        for (const auto& e : fs::directory_iterator(path)) names.insert(e.path().filename().string());
        return names;
    }
};

std::vector<uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

void append_u64(std::vector<uint8_t>& out, uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

// u64 header length + header text + data buffer, with no padding.
std::vector<uint8_t> make_file(const std::string& header, const std::vector<uint8_t>& data = {}) {
    std::vector<uint8_t> out;
    append_u64(out, header.size());
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

std::vector<uint8_t> le16(std::initializer_list<uint16_t> values) {
    std::vector<uint8_t> out;
    for (const uint16_t v : values) {
        out.push_back(static_cast<uint8_t>(v & 0xFF));
        out.push_back(static_cast<uint8_t>(v >> 8));
    }
    return out;
}

std::vector<uint8_t> concat(std::vector<uint8_t> a, const std::vector<uint8_t>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

Tensor make_tensor(Shape shape, FloatBuffer data) {
    Tensor t;
    t.shape = std::move(shape);
    t.data = std::move(data);
    return t;
}

bool same_bits(const Tensor& a, const Tensor& b) {
    return a.shape == b.shape && a.data.size() == b.data.size() &&
           (a.data.empty() || std::memcmp(a.data.data(), b.data.data(), a.data.size() * sizeof(float)) == 0);
}

bool same_bits(const SafetensorsFile& a, const SafetensorsFile& b) {
    if (a.metadata != b.metadata || a.tensors.size() != b.tensors.size()) return false;
    for (const auto& [name, tensor] : a.tensors) {
        const auto it = b.tensors.find(name);
        if (it == b.tensors.end() || !same_bits(tensor, it->second)) return false;
    }
    return true;
}

// Tensors of ranks 0-3 with awkward values (signed zero, subnormals, inf, NaN payloads), an
// empty tensor, and metadata.
SafetensorsFile sample_file() {
    SafetensorsFile file;
    file.tensors["scalar"] = make_tensor({}, {-0.0f});
    file.tensors["specials"] =
        make_tensor({8}, {std::numeric_limits<float>::denorm_min(), -1e-40f, std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
                          attnlab::bit_cast<float>(0xFFC12345u), attnlab::bit_cast<float>(0x7F800001u), 0.0f});
    file.tensors["encoder.layers.0.weight"] = make_tensor({2, 3}, {1.5f, -2.25f, 3.0e38f, 1e-7f, 0.1f, -7.0f});
    file.tensors["cube"] = make_tensor({2, 1, 2}, {1.0f, 2.0f, 3.0f, 4.0f});
    file.tensors["empty"] = make_tensor({0, 3}, {});
    file.metadata = {{"format", "pt"}, {"note", "ünïcode ✓"}};
    return file;
}

double f16_reference(uint16_t h) {  // (-1)^s · 2^(e-15) · 1.m, or 2^-14 · 0.m when e = 0
    const int e = (h >> 10) & 0x1F;
    const int m = h & 0x3FF;
    const double magnitude = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
    return (h & 0x8000) ? -magnitude : magnitude;
}

double bf16_reference(uint16_t b) {  // (-1)^s · 2^(e-127) · 1.m, or 2^-126 · 0.m when e = 0
    const int e = (b >> 7) & 0xFF;
    const int m = b & 0x7F;
    const double magnitude = e == 0 ? std::ldexp(m, -133) : std::ldexp(128 + m, e - 134);
    return (b & 0x8000) ? -magnitude : magnitude;
}

}  // namespace

TEST_CASE("f16_to_f32 is exact for all 65536 encodings") {
    for (uint32_t h = 0; h <= 0xFFFF; ++h) {
        const auto bits = static_cast<uint16_t>(h);
        const float f = f16_to_f32(bits);
        INFO("f16 bits 0x" << std::hex << h);
        REQUIRE(std::signbit(f) == bool(h & 0x8000));
        const int e = (h >> 10) & 0x1F;
        if (e == 0x1F) {
            REQUIRE(std::isnan(f) == ((h & 0x3FF) != 0));
            REQUIRE(std::isinf(f) == ((h & 0x3FF) == 0));
        } else {
            REQUIRE(static_cast<double>(f) == f16_reference(bits));
        }
    }
    REQUIRE(f16_to_f32(0x0001) == 5.960464477539063e-08f);
}

TEST_CASE("bf16_to_f32 is exact for all 65536 encodings") {
    for (uint32_t b = 0; b <= 0xFFFF; ++b) {
        const auto bits = static_cast<uint16_t>(b);
        const float f = bf16_to_f32(bits);
        INFO("bf16 bits 0x" << std::hex << b);
        REQUIRE(std::signbit(f) == bool(b & 0x8000));
        const int e = (b >> 7) & 0xFF;
        if (e == 0xFF) {
            REQUIRE(std::isnan(f) == ((b & 0x7F) != 0));
            REQUIRE(std::isinf(f) == ((b & 0x7F) == 0));
        } else {
            REQUIRE(static_cast<double>(f) == bf16_reference(bits));
        }
    }
}

TEST_CASE("F16 and BF16 arrays split between threads widen every encoding bit for bit", "[io]") {
    // 2 · 2^17 + 3 values: on 3 threads a chunk of 2^17 each (the grain) and a last one of 3, shorter
    // than a vector. Value i is encoding (40503 i + 7) mod 2^16, so every 2^16 in a row hold all of them.
    constexpr size_t n = (size_t{2} << 17) + 3;
    auto encoding = [](size_t i) { return static_cast<uint16_t>((40503 * i + 7) % 65536); };
    std::vector<uint8_t> bytes(1 + 2 * n);  // values from byte 1: the source need not be aligned
    for (size_t i = 0; i < n; ++i) {
        bytes[1 + 2 * i] = static_cast<uint8_t>(encoding(i) & 0xFF);
        bytes[2 + 2 * i] = static_cast<uint8_t>(encoding(i) >> 8);
    }
    auto f16_bits = [](uint16_t h) {  // ±inf and NaN with the payload in the top mantissa bits, else exact
        const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
        if ((h & 0x7C00) == 0x7C00) return sign | 0x7F800000u | static_cast<uint32_t>(h & 0x3FF) << 13;
        return attnlab::bit_cast<uint32_t>(static_cast<float>(f16_reference(h)));
    };
    // Known patterns: 1, the smallest and largest subnormals, -0, the largest finite, ±inf,
    // a quiet and a signalling NaN.
    CHECK(f16_bits(0x3C00) == 0x3F800000u);
    CHECK(f16_bits(0x0001) == 0x33800000u);
    CHECK(f16_bits(0x83FF) == 0xB87FC000u);
    CHECK(f16_bits(0x8000) == 0x80000000u);
    CHECK(f16_bits(0x7BFF) == 0x477FE000u);
    CHECK(f16_bits(0xFC00) == 0xFF800000u);
    CHECK(f16_bits(0x7E00) == 0x7FC00000u);
    CHECK(f16_bits(0x7C01) == 0x7F802000u);

    const int threads_before = thread_count();
    for (const int threads : {1, 3}) {
        set_thread_count(threads);
        INFO(threads << " threads");
        std::vector<float> f16(n), bf16(n);
        f16_array_to_f32(bytes.data() + 1, f16.data(), n);
        bf16_array_to_f32(bytes.data() + 1, bf16.data(), n);
        size_t f16_wrong = 0, bf16_wrong = 0;
        for (size_t i = 0; i < n; ++i) {
            f16_wrong += attnlab::bit_cast<uint32_t>(f16[i]) != f16_bits(encoding(i));
            bf16_wrong += attnlab::bit_cast<uint32_t>(bf16[i]) != static_cast<uint32_t>(encoding(i)) << 16;
        }
        CHECK(f16_wrong == 0);
        CHECK(bf16_wrong == 0);
    }
    set_thread_count(threads_before);
}

TEST_CASE("read_safetensors decodes a hand-built F16 file") {
    TempDir dir;
    const std::string path = (dir.path / "half.safetensors").string();
    const auto file_bytes = make_file(R"({"h":{"dtype":"F16","shape":[3,3],"data_offsets":[0,18]}})",
                                      le16({0x3C00, 0xC000, 0x7C00, 0x0001, 0xFC00, 0x8000, 0x03FF, 0x7BFF, 0x7E00}));
    REQUIRE(write_file_atomic(path, file_bytes).ok());

    const Result<SafetensorsFile> file = read_safetensors(path);
    REQUIRE(file.ok());
    REQUIRE(file->tensors.size() == 1);
    const Tensor& h = file->tensors.at("h");
    REQUIRE(h.shape == Shape{3, 3});
    CHECK(h.data[0] == 1.0f);
    CHECK(h.data[1] == -2.0f);
    CHECK(h.data[2] == std::numeric_limits<float>::infinity());
    CHECK(h.data[3] == 5.960464477539063e-08f);
    CHECK(h.data[4] == -std::numeric_limits<float>::infinity());
    CHECK((h.data[5] == 0.0f && std::signbit(h.data[5])));
    CHECK(h.data[6] == 6.097555160522461e-05f);
    CHECK(h.data[7] == 65504.0f);
    CHECK(std::isnan(h.data[8]));
}

TEST_CASE("parse_safetensors decodes a hand-built BF16 file with an F32 tensor stored first") {
    // "a" sorts first but sits after "b" in the buffer: offsets, not key order, must tile.
    const auto data = concat(concat(le16({0x0000, 0x4040}), le16({0x3F80, 0xC040, 0x7F80, 0x0001})), le16({0x4049}));
    const auto bytes =
        make_file(R"({"a":{"dtype":"BF16","shape":[2,2],"data_offsets":[4,12]},)"
                  R"("b":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                  R"("s":{"dtype":"BF16","shape":[],"data_offsets":[12,14]},"__metadata__":{"format":"pt"}})",
                  data);

    const Result<SafetensorsFile> file = parse_safetensors(bytes, "bf16.safetensors");
    REQUIRE(file.ok());
    const Tensor& a = file->tensors.at("a");
    REQUIRE(a.shape == Shape{2, 2});
    CHECK(a.data[0] == 1.0f);
    CHECK(a.data[1] == -3.0f);
    CHECK(a.data[2] == std::numeric_limits<float>::infinity());
    CHECK(a.data[3] == std::ldexp(1.0f, -133));
    CHECK(file->tensors.at("b").data == FloatBuffer{3.0f});  // F32 bits 0x40400000
    const Tensor& s = file->tensors.at("s");
    CHECK(s.shape.empty());
    CHECK(s.data == FloatBuffer{3.140625f});
    CHECK(file->metadata == std::map<std::string, std::string>{{"format", "pt"}});
}

TEST_CASE("write then read round-trips tensors and metadata bit-exactly") {
    TempDir dir;
    const std::string path = (dir.path / "model.safetensors").string();
    const SafetensorsFile original = sample_file();
    REQUIRE(write_safetensors(path, original).ok());

    const Result<SafetensorsFile> read = read_safetensors(path);
    REQUIRE(read.ok());
    CHECK(same_bits(*read, original));
    CHECK(attnlab::bit_cast<uint32_t>(read->tensors.at("specials").data[5]) == 0xFFC12345u);
    CHECK(dir.entries() == std::set<std::string>{"model.safetensors"});
}

TEST_CASE("serialize then parse then serialize is byte-identical") {
    const std::vector<uint8_t> first = serialize_safetensors(sample_file());
    const Result<SafetensorsFile> parsed = parse_safetensors(first, "first");
    REQUIRE(parsed.ok());
    const std::vector<uint8_t> second = serialize_safetensors(*parsed);
    REQUIRE(second.size() == first.size());
    CHECK(std::memcmp(first.data(), second.data(), first.size()) == 0);
}

TEST_CASE("serialize writes sorted keys and a header padded to a multiple of 8") {
    SafetensorsFile file;
    file.tensors["a"] = make_tensor({}, {1.0f});
    file.metadata["k"] = "v";
    const std::string header = R"({"__metadata__":{"k":"v"},"a":{"data_offsets":[0,4],"dtype":"F32","shape":[]}})";
    auto expected = concat(make_file(header + "  "), {0x00, 0x00, 0x80, 0x3F});
    CHECK(serialize_safetensors(file) == expected);
}

TEST_CASE("parse_safetensors accepts an empty file and empty tensors") {
    const Result<SafetensorsFile> empty = parse_safetensors(make_file("{}"), "empty");
    REQUIRE(empty.ok());
    CHECK(empty->tensors.empty());

    const auto bytes = make_file(R"({"e":{"dtype":"F32","shape":[0,3],"data_offsets":[4,4]},)"
                                 R"("w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})",
                                 {0, 0, 0x80, 0x3F});
    const Result<SafetensorsFile> file = parse_safetensors(bytes, "zero");
    REQUIRE(file.ok());
    CHECK(file->tensors.at("e").shape == Shape{0, 3});
    CHECK(file->tensors.at("e").data.empty());
    CHECK(file->tensors.at("w").data == FloatBuffer{1.0f});
}

TEST_CASE("parse_safetensors rejects malformed input with a message naming the field") {
    struct Case {
        std::string label;
        std::vector<uint8_t> bytes;
        std::vector<std::string> needles;  // each must appear in the message
    };
    const auto f32_one = [](const std::string& entry_fields) {
        return make_file(R"({"w":{)" + entry_fields + "}}", {0, 0, 0x80, 0x3F});
    };
    std::vector<uint8_t> absurd_length;
    append_u64(absurd_length, uint64_t{1} << 40);
    absurd_length.insert(absurd_length.end(), {'{', '}'});
    std::vector<uint8_t> past_end;
    append_u64(past_end, 100);
    past_end.insert(past_end.end(), {'{', '}'});

    const std::vector<Case> cases = {
        {"empty file", {}, {"0 bytes", "header length"}},
        {"shorter than 8 bytes", {1, 0, 0, 0, 0, 0, 0}, {"7 bytes", "header length"}},
        {"header length past the end", past_end, {"header length 100", "past the end"}},
        {"absurd header length", absurd_length, {"header length 1099511627776", "100 MB"}},
        {"invalid JSON", make_file(R"({"w": )"), {"header", "not valid JSON"}},
        {"number too large",
         make_file(R"({"w":{"dtype":"F32","shape":[1e999],"data_offsets":[0,4]}})"),
         {"header", "not valid JSON", "too large"}},
        {"invalid UTF-8", make_file("{\"\xff\":1}"), {"header", "not valid JSON"}},
        {"header is an array", make_file("[1, 2]"), {"header", "not a JSON object"}},
        {"deeply nested header", make_file(std::string(100000, '[') + std::string(100000, ']')), {"not a JSON object"}},
        {"entry not an object", make_file(R"({"w": 5})"), {"tensor 'w'", "not a JSON object"}},
        {"missing dtype", f32_one(R"("shape":[1],"data_offsets":[0,4])"), {"tensor 'w'", "dtype is missing"}},
        {"dtype not a string",
         f32_one(R"("dtype":32,"shape":[1],"data_offsets":[0,4])"),
         {"tensor 'w'", "dtype is not a string"}},
        {"dtype I64",
         f32_one(R"("dtype":"I64","shape":[1],"data_offsets":[0,4])"),
         {"tensor 'w'", "dtype 'I64' is not supported"}},
        {"dtype F64", f32_one(R"("dtype":"F64","shape":[1],"data_offsets":[0,4])"), {"tensor 'w'", "dtype 'F64'"}},
        {"missing shape", f32_one(R"("dtype":"F32","data_offsets":[0,4])"), {"tensor 'w'", "shape is missing"}},
        {"shape not an array",
         f32_one(R"("dtype":"F32","shape":1,"data_offsets":[0,4])"),
         {"tensor 'w'", "shape is not an array"}},
        {"shape dim not an integer",
         f32_one(R"("dtype":"F32","shape":[1.0],"data_offsets":[0,4])"),
         {"tensor 'w'", "shape dim 0 is not an integer"}},
        {"negative dim",
         f32_one(R"("dtype":"F32","shape":[1,-3],"data_offsets":[0,4])"),
         {"tensor 'w'", "shape dim 1 is negative (-3)"}},
        {"numel overflow",
         f32_one(R"("dtype":"F32","shape":[4294967296,4294967296,0],"data_offsets":[0,4])"),
         {"tensor 'w'", "shape overflows", "dim 1"}},
        {"dim beyond int64",
         f32_one(R"("dtype":"F32","shape":[18446744073709551615],"data_offsets":[0,4])"),
         {"tensor 'w'", "shape overflows"}},
        {"byte count overflow",
         f32_one(R"("dtype":"F32","shape":[4611686018427387904],"data_offsets":[0,4])"),
         {"tensor 'w'", "needs more than 2^63 - 1 bytes"}},
        {"missing data_offsets", f32_one(R"("dtype":"F32","shape":[1])"), {"tensor 'w'", "data_offsets is missing"}},
        {"data_offsets too short",
         f32_one(R"("dtype":"F32","shape":[1],"data_offsets":[4])"),
         {"tensor 'w'", "data_offsets is not a pair"}},
        {"data_offsets negative",
         f32_one(R"("dtype":"F32","shape":[1],"data_offsets":[-4,0])"),
         {"tensor 'w'", "data_offsets is not a pair"}},
        {"data_offsets strings",
         f32_one(R"("dtype":"F32","shape":[1],"data_offsets":["0","4"])"),
         {"tensor 'w'", "data_offsets is not a pair"}},
        {"begin after end",
         f32_one(R"("dtype":"F32","shape":[0],"data_offsets":[4,0])"),
         {"tensor 'w'", "data_offsets [4, 0] begin after they end"}},
        {"end beyond buffer",
         f32_one(R"("dtype":"F32","shape":[100],"data_offsets":[0,400])"),
         {"tensor 'w'", "data_offsets [0, 400] end beyond the data buffer of 4 bytes"}},
        {"byte size mismatch",
         make_file(R"({"encoder.norm.weight":{"dtype":"F16","shape":[4],"data_offsets":[0,12]}})",
                   std::vector<uint8_t>(12)),
         {"tensor 'encoder.norm.weight': data_offsets [0, 12] hold 12 bytes but shape (4,) of F16 needs 8"}},
        {"overlapping tensors",
         make_file(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                   R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}})",
                   std::vector<uint8_t>(12)),
         {"tensor 'b'", "overlap tensor 'a', which ends at 8"}},
        {"gap between tensors",
         make_file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                   R"("b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}})",
                   std::vector<uint8_t>(12)),
         {"tensor 'b'", "leave bytes [4, 8] of the data buffer unclaimed"}},
        {"trailing unclaimed bytes",
         make_file(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", std::vector<uint8_t>(8)),
         {"data buffer", "bytes [4, 8] are not claimed"}},
        {"data with no tensors", make_file("{}", std::vector<uint8_t>(4)), {"data buffer", "bytes [0, 4]"}},
        {"metadata not an object", make_file(R"({"__metadata__":["pt"]})"), {"__metadata__ is not a JSON object"}},
        {"metadata value not a string",
         make_file(R"({"__metadata__":{"format":"pt","epoch":3}})"),
         {"__metadata__ 'epoch'", "not a string"}},
        {"duplicate tensor",
         make_file(R"({"w":{"dtype":"F32","shape":[0],"data_offsets":[0,0]},)"
                   R"("w":{"dtype":"F32","shape":[0],"data_offsets":[0,0]}})"),
         {"duplicate key 'w'"}},
        {"duplicate field",
         f32_one(R"("dtype":"F32","dtype":"F16","shape":[1],"data_offsets":[0,4])"),
         {"duplicate key 'dtype'"}},
        {"control characters in a name", make_file(R"({"a\nb": 1})"), {"tensor 'a\\x0Ab'"}},
        {"very long name", make_file("{\"" + std::string(5000, 'x') + "\": 1}"), {"tensor 'xxxxxxxxxx", "...'"}},
    };
    REQUIRE(cases.size() >= 15);
    for (const Case& c : cases) {
        INFO(c.label);
        const Result<SafetensorsFile> file = parse_safetensors(c.bytes, "bad.safetensors");
        REQUIRE_FALSE(file.ok());
        const std::string& message = file.error().message;
        INFO(message);
        CHECK(message.rfind("bad.safetensors: ", 0) == 0);
        CHECK(message.find('\n') == std::string::npos);
        CHECK(message.size() < 400);
        for (const std::string& needle : c.needles) CHECK(message.find(needle) != std::string::npos);
    }
}

TEST_CASE("parse_safetensors rejects every truncation of a valid file") {
    const std::vector<uint8_t> whole = serialize_safetensors(sample_file());
    REQUIRE(parse_safetensors(whole, "whole").ok());
    for (size_t n = 0; n < whole.size(); ++n) {
        const std::vector<uint8_t> prefix(
            whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(n));  // exact size: ASan sees over-reads
        const Result<SafetensorsFile> file = parse_safetensors(prefix, "cut");
        INFO("length " << n);
        REQUIRE_FALSE(file.ok());
        CHECK(file.error().message.rfind("cut: ", 0) == 0);
    }
}

TEST_CASE("write_safetensors refuses a file it cannot serialize") {
    TempDir dir;
    const std::string path = (dir.path / "bad.safetensors").string();
    SafetensorsFile mismatched;
    mismatched.tensors["w"] = make_tensor({2, 3}, {1.0f, 2.0f});
    const Status wrong_size = write_safetensors(path, mismatched);
    REQUIRE_FALSE(wrong_size.ok());
    CHECK(wrong_size.error().message.find("tensor 'w'") != std::string::npos);

    SafetensorsFile reserved;
    reserved.tensors["__metadata__"] = make_tensor({}, {1.0f});
    const Status reserved_name = write_safetensors(path, reserved);
    REQUIRE_FALSE(reserved_name.ok());
    CHECK(reserved_name.error().message.find("reserved") != std::string::npos);
    CHECK(dir.entries().empty());
}

TEST_CASE("read_file_bytes reports missing files and directories") {
    TempDir dir;
    const std::string missing = (dir.path / "nope.bin").string();
    const auto not_found = read_file_bytes(missing);
    REQUIRE_FALSE(not_found.ok());
    CHECK(not_found.error().message == missing + ": no such file");

    const auto is_dir = read_file_bytes(dir.path.string());
    REQUIRE_FALSE(is_dir.ok());
    CHECK(is_dir.error().message.find("is a directory") != std::string::npos);

    const auto from_safetensors = read_safetensors(missing);
    REQUIRE_FALSE(from_safetensors.ok());
    CHECK(from_safetensors.error().message.rfind(missing, 0) == 0);
}

TEST_CASE("write_file_atomic replaces an existing file and leaves no temp file") {
    TempDir dir;
    const std::string path = (dir.path / "out.bin").string();
    REQUIRE(write_file_atomic(path, bytes_of("old contents, longer than the new")).ok());
    REQUIRE(write_file_atomic(path, bytes_of("new")).ok());

    const auto read = read_file_bytes(path);
    REQUIRE(read.ok());
    CHECK(*read == bytes_of("new"));
    CHECK(dir.entries() == std::set<std::string>{"out.bin"});

    REQUIRE(write_file_atomic(path, {}).ok());
    CHECK(fs::file_size(path) == 0);
}

TEST_CASE("write_file_atomic into a missing directory fails and leaves nothing behind") {
    TempDir dir;
    const std::string path = (dir.path / "missing" / "out.bin").string();
    const Status status = write_file_atomic(path, bytes_of("data"));
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().message.rfind(path + ": ", 0) == 0);
    CHECK(dir.entries().empty());
}

TEST_CASE("write_file_atomic over a directory fails, keeps it intact and removes the temp file") {
    TempDir dir;
    const fs::path target = dir.path / "target";
    fs::create_directory(target);
    REQUIRE(write_file_atomic((target / "inside.bin").string(), bytes_of("kept")).ok());

    const Status status = write_file_atomic(target.string(), bytes_of("data"));
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().message.find("cannot replace") != std::string::npos);
    CHECK(dir.entries() == std::set<std::string>{"target"});
    const auto kept = read_file_bytes((target / "inside.bin").string());
    REQUIRE(kept.ok());
    CHECK(*kept == bytes_of("kept"));
}
