// Safetensors header parsing: every field checked before any data is touched.
#include "io/safetensors_header.h"

#include "io/half_float.h"

#include <algorithm>
#include "bit_cast.h"
#include <cassert>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

namespace attnlab::io {
namespace {

using nlohmann::json;

constexpr uint64_t max_header_bytes = 100'000'000;  // the reference implementation's limit
constexpr uint64_t max_count = std::numeric_limits<int64_t>::max();
constexpr size_t max_quoted_bytes = 100;
constexpr std::string_view metadata_key = "__metadata__";

struct DtypeInfo {
    std::string_view name;
    Dtype dtype;
    uint64_t n_bytes;  // per element
};

constexpr DtypeInfo known_dtypes[] = {{"F32", Dtype::f32, 4},     {"F16", Dtype::f16, 2}, {"BF16", Dtype::bf16, 2},
                                      {"F64", Dtype::f64, 8},     {"I64", Dtype::i64, 8}, {"I32", Dtype::i32, 4},
                                      {"I16", Dtype::i16, 2},     {"I8", Dtype::i8, 1},   {"U8", Dtype::u8, 1},
                                      {"BOOL", Dtype::boolean, 1}};

const DtypeInfo* find_dtype(std::string_view name) {
    for (const DtypeInfo& info : known_dtypes)
        if (info.name == name) return &info;
    return nullptr;
}

uint64_t load_le(const uint8_t* p, int n_bytes) {
    uint64_t v = 0;
    for (int i = n_bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
    return v;
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
        if (!it->is_string())
            return Error{source + ": __metadata__ " + quote_name(it.key()) + ": value is not a string"};
        metadata[it.key()] = it->get<std::string>();
    }
    return ok_status();
}

Result<SafetensorsEntry> parse_entry(const std::string& name, const json& value, uint64_t buffer_size,
                                     const std::string& source, DtypePolicy policy) {
    const auto fail = [&](const std::string& what) {
        return Error{source + ": tensor " + quote_name(name) + ": " + what};
    };
    if (!value.is_object()) return fail("entry is not a JSON object");
    SafetensorsEntry entry;
    entry.name = name;

    const auto dtype = value.find("dtype");
    if (dtype == value.end()) return fail("dtype is missing");
    if (!dtype->is_string()) return fail("dtype is not a string");
    const std::string& dtype_name = dtype->get_ref<const std::string&>();
    const DtypeInfo* info = find_dtype(dtype_name);
    if (!info || (policy == DtypePolicy::floats_only && !is_float_dtype(info->dtype)))
        return fail(unsupported_dtype_message(dtype_name));
    entry.dtype = info->dtype;

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
    if (entry.numel > max_count / info->n_bytes)
        return fail("shape " + shape_string(entry.shape) + " of " + dtype_name + " needs more than 2^63 - 1 bytes");
    const uint64_t n_bytes = entry.numel * info->n_bytes;

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
Status check_tiling(std::vector<SafetensorsEntry>& entries, uint64_t buffer_size, const std::string& source) {
    std::sort(entries.begin(), entries.end(), [](const SafetensorsEntry& a, const SafetensorsEntry& b) {
        return std::tie(a.begin, a.end, a.name) < std::tie(b.begin, b.end, b.name);
    });
    uint64_t covered = 0;
    std::string previous;
    for (const SafetensorsEntry& e : entries) {
        const std::string at =
            source + ": tensor " + quote_name(e.name) + ": data_offsets " + offsets_string(e.begin, e.end);
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

}  // namespace

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

bool is_float_dtype(Dtype dtype) { return dtype == Dtype::f32 || dtype == Dtype::f16 || dtype == Dtype::bf16; }

std::string_view dtype_name(Dtype dtype) {
    for (const DtypeInfo& info : known_dtypes)
        if (info.dtype == dtype) return info.name;
    return "?";
}

std::string unsupported_dtype_message(std::string_view name) {
    return "dtype " + quote_name(name) + " is not supported (only F32, F16, BF16)";
}

Result<SafetensorsHeader> parse_safetensors_header(std::span<const uint8_t> bytes, const std::string& source,
                                                   DtypePolicy policy) {
    if (bytes.size() < 8)
        return Error{source + ": file is " + std::to_string(bytes.size()) +
                     " bytes, too short for the 8-byte header length"};
    const uint64_t header_size = load_le(bytes.data(), 8);
    if (header_size > max_header_bytes)
        return Error{source + ": header length " + std::to_string(header_size) + " exceeds the 100 MB limit"};
    if (header_size > bytes.size() - 8)
        return Error{source + ": header length " + std::to_string(header_size) + " runs past the end of the file (" +
                     std::to_string(bytes.size() - 8) + " bytes follow)"};

    Result<json> header = parse_header(bytes.subspan(8, header_size), source);
    if (!header) return header.error();
    if (!header->is_object()) return Error{source + ": header is not a JSON object"};

    SafetensorsHeader parsed;
    parsed.buffer = bytes.subspan(8 + header_size);
    for (auto it = header->begin(); it != header->end(); ++it) {
        if (it.key() == metadata_key) {
            const Status read = read_metadata(*it, source, parsed.metadata);
            if (!read) return read.error();
            continue;
        }
        Result<SafetensorsEntry> entry = parse_entry(it.key(), *it, parsed.buffer.size(), source, policy);
        if (!entry) return entry.error();
        parsed.entries.push_back(std::move(entry).value());
    }
    const Status tiled = check_tiling(parsed.entries, parsed.buffer.size(), source);
    if (!tiled) return tiled.error();
    return parsed;
}

Tensor decode_tensor(const SafetensorsEntry& entry, std::span<const uint8_t> buffer) {
    assert(is_float_dtype(entry.dtype) && entry.end <= buffer.size());
    Tensor t;
    t.shape = entry.shape;
    t.data = FloatBuffer::uninitialized(entry.numel);  // every value written below
    const uint8_t* p = buffer.data() + entry.begin;
    const size_t n = t.data.size();
    switch (entry.dtype) {
        case Dtype::f32:
            for (size_t i = 0; i < n; ++i)
                t.data[i] = bit_cast<float>(static_cast<uint32_t>(load_le(p + 4 * i, 4)));
            break;
        case Dtype::f16: f16_array_to_f32(p, t.data.data(), n); break;
        case Dtype::bf16: bf16_array_to_f32(p, t.data.data(), n); break;
        default: break;
    }
    return t;
}

}  // namespace attnlab::io
