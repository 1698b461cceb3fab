// Mapped safetensors: F32 tensors are read-only (const) views of the mapping that outlive the
// reader, other float dtypes are decoded, other dtypes load nothing but stop nothing; copies of
// a view own their numbers.
#include "io/file_bytes.h"
#include "io/mapped_safetensors.h"
#include "io/safetensors.h"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

using namespace attnlab;

namespace {

std::vector<uint8_t> file_bytes(const std::string& header, const std::vector<uint8_t>& data) {
    std::vector<uint8_t> out;
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(static_cast<uint64_t>(header.size()) >> (8 * i)));  // size_t: 32 bits in wasm
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

std::string temp_file() {
    std::string pattern = (std::filesystem::temp_directory_path() / "attnlab-mapped-XXXXXX").string();
    const int fd = ::mkstemp(pattern.data());
    REQUIRE(fd >= 0);
    ::close(fd);
    return pattern;
}

}  // namespace

TEST_CASE("F32 tensors are views of the mapping, F16 is decoded, I64 is listed but not read", "[io][hf]") {
    // "a" F32 (2,) = {1.5, -2}, "h" F16 (2,) = {1, 0.5}, "i" I64 (1,) = 7; header 8-aligned as writers pad it.
    std::string header = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                         R"("h":{"dtype":"F16","shape":[2],"data_offsets":[8,12]},)"
                         R"("i":{"dtype":"I64","shape":[1],"data_offsets":[12,20]}})";
    header.append((8 - header.size() % 8) % 8, ' ');
    const std::vector<uint8_t> data = {0x00, 0x00, 0xC0, 0x3F, 0x00, 0x00, 0x00, 0xC0,  // 1.5f, -2.0f
                                       0x00, 0x3C, 0x00, 0x38,                          // 1.0, 0.5 as F16
                                       7,    0,    0,    0,    0,    0,    0,    0};
    const std::string path = temp_file();
    REQUIRE(io::write_file_atomic(path, file_bytes(header, data)));

    std::shared_ptr<const Tensor> a;
    {
        auto file = io::MappedSafetensors::open(path);
        if (!file) FAIL(file.error().message);
        CHECK(file->entries().size() == 3);
        CHECK(file->entries().at("i").dtype == io::Dtype::i64);
        auto mapped = file->tensor("a");
        REQUIRE(mapped);
        a = *mapped;
        auto h = file->tensor("h");
        REQUIRE(h);
        CHECK_FALSE((*h)->data.is_view());
        CHECK((*h)->data == FloatBuffer{1.0f, 0.5f});
        auto i = file->tensor("i");
        REQUIRE_FALSE(i);
        CHECK_THAT(i.error().message,
                   Catch::Contains("tensor 'i': dtype 'I64' is not supported (only F32, F16, BF16)"));
    }
    std::filesystem::remove(path);  // the mapping outlives both the reader and the file's name
    CHECK(a->data.is_view());
    CHECK(a->shape == Shape{2});
    CHECK(a->data == FloatBuffer{1.5f, -2.0f});
    CHECK(a->matrix()(0, 1) == -2.0f);

    Tensor copy = *a;  // a copy owns its numbers and may be written
    CHECK_FALSE(copy.data.is_view());
    copy.data[0] = 4.0f;
    copy.matrix()(0, 1) = 5.0f;
    CHECK(copy.data == FloatBuffer{4.0f, 5.0f});
    CHECK(a->data == FloatBuffer{1.5f, -2.0f});

    // Reading every tensor at once still refuses what it cannot decode, as before.
    auto strict = io::parse_safetensors(file_bytes(header, data), "strict");
    REQUIRE_FALSE(strict);
    CHECK_THAT(strict.error().message, Catch::Contains("tensor 'i': dtype 'I64' is not supported"));
}

TEST_CASE("mapping a missing file, a directory or a broken header fails with one line", "[io][hf]") {
    auto missing = io::MappedSafetensors::open("/nonexistent/attnlab/model.safetensors");
    REQUIRE_FALSE(missing);
    CHECK_THAT(missing.error().message, Catch::EndsWith("no such file"));
    auto directory = io::MappedSafetensors::open(std::filesystem::temp_directory_path().string());
    REQUIRE_FALSE(directory);
    CHECK_THAT(directory.error().message, Catch::Contains("is a directory"));
    const std::string path = temp_file();  // empty: nothing to map
    auto empty = io::MappedSafetensors::open(path);
    REQUIRE_FALSE(empty);
    CHECK_THAT(empty.error().message, Catch::Contains("file is 0 bytes"));
    std::filesystem::remove(path);
}
