// Lookups in the generated normalization tables, and the Hangul syllable arithmetic of
// Unicode section 3.12 (Conjoining Jamo Behavior).
#include "text/unicode_normalization.h"

#include "text/unicode_normalization_table.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace attnlab {

namespace {

// A syllable is S = 0xAC00 + (L * 21 + V) * 28 + T, with jamo L = 0x1100 + L, V = 0x1161 + V,
// and T = 0x11A7 + T when T > 0.
constexpr char32_t kSyllableFirst = 0xAC00, kLeadFirst = 0x1100, kVowelFirst = 0x1161, kTrailBase = 0x11A7;
constexpr char32_t kLeadCount = 19, kVowelCount = 21, kTrailCount = 28;
constexpr char32_t kSyllableCount = kLeadCount * kVowelCount * kTrailCount;

void append_hangul_jamo(char32_t syllable, std::u32string& out) {
    const char32_t index = syllable - kSyllableFirst;
    out += kLeadFirst + index / (kVowelCount * kTrailCount);
    out += kVowelFirst + index % (kVowelCount * kTrailCount) / kTrailCount;
    if (index % kTrailCount != 0) out += kTrailBase + index % kTrailCount;
}

// The last entry of a table sorted by `first` whose first is <= c, or nullptr.
template <class Entry, size_t N, class First>
const Entry* last_starting_at_or_before(const Entry (&table)[N], char32_t c, First first) {
    const Entry* after = std::upper_bound(std::begin(table), std::end(table), c,
                                          [&](char32_t x, const Entry& e) { return x < first(e); });
    return after == std::begin(table) ? nullptr : std::prev(after);
}

}  // namespace

void append_canonical_decomposition(char32_t c, std::u32string& out) {
    if (c >= kSyllableFirst && c < kSyllableFirst + kSyllableCount) {
        append_hangul_jamo(c, out);
        return;
    }
    const auto* d = last_starting_at_or_before(unicode_tables::kDecompositions, c,
                                               [](const unicode_tables::Decomposition& e) { return e.code_point; });
    if (d == nullptr || d->code_point != c) {
        out += c;
        return;
    }
    for (char32_t part : d->nfd) {
        if (part == 0) break;
        out += part;
    }
}

std::optional<char32_t> canonical_composition(char32_t first, char32_t second) {
    if (first >= kLeadFirst && first < kLeadFirst + kLeadCount && second >= kVowelFirst &&
        second < kVowelFirst + kVowelCount) {
        return kSyllableFirst + ((first - kLeadFirst) * kVowelCount + second - kVowelFirst) * kTrailCount;  // L + V
    }
    if (first >= kSyllableFirst && first < kSyllableFirst + kSyllableCount &&
        (first - kSyllableFirst) % kTrailCount == 0 && second > kTrailBase && second < kTrailBase + kTrailCount) {
        return first + (second - kTrailBase);  // LV + T
    }
    const auto& table = unicode_tables::kCompositions;
    const auto* it = std::lower_bound(std::begin(table), std::end(table), std::pair{first, second},
                                      [](const unicode_tables::Composition& e, std::pair<char32_t, char32_t> key) {
                                          return std::pair{e.first, e.second} < key;
                                      });
    if (it == std::end(table) || it->first != first || it->second != second) return std::nullopt;
    return it->composite;
}

uint8_t canonical_combining_class(char32_t c) {
    const auto* run = last_starting_at_or_before(unicode_tables::kCombiningClassRuns, c,
                                                 [](const unicode_tables::CombiningClassRun& e) { return e.first; });
    return run != nullptr && c <= run->last ? run->combining_class : 0;
}

void append_lowercase(char32_t c, std::u32string& out) {
    for (const auto& e : unicode_tables::kLowercaseExpansions) {
        if (e.code_point == c) {
            out.append(e.lower.begin(), e.lower.end());
            return;
        }
    }
    const auto* run = last_starting_at_or_before(unicode_tables::kLowercaseRuns, c,
                                                 [](const unicode_tables::LowercaseRun& e) { return e.first; });
    const bool mapped = run != nullptr && c <= run->last && (c - run->first) % run->stride == 0;
    out += mapped ? static_cast<char32_t>(static_cast<int32_t>(c) + run->delta) : c;
}

}  // namespace attnlab
