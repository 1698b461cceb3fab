// How explanations show numbers: few decimals, ASCII signs, so a projector stays readable.
#pragma once

#include "ops/row_stats.h"

#include <cstdint>
#include <string>

namespace attnlab {

// 3 decimals below 10, 2 below 100, 1 below 10000, none above; two significant digits below
// 0.0005 (but 0 is "0.000"); "nan", "inf", "-inf".
std::string format_number(double v);
std::string format_operand(double v);         // a number after "+": negative ones in parentheses, "+ (-0.757)"
std::string format_percent(double fraction);  // 0.523 -> "52.3"
std::string format_count(int64_t n);

}  // namespace attnlab
