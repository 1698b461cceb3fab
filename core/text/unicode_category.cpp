// Binary search over the generated runs of general-category classes.
#include "text/unicode_category.h"

#include "text/unicode_category_table.h"

#include <algorithm>
#include <iterator>

namespace attnlab {

CharCategory char_category(char32_t c) {
    using unicode_tables::CategoryRun;
    using unicode_tables::kCategoryRuns;
    if (c > 0x10FFFF) return CharCategory::other;
    // The last run whose first code point is <= c; the first run starts at U+0000.
    const CategoryRun* after = std::upper_bound(std::begin(kCategoryRuns), std::end(kCategoryRuns), c,
                                                [](char32_t x, const CategoryRun& run) { return x < run.first; });
    return std::prev(after)->category;
}

bool is_white_space(char32_t c) {
    return (c >= 0x09 && c <= 0x0D) || c == 0x85 || char_category(c) == CharCategory::separator;
}

}  // namespace attnlab
