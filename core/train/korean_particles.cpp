// Picks 은/는, 을/를, 과/와 from the last Hangul syllable of the word before the particle.
#include "train/korean_particles.h"

#include <cassert>
#include <cstdint>

namespace attnlab {
namespace {

constexpr char32_t kFirstSyllable = 0xAC00;  // 가
constexpr char32_t kLastSyllable = 0xD7A3;   // 힣
constexpr char32_t kFinalsPerVowel = 28;     // 27 final consonants + none

// The last code point of valid UTF-8 text (Hangul syllables are three bytes: 1110xxxx 10xxxxxx 10xxxxxx).
char32_t last_code_point(std::string_view text) {
    assert(!text.empty());
    size_t start = text.size() - 1;
    while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
    const auto lead = static_cast<unsigned char>(text[start]);
    const size_t n = text.size() - start;
    char32_t cp = 0;
    if (n == 1) return lead;
    if (n == 2) cp = lead & 0x1F;
    if (n == 3) cp = lead & 0x0F;
    if (n == 4) cp = lead & 0x07;
    for (size_t i = start + 1; i < text.size(); ++i) cp = (cp << 6) | (static_cast<unsigned char>(text[i]) & 0x3F);
    return cp;
}

}  // namespace

bool has_final_consonant(std::string_view word) {
    const char32_t cp = last_code_point(word);
    assert(cp >= kFirstSyllable && cp <= kLastSyllable && "word must end in a Hangul syllable");
    return (cp - kFirstSyllable) % kFinalsPerVowel != 0;
}

std::string topic_particle(std::string_view word) { return has_final_consonant(word) ? "은" : "는"; }
std::string object_particle(std::string_view word) { return has_final_consonant(word) ? "을" : "를"; }
std::string with_particle(std::string_view word) { return has_final_consonant(word) ? "과" : "와"; }

}  // namespace attnlab
