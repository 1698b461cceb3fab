// Reading the two charsmaps out of a ModelProto's protobuf wire format, and checking that every walk of the
// library's trie (Darts-clone's double array) stays inside it and every replacement it finds is a NUL-ended
// string inside the blob.
#include "text/sentencepiece_charsmap.h"

#include <cstdint>
#include <optional>
#include <string>

namespace attnlab {

namespace {

constexpr int kNormalizerSpec = 3;        // ModelProto.normalizer_spec
constexpr int kDenormalizerSpec = 5;      // ModelProto.denormalizer_spec
constexpr int kPrecompiledCharsmap = 2;  // NormalizerSpec.precompiled_charsmap

bool read_varint(std::string_view bytes, size_t& at, uint64_t& out) {
    out = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (at >= bytes.size()) return false;
        const auto c = static_cast<uint8_t>(bytes[at++]);
        out |= static_cast<uint64_t>(c & 0x7F) << shift;
        if ((c & 0x80) == 0) return true;
    }
    return false;
}

// Skips one field's value of wire type `wire` (a group up to its end). False when the bytes end inside it.
bool skip_value(std::string_view bytes, size_t& at, uint64_t field, int wire, int depth) {
    uint64_t n = 0;
    switch (wire) {
        case 0: return read_varint(bytes, at, n);
        case 1: n = 8; break;
        case 5: n = 4; break;
        case 2:
            if (!read_varint(bytes, at, n)) return false;
            break;
        case 3:
            while (depth < 32) {
                uint64_t key = 0;
                if (!read_varint(bytes, at, key)) return false;
                if ((key & 7) == 4) return (key >> 3) == field;
                if (!skip_value(bytes, at, key >> 3, static_cast<int>(key & 7), depth + 1)) return false;
            }
            return false;
        default: return false;
    }
    if (n > bytes.size() - at) return false;
    at += n;
    return true;
}

// The last value of length-delimited field `field` of `message` (the library's own serialization writes each
// once); nullopt when absent. False in `ok` when the bytes are not protobuf.
std::optional<std::string_view> last_bytes_field(std::string_view message, uint64_t field, bool& ok) {
    std::optional<std::string_view> found;
    size_t at = 0;
    while (at < message.size()) {
        uint64_t key = 0;
        if (!read_varint(message, at, key)) return ok = false, std::nullopt;
        const int wire = static_cast<int>(key & 7);
        const size_t value_at = at;
        if (!skip_value(message, at, key >> 3, wire, 0)) return ok = false, std::nullopt;
        if ((key >> 3) == field && wire == 2) {
            size_t data_at = value_at;
            uint64_t n = 0;
            read_varint(message, data_at, n);
            found = message.substr(data_at, static_cast<size_t>(n));
        }
    }
    return found;
}

uint32_t unit_offset(uint32_t unit) { return (unit >> 10) << ((unit & (1U << 9)) >> 6); }
bool unit_is_leaf(uint32_t unit) { return (unit >> 31) != 0; }
bool unit_has_leaf(uint32_t unit) { return ((unit >> 8) & 1) != 0; }
uint32_t unit_value(uint32_t unit) { return unit & ((1U << 31) - 1); }

uint32_t read_u32le(std::string_view bytes, size_t at) {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<uint8_t>(bytes[at + i])) << (8 * i);
    return v;
}

// A walk starts at unit 0 and moves from unit p to p ^ offset(p) ^ c for an input byte c, reading a replacement
}  // namespace

// A walk starts at unit 0 and moves from unit p to p ^ offset(p) ^ c for an input byte c, reading a replacement
// at p ^ offset(p) when p has a leaf: so each unit it may move from (the root, and any unit that is no leaf)
// must keep the whole 256-unit block p ^ offset(p) ^ 0..255 inside the trie, and its leaf's value inside the
// replacements.
Status check_precompiled_charsmap(std::string_view blob, const std::string& field) {
    if (blob.empty()) return ok_status();  // no rules: the library leaves the text as it is
    const std::string where = field + ".precompiled_charsmap: ";
    if (blob.size() <= 4) return Error{where + "shorter than its 4-byte header"};
    const uint32_t trie_bytes = read_u32le(blob, 0);
    if (trie_bytes > blob.size() - 4) return Error{where + "its trie runs past its end"};
    const std::string_view trie = blob.substr(4, trie_bytes);
    const std::string_view replacements = blob.substr(4 + trie_bytes);
    if (replacements.empty() || replacements.back() != '\0')
        return Error{where + "its replacement strings do not end with a NUL byte"};
    const size_t n_units = trie.size() / 4;
    if (n_units == 0) return Error{where + "its trie is empty"};
    for (size_t p = 0; p < n_units; ++p) {
        const uint32_t unit = read_u32le(trie, 4 * p);
        if (p != 0 && unit_is_leaf(unit)) {
            if (unit_value(unit) >= replacements.size())
                return Error{where + "trie unit " + std::to_string(p) + " names a replacement past the end"};
            continue;
        }
        const size_t block = p ^ unit_offset(unit);
        if ((block | 0xFF) >= n_units)
            return Error{where + "trie unit " + std::to_string(p) + " leads outside the trie"};
        if (unit_has_leaf(unit) && unit_value(read_u32le(trie, 4 * block)) >= replacements.size())
            return Error{where + "trie unit " + std::to_string(p) + " names a replacement past the end"};
    }
    return ok_status();
}

Status check_precompiled_charsmaps(std::string_view serialized_model) {
    for (const auto& [spec_field, name] :
         {std::pair{kNormalizerSpec, "normalizer_spec"}, std::pair{kDenormalizerSpec, "denormalizer_spec"}}) {
        bool ok = true;
        const std::optional<std::string_view> spec = last_bytes_field(serialized_model, spec_field, ok);
        if (!ok) return Error{"not a protobuf message"};
        if (!spec) continue;
        const std::optional<std::string_view> charsmap = last_bytes_field(*spec, kPrecompiledCharsmap, ok);
        if (!ok) return Error{std::string(name) + ": not a protobuf message"};
        if (!charsmap) continue;
        if (auto st = check_precompiled_charsmap(*charsmap, name); !st) return st;
    }
    return ok_status();
}

}  // namespace attnlab
