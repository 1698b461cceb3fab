// Numbers of the mask steps: how many tokens are padding, how many cells are blocked.
#include "explain/number_format.h"
#include "explain/step_values.h"

#include <algorithm>

namespace attnlab {

namespace {

constexpr int64_t kShownKeeps = 16;  // a longer keep vector is cut with "…"

void padding_values(const Tensor& keep, StepValues& v) {  // keep (N,)
    const int64_t n = keep.numel();
    std::string shown;
    for (int64_t j = 0; j < std::min(n, kShownKeeps); ++j)
        shown += (j ? " " : "") + std::string(keep.data[j] != 0.0f ? "1" : "0");
    if (n > kShownKeeps) shown += " …";
    v.text["n"] = format_count(n);
    v.text["n_pad"] = format_count(std::count(keep.data.begin(), keep.data.end(), 0.0f));
    v.text["keep"] = shown;
}

void matrix_values(const StepSite& s, const Tensor& m, StepValues& v) {  // m (Tq, Tk): 1 may attend, 0 blocked
    const int64_t rows = m.dim(0), cols = m.dim(1), cells = m.numel();
    const int64_t blocked = std::count(m.data.begin(), m.data.end(), 0.0f);
    const int64_t r = s.row(rows);
    const auto row = m.row(r);
    v.text["rows"] = format_count(rows);
    v.text["cols"] = format_count(cols);
    v.text["cells"] = format_count(cells);
    v.text["blocked"] = format_count(blocked);
    v.text["pct"] = format_percent(cells ? static_cast<double>(blocked) / static_cast<double>(cells) : 0.0);
    v.text["row"] = std::to_string(r);
    v.text["token"] = s.row_label(r);
    v.text["row_allowed"] = format_count(std::count_if(row.begin(), row.end(), [](float x) { return x != 0.0f; }));
}

}  // namespace

void add_mask_values(const StepSite& s, StepValues& v) {
    const Tensor& m = *s.output();
    if (s.id().kind == StepKind::padding_mask)
        padding_values(m, v);  // (N,)
    else
        matrix_values(s, m, v);  // look-ahead (T, T), attention masks (N, M)
}

}  // namespace attnlab
