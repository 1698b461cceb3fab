// Base64, the double-array walk (Darts-clone's commonPrefixSearch stopped at its first result) and the
// cluster-by-cluster replacement.
#include "text/precompiled_charsmap.h"

#include "text/grapheme.h"
#include "text/sentencepiece_charsmap.h"
#include "text/utf8.h"

#include <cstdint>

namespace attnlab {

namespace {

std::optional<std::string> decode_base64(std::string_view text) {
    std::string out;
    uint32_t bits = 0;
    int n_bits = 0;
    size_t padding = 0;
    for (char c : text) {
        int value = -1;
        if (c >= 'A' && c <= 'Z') value = c - 'A';
        if (c >= 'a' && c <= 'z') value = c - 'a' + 26;
        if (c >= '0' && c <= '9') value = c - '0' + 52;
        if (c == '+') value = 62;
        if (c == '/') value = 63;
        if (c == '=') {
            ++padding;
            continue;
        }
        if (value < 0 || padding > 0) return std::nullopt;  // a stray character, or data after '='
        bits = (bits << 6) | static_cast<uint32_t>(value);
        n_bits += 6;
        if (n_bits >= 8) {
            n_bits -= 8;
            out.push_back(static_cast<char>((bits >> n_bits) & 0xFF));
        }
    }
    if (padding > 2 || (text.size() % 4) != 0) return std::nullopt;
    return out;
}

}  // namespace

Result<PrecompiledCharsmap> PrecompiledCharsmap::from_base64(std::string_view base64, const std::string& field) {
    std::optional<std::string> blob = decode_base64(base64);
    if (!blob) return Error{field + ".precompiled_charsmap is not base64"};
    if (blob->empty()) return Error{field + ".precompiled_charsmap is empty"};
    if (Status s = check_precompiled_charsmap(*blob, field); !s) return s.error();
    size_t trie_bytes = 0;
    for (size_t i = 0; i < 4; ++i) trie_bytes |= static_cast<size_t>(static_cast<uint8_t>((*blob)[i])) << (8 * i);
    if (!is_valid_utf8(std::string_view(*blob).substr(4 + trie_bytes)))
        return Error{field + ".precompiled_charsmap: its replacement strings are not UTF-8"};
    return PrecompiledCharsmap(std::move(*blob), trie_bytes);
}

uint32_t PrecompiledCharsmap::unit(size_t index) const {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i)
        v |= static_cast<uint32_t>(static_cast<uint8_t>(blob_[4 + 4 * index + i])) << (8 * i);
    return v;
}

std::optional<std::string_view> PrecompiledCharsmap::transform(std::string_view chunk) const {
    // Unit fields as Darts-clone packs them; the checks of from_base64 keep every walk inside the trie.
    const auto offset = [](uint32_t u) { return (u >> 10) << ((u & (1U << 9)) >> 6); };
    const auto label = [](uint32_t u) { return u & ((1U << 31) | 0xFF); };
    const auto has_leaf = [](uint32_t u) { return ((u >> 8) & 1) != 0; };
    size_t node = offset(unit(0));
    for (char ch : chunk) {
        const auto c = static_cast<uint8_t>(ch);
        if (c == 0) break;
        node ^= c;
        const uint32_t u = unit(node);
        if (label(u) != c) break;
        node ^= offset(u);
        if (!has_leaf(u)) continue;
        const std::string_view replacements = std::string_view(blob_).substr(4 + trie_bytes_);
        const size_t begin = unit(node) & ((1U << 31) - 1);
        const size_t end = replacements.find('\0', begin);
        const std::string_view out = replacements.substr(begin, end - begin);
        if (!is_valid_utf8(out)) return std::nullopt;  // starts inside a character: the library would stop
        return out;
    }
    return std::nullopt;
}

NormalizedText precompiled_normalize(const NormalizedText& in, const PrecompiledCharsmap& charsmap) {
    NormalizedText out;
    const auto emit = [&](TextSpan span, std::optional<std::string_view> replacement) {
        if (!replacement) {
            out.text.append(in.text, span.begin, span.end - span.begin);
            out.source.insert(out.source.end(), in.source.begin() + static_cast<ptrdiff_t>(span.begin),
                              in.source.begin() + static_cast<ptrdiff_t>(span.end));
            return;
        }
        out.text += *replacement;
        out.source.insert(out.source.end(), replacement->size(), in.source_of(span));
    };
    const std::string_view text = in.text;
    for (const TextSpan& cluster : grapheme_clusters(text)) {
        if (cluster.end - cluster.begin < 6) {
            if (const auto whole = charsmap.transform(text.substr(cluster.begin, cluster.end - cluster.begin))) {
                emit(cluster, whole);
                continue;
            }
        }
        for (size_t i = cluster.begin; i < cluster.end;) {
            const size_t begin = i;
            next_code_point(text, &i);
            emit({begin, i}, charsmap.transform(text.substr(begin, i - begin)));
        }
    }
    return out;
}

}  // namespace attnlab
