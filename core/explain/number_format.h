// How explanations show numbers: few decimals, ASCII signs, so a projector stays readable.
#pragma once

#include "tensor.h"

#include <cstdint>
#include <string>

namespace attnlab {

// 3 decimals below 10, 2 below 100, 1 below 10000, none above; two significant digits below
// 0.0005 (but 0 is "0.000"); "nan", "inf", "-inf".
std::string format_number(double v);
std::string format_operand(double v);         // a number after "+": negative ones in parentheses, "+ (-0.757)"
std::string format_percent(double fraction);  // 0.523 -> "52.3"
std::string format_count(int64_t n);

// A row of any row-major matrix view: Tensor::row(r), or slice(h).row(r) of an (H, N, X) tensor.
using RowRef = Eigen::Ref<const RowVec>;

// Row statistics, in double.
double row_norm(RowRef row);  // ‖x‖₂
double row_mean(RowRef row);
double row_std(RowRef row, double eps = 0);  // √(biased variance + eps)

}  // namespace attnlab
