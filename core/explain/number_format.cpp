// Number formatting and row statistics for explanations.
#include "explain/number_format.h"

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

double row_norm(RowRef row) {
    double s = 0;
    for (Eigen::Index j = 0; j < row.size(); ++j) s += static_cast<double>(row(j)) * row(j);
    return std::sqrt(s);
}

double row_mean(RowRef row) {
    double s = 0;
    for (Eigen::Index j = 0; j < row.size(); ++j) s += row(j);
    return row.size() ? s / static_cast<double>(row.size()) : 0.0;
}

double row_std(RowRef row, double eps) {
    const double mean = row_mean(row);
    double s = 0;
    for (Eigen::Index j = 0; j < row.size(); ++j) s += (row(j) - mean) * (row(j) - mean);
    return std::sqrt((row.size() ? s / static_cast<double>(row.size()) : 0.0) + eps);
}

}  // namespace attnlab
