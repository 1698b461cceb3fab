// Safetensors reading (the header checked first, see safetensors_header.h, then every tensor
// decoded) and deterministic F32 (and BF16) serialisation.
#include "io/safetensors.h"

#include "bit_cast.h"
#include <cassert>
#include <limits>
#include <nlohmann/json.hpp>
#include <string_view>

#include "io/file_bytes.h"
#include "io/safetensors_header.h"

namespace attnlab::io {
namespace {

using nlohmann::json;

constexpr uint64_t max_count = std::numeric_limits<int64_t>::max();
constexpr std::string_view metadata_key = "__metadata__";

bool is_utf8(const std::string& s) {
    try {
        (void)json(s).dump();
        return true;
    } catch (const json::type_error&) {
        return false;
    }
}

void append_le(std::vector<uint8_t>& out, uint64_t v, int n_bytes) {
    for (int i = 0; i < n_bytes; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

Status check_serializable(const SafetensorsFile& file, const std::string& source) {
    for (const auto& item : file.tensors) {
        const std::string& name = item.first;  // not a structured binding: lambdas capture it
        const Tensor& tensor = item.second;
        const auto fail = [&](const std::string& what) {
            return Error{source + ": tensor " + quote_name(name) + ": " + what};
        };
        if (name == metadata_key) return fail("the name is reserved for metadata");
        if (!is_utf8(name)) return fail("the name is not valid UTF-8");
        uint64_t numel = 1;
        for (const int64_t d : tensor.shape) {
            const auto dim = static_cast<uint64_t>(d);
            if (d < 0 || (dim != 0 && numel > max_count / 4 / dim))
                return fail("shape " + shape_string(tensor.shape) + " is negative or too large");
            numel *= dim;
        }
        if (numel != static_cast<uint64_t>(tensor.numel()))
            return fail("shape " + shape_string(tensor.shape) + " holds " + std::to_string(numel) +
                        " elements but data has " + std::to_string(tensor.numel()));
    }
    for (const auto& [key, value] : file.metadata)
        if (!is_utf8(key) || !is_utf8(value))
            return Error{source + ": __metadata__ " + quote_name(key) + ": key or value is not valid UTF-8"};
    return ok_status();
}

}  // namespace

Result<SafetensorsFile> parse_safetensors(std::span<const uint8_t> bytes, const std::string& source_name) {
    Result<SafetensorsHeader> header = parse_safetensors_header(bytes, source_name, DtypePolicy::floats_only);
    if (!header) return header.error();
    SafetensorsFile file;
    file.metadata = std::move(header->metadata);
    for (const SafetensorsEntry& entry : header->entries)
        file.tensors.emplace(entry.name, decode_tensor(entry, header->buffer));
    return file;
}

Result<SafetensorsFile> read_safetensors(const std::string& path) {
    const Result<std::vector<uint8_t>> bytes = read_file_bytes(path);
    if (!bytes) return bytes.error();
    return parse_safetensors(*bytes, display_path(path));
}

std::vector<uint8_t> serialize_safetensors(const SafetensorsFile& file) {
    assert(check_serializable(file, "serialize_safetensors").ok());
    json header = json::object();
    uint64_t offset = 0;
    for (const auto& [name, tensor] : file.tensors) {  // std::map: sorted key order
        const uint64_t n_bytes = static_cast<uint64_t>(tensor.storage_bytes());
        header[name] = {{"dtype", tensor.is_bf16() ? "BF16" : "F32"},
                        {"shape", tensor.shape},
                        {"data_offsets", {offset, offset + n_bytes}}};
        offset += n_bytes;
    }
    if (!file.metadata.empty()) header[metadata_key] = file.metadata;
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');  // 8 + N is a multiple of 8

    std::vector<uint8_t> bytes;
    bytes.reserve(8 + text.size() + offset);
    append_le(bytes, text.size(), 8);
    bytes.insert(bytes.end(), text.begin(), text.end());
    for (const auto& [name, tensor] : file.tensors)
        if (tensor.is_bf16())  // a weight opened from BF16 and never changed: its own bytes again
            for (const uint16_t x : tensor.bf16) append_le(bytes, x, 2);
        else
            for (const float x : tensor.data) append_le(bytes, bit_cast<uint32_t>(x), 4);
    return bytes;
}

Status write_safetensors(const std::string& path, const SafetensorsFile& file) {
    const Status valid = check_serializable(file, display_path(path));
    if (!valid) return valid;
    return write_file_atomic(path, serialize_safetensors(file));
}

}  // namespace attnlab::io
