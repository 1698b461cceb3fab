// A count in words with the noun's singular or plural: "1 cell edited", "3 cells edited" (Korean has one form,
// "칸 1개 수정됨", "칸 3개 수정됨"). `one` is the text for 1; `many` a format with one %lld for the rest.
#pragma once

#include <string>

namespace attnlab::gui {

std::string count_text(long long n, const char* one, const char* many, bool korean);

}  // namespace attnlab::gui
