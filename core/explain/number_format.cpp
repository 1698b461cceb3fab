// Number formatting for explanations.
#include "explain/number_format.h"
#include "explain/step_values.h"

#include <cmath>
#include <cstdio>

namespace attnlab {

std::string format_number(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    const double a = std::abs(v);
    char buf[64];
    if (a > 0 && a < 0.0005) {  // two significant digits rather than "0.000": a tiny probability is not zero
        std::snprintf(buf, sizeof buf, "%.2g", v);
        return buf;
    }
    const int decimals = a < 9.9995 ? 3 : a < 99.995 ? 2 : a < 9999.95 ? 1 : 0;
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    if (std::string_view(buf).find_first_not_of("-0.") == std::string_view::npos)
        return buf[0] == '-' ? buf + 1 : buf;  // no "-0.000"
    return buf;
}

std::string format_operand(double v) { return v < 0 ? "(" + format_number(v) + ")" : format_number(v); }

std::string format_percent(double fraction) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", 100.0 * fraction);
    return buf;
}

std::string format_count(int64_t n) { return std::to_string(n); }

void add_numbers(const ExplainNumbers& numbers, StepValues& v) {
    for (const ExplainNumber& n : numbers) {
        switch (n.shown) {
            case ShownAs::measure: v.text[n.placeholder] = format_number(n.value); break;
            case ShownAs::whole: v.text[n.placeholder] = format_count(static_cast<int64_t>(n.value)); break;
            case ShownAs::percent: v.text[n.placeholder] = format_percent(n.value); break;
        }
    }
}

}  // namespace attnlab
