#include "resident_memory.h"

#include <algorithm>
#include <cstdio>

namespace attnlab::gui {

void MemoryTrend::sample(int frame, int64_t kib) {
    if (frame >= warmup_frames_) measured_.push_back({frame, kib});
}

int64_t MemoryTrend::warm_kib() const { return measured_.empty() ? 0 : measured_.front().kib; }
int64_t MemoryTrend::last_kib() const { return measured_.empty() ? 0 : measured_.back().kib; }

int64_t MemoryTrend::peak_kib() const {
    int64_t peak = 0;
    for (const Sample& s : measured_) peak = std::max(peak, s.kib);
    return peak;
}

double MemoryTrend::slope_kib_per_1000_frames() const {
    const double n = static_cast<double>(measured_.size());
    if (n < 2) return 0.0;
    double mean_f = 0, mean_m = 0;
    for (const Sample& s : measured_) mean_f += s.frame / n, mean_m += static_cast<double>(s.kib) / n;
    double cov = 0, var = 0;
    for (const Sample& s : measured_) {
        cov += (s.frame - mean_f) * (static_cast<double>(s.kib) - mean_m);
        var += (s.frame - mean_f) * (s.frame - mean_f);
    }
    return var > 0 ? 1000.0 * cov / var : 0.0;
}

bool MemoryTrend::flat(int64_t tolerance_kib) const {
    if (measured_.size() < 2) return false;  // nothing measured is not evidence of anything
    const double span_frames = measured_.back().frame - measured_.front().frame;
    const double fitted_rise = slope_kib_per_1000_frames() * span_frames / 1000.0;
    return last_kib() - warm_kib() <= tolerance_kib && fitted_rise <= static_cast<double>(tolerance_kib);
}

std::string MemoryTrend::json() const {
    char buf[200];
    std::snprintf(buf, sizeof buf,
                  "{\"warm_kib\": %lld, \"last_kib\": %lld, \"peak_kib\": %lld, \"slope_kib_per_1000_frames\": %.1f, ",
                  static_cast<long long>(warm_kib()), static_cast<long long>(last_kib()),
                  static_cast<long long>(peak_kib()), slope_kib_per_1000_frames());
    std::string out = std::string(buf) + "\"samples\": [";
    for (const Sample& s : measured_)
        out += (&s == measured_.data() ? "[" : ", [") + std::to_string(s.frame) + ", " + std::to_string(s.kib) + "]";
    return out + "]}";
}

}  // namespace attnlab::gui
