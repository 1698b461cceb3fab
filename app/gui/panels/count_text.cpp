// Singular or plural, then the UI's language.
#include "panels/count_text.h"

#include "i18n.h"

#include <cstdio>

namespace attnlab::gui {

std::string count_text(long long n, const char* one, const char* many, bool korean) {
    if (n == 1) return tr(korean, one);
    char text[160];
    std::snprintf(text, sizeof text, tr(korean, many), n);
    return text;
}

}  // namespace attnlab::gui
