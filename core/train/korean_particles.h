// Korean particles whose form depends on whether the word before them ends in a final consonant
// (받침). For a Hangul syllable cp in U+AC00..U+D7A3:  batchim  <=>  (cp - 0xAC00) % 28 != 0.
#pragma once

#include <string>
#include <string_view>

namespace attnlab {

// Asserts that `word` ends in a Hangul syllable.
bool has_final_consonant(std::string_view word);

std::string topic_particle(std::string_view word);   // 은 after a final consonant, else 는
std::string object_particle(std::string_view word);  // 을 / 를
std::string with_particle(std::string_view word);    // 과 / 와  ("and, together with")

}  // namespace attnlab
