#include "ops/row_stats.h"

#include <cmath>

namespace attnlab {

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

double row_rms(RowRef row, double eps) {
    const double norm = row_norm(row);
    return std::sqrt((row.size() ? norm * norm / static_cast<double>(row.size()) : 0.0) + eps);
}

}  // namespace attnlab
