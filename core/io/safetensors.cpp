// Safetensors parsing (every header field checked before any data is touched) and
// deterministic F32 serialisation.
#include "io/safetensors.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <tuple>

#include "io/file_bytes.h"
#include "io/half_float.h"

namespace attnlab::io {
namespace {

using nlohmann::json;

constexpr uint64_t max_header_bytes = 100'000'000;  // the reference implementation's limit
constexpr uint64_t max_count = std::numeric_limits<int64_t>::max();
constexpr size_t max_quoted_bytes = 100;
constexpr std::string_view metadata_key = "__metadata__";

enum class Dtype { f32, f16, bf16 };

struct DtypeInfo {
    std::string_view name;
    Dtype dtype;
    uint64_t n_bytes;  // per element
};

constexpr DtypeInfo supported_dtypes[] = {{"F32", Dtype::f32, 4}, {"F16", Dtype::f16, 2}, {"BF16", Dtype::bf16, 2}};

// One header entry, checked against the data buffer but not yet decoded.
struct Entry {
    std::string name;
    const DtypeInfo* dtype = nullptr;
    Shape shape;
    uint64_t numel = 0;
    uint64_t begin = 0, end = 0;  // byte offsets into the data buffer
};

// 'name' for messages: control characters escaped so a message stays one line, long names cut.
std::string quote_name(std::string_view s) {
    size_t n = std::min(s.size(), max_quoted_bytes);
    while (n < s.size() && n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;  // whole UTF-8 chars
    std::string out = "'";
    for (const char c : s.substr(0, n)) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7F) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02X", u);
            out += escaped;
        } else {
            out += c;
        }
    }
    return out + (n < s.size() ? "...'" : "'");
}

bool is_utf8(const std::string& s) {
    try {
        (void)json(s).dump();
        return true;
    } catch (const json::type_error&) {
        return false;
    }
}

uint64_t load_le(const uint8_t* p, int n_bytes) {
    uint64_t v = 0;
    for (int i = n_bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

void append_le(std::vector<uint8_t>& out, uint64_t v, int n_bytes) {
    for (int i = 0; i < n_bytes; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

std::string offsets_string(uint64_t begin, uint64_t end) {
    std::string s = "[";  // appended, not "[" + ...: GCC 12 -O3 warns falsely (-Wrestrict) on that
    s += std::to_string(begin) + ", " + std::to_string(end) + "]";
    return s;
}

// JSON parse that also rejects duplicate keys (nlohmann would silently keep the last one).
Result<json> parse_header(std::span<const uint8_t> text, const std::string& source) {
    std::vector<std::set<std::string>> open_objects;  // keys seen so far in each unclosed object
    std::string duplicate;
    bool has_duplicate = false;
    const json::parser_callback_t on_event = [&](int, json::parse_event_t event, json& parsed) {
        if (event == json::parse_event_t::object_start) open_objects.emplace_back();
        if (event == json::parse_event_t::object_end) open_objects.pop_back();
        if (event == json::parse_event_t::key && !has_duplicate &&
            !open_objects.back().insert(parsed.get<std::string>()).second) {
            has_duplicate = true;
            duplicate = parsed.get<std::string>();
        }
        return true;
    };
    json header;
    try {
        header = json::parse(text.begin(), text.end(), on_event);
    } catch (const json::parse_error& e) {
        return Error{source + ": header is not valid JSON (error at byte " + std::to_string(e.byte) + " of " +
                     std::to_string(text.size()) + ")"};
    } catch (const json::out_of_range&) {  // the only other throw while parsing text: 406, number overflow
        return Error{source + ": header is not valid JSON (a number is too large for a double)"};
    }
    if (has_duplicate) return Error{source + ": header: duplicate key " + quote_name(duplicate)};
    return header;
}

Status read_metadata(const json& value, const std::string& source, std::map<std::string, std::string>& metadata) {
    if (!value.is_object()) return Error{source + ": __metadata__ is not a JSON object"};
    for (auto it = value.begin(); it != value.end(); ++it) {
        if (!it->is_string()) return Error{source + ": __metadata__ " + quote_name(it.key()) + ": value is not a string"};
        metadata[it.key()] = it->get<std::string>();
    }
    return ok_status();
}

Result<Entry> parse_entry(const std::string& name, const json& value, uint64_t buffer_size, const std::string& source) {
    const auto fail = [&](const std::string& what) { return Error{source + ": tensor " + quote_name(name) + ": " + what}; };
    if (!value.is_object()) return fail("entry is not a JSON object");
    Entry entry;
    entry.name = name;

    const auto dtype = value.find("dtype");
    if (dtype == value.end()) return fail("dtype is missing");
    if (!dtype->is_string()) return fail("dtype is not a string");
    const std::string& dtype_name = dtype->get_ref<const std::string&>();
    for (const DtypeInfo& info : supported_dtypes)
        if (info.name == dtype_name) entry.dtype = &info;
    if (!entry.dtype) return fail("dtype " + quote_name(dtype_name) + " is not supported (only F32, F16, BF16)");

    const auto shape = value.find("shape");
    if (shape == value.end()) return fail("shape is missing");
    if (!shape->is_array()) return fail("shape is not an array");
    entry.numel = 1;
    for (size_t i = 0; i < shape->size(); ++i) {
        const json& d = (*shape)[i];
        const std::string dim_name = "shape dim " + std::to_string(i);
        if (!d.is_number_integer()) return fail(dim_name + " is not an integer");
        if (!d.is_number_unsigned() && d.get<int64_t>() < 0)
            return fail(dim_name + " is negative (" + std::to_string(d.get<int64_t>()) + ")");
        const uint64_t dim = d.get<uint64_t>();
        if (dim > max_count || (dim != 0 && entry.numel > max_count / dim))
            return fail("shape overflows: its element count exceeds 2^63 - 1 at dim " + std::to_string(i));
        entry.numel *= dim;
        entry.shape.push_back(static_cast<int64_t>(dim));
    }
    if (entry.numel > max_count / entry.dtype->n_bytes)
        return fail("shape " + shape_string(entry.shape) + " of " + dtype_name + " needs more than 2^63 - 1 bytes");
    const uint64_t n_bytes = entry.numel * entry.dtype->n_bytes;

    const auto offsets = value.find("data_offsets");
    if (offsets == value.end()) return fail("data_offsets is missing");
    if (!offsets->is_array() || offsets->size() != 2 || !(*offsets)[0].is_number_unsigned() ||
        !(*offsets)[1].is_number_unsigned())
        return fail("data_offsets is not a pair of non-negative integers");
    entry.begin = (*offsets)[0].get<uint64_t>();
    entry.end = (*offsets)[1].get<uint64_t>();
    const std::string offsets_text = "data_offsets " + offsets_string(entry.begin, entry.end);
    if (entry.begin > entry.end) return fail(offsets_text + " begin after they end");
    if (entry.end > buffer_size)
        return fail(offsets_text + " end beyond the data buffer of " + std::to_string(buffer_size) + " bytes");
    if (entry.end - entry.begin != n_bytes)
        return fail(offsets_text + " hold " + std::to_string(entry.end - entry.begin) + " bytes but shape " +
                    shape_string(entry.shape) + " of " + dtype_name + " needs " + std::to_string(n_bytes));
    return entry;
}

// The reference implementation's rule: sorted by offset, the tensors tile the buffer exactly.
Status check_tiling(std::vector<Entry>& entries, uint64_t buffer_size, const std::string& source) {
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        return std::tie(a.begin, a.end, a.name) < std::tie(b.begin, b.end, b.name);
    });
    uint64_t covered = 0;
    std::string previous;
    for (const Entry& e : entries) {
        const std::string at = source + ": tensor " + quote_name(e.name) + ": data_offsets " + offsets_string(e.begin, e.end);
        if (e.begin < covered)
            return Error{at + " overlap tensor " + quote_name(previous) + ", which ends at " + std::to_string(covered)};
        if (e.begin > covered)
            return Error{at + " leave bytes " + offsets_string(covered, e.begin) + " of the data buffer unclaimed"};
        covered = e.end;
        previous = e.name;
    }
    if (covered != buffer_size)
        return Error{source + ": data buffer: bytes " + offsets_string(covered, buffer_size) +
                     " are not claimed by any tensor"};
    return ok_status();
}

Tensor decode(const Entry& entry, std::span<const uint8_t> buffer) {
    Tensor t;
    t.shape = entry.shape;
    t.data.resize(entry.numel);
    const uint8_t* p = buffer.data() + entry.begin;
    const size_t n = t.data.size();
    switch (entry.dtype->dtype) {
        case Dtype::f32:
            for (size_t i = 0; i < n; ++i) t.data[i] = std::bit_cast<float>(static_cast<uint32_t>(load_le(p + 4 * i, 4)));
            break;
        case Dtype::f16:
            for (size_t i = 0; i < n; ++i) t.data[i] = f16_to_f32(static_cast<uint16_t>(load_le(p + 2 * i, 2)));
            break;
        case Dtype::bf16:
            for (size_t i = 0; i < n; ++i) t.data[i] = bf16_to_f32(static_cast<uint16_t>(load_le(p + 2 * i, 2)));
            break;
    }
    return t;
}

Status check_serializable(const SafetensorsFile& file, const std::string& source) {
    for (const auto& item : file.tensors) {
        const std::string& name = item.first;  // not a structured binding: lambdas capture it
        const Tensor& tensor = item.second;
        const auto fail = [&](const std::string& what) { return Error{source + ": tensor " + quote_name(name) + ": " + what}; };
        if (name == metadata_key) return fail("the name is reserved for metadata");
        if (!is_utf8(name)) return fail("the name is not valid UTF-8");
        uint64_t numel = 1;
        for (const int64_t d : tensor.shape) {
            const auto dim = static_cast<uint64_t>(d);
            if (d < 0 || (dim != 0 && numel > max_count / 4 / dim))
                return fail("shape " + shape_string(tensor.shape) + " is negative or too large");
            numel *= dim;
        }
        if (numel != tensor.data.size())
            return fail("shape " + shape_string(tensor.shape) + " holds " + std::to_string(numel) +
                        " elements but data has " + std::to_string(tensor.data.size()));
    }
    for (const auto& [key, value] : file.metadata)
        if (!is_utf8(key) || !is_utf8(value))
            return Error{source + ": __metadata__ " + quote_name(key) + ": key or value is not valid UTF-8"};
    return ok_status();
}

}  // namespace

Result<SafetensorsFile> parse_safetensors(std::span<const uint8_t> bytes, const std::string& source_name) {
    const std::string& source = source_name;
    if (bytes.size() < 8)
        return Error{source + ": file is " + std::to_string(bytes.size()) +
                     " bytes, too short for the 8-byte header length"};
    const uint64_t header_size = load_le(bytes.data(), 8);
    if (header_size > max_header_bytes)
        return Error{source + ": header length " + std::to_string(header_size) + " exceeds the 100 MB limit"};
    if (header_size > bytes.size() - 8)
        return Error{source + ": header length " + std::to_string(header_size) + " runs past the end of the file (" +
                     std::to_string(bytes.size() - 8) + " bytes follow)"};
    const std::span<const uint8_t> buffer = bytes.subspan(8 + header_size);

    Result<json> header = parse_header(bytes.subspan(8, header_size), source);
    if (!header) return header.error();
    if (!header->is_object()) return Error{source + ": header is not a JSON object"};

    SafetensorsFile file;
    std::vector<Entry> entries;
    for (auto it = header->begin(); it != header->end(); ++it) {
        if (it.key() == metadata_key) {
            const Status read = read_metadata(*it, source, file.metadata);
            if (!read) return read.error();
            continue;
        }
        Result<Entry> entry = parse_entry(it.key(), *it, buffer.size(), source);
        if (!entry) return entry.error();
        entries.push_back(std::move(entry).value());
    }
    const Status tiled = check_tiling(entries, buffer.size(), source);
    if (!tiled) return tiled.error();
    for (const Entry& entry : entries) file.tensors.emplace(entry.name, decode(entry, buffer));
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
        const uint64_t n_bytes = 4 * tensor.data.size();
        header[name] = {{"dtype", "F32"}, {"shape", tensor.shape}, {"data_offsets", {offset, offset + n_bytes}}};
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
        for (const float x : tensor.data) append_le(bytes, std::bit_cast<uint32_t>(x), 4);
    return bytes;
}

Status write_safetensors(const std::string& path, const SafetensorsFile& file) {
    const Status valid = check_serializable(file, display_path(path));
    if (!valid) return valid;
    return write_file_atomic(path, serialize_safetensors(file));
}

}  // namespace attnlab::io
