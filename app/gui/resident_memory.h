// Resident memory of this process (platform::resident_kib), sampled over a long headless run, and whether it grew.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab::gui {

class MemoryTrend {
public:
    // Samples before `warmup_frames` are warm-up: caches, font atlases and allocator pools fill.
    explicit MemoryTrend(int warmup_frames) : warmup_frames_(warmup_frames) {}
    void sample(int frame, int64_t kib);

    // After warm-up: the first and last samples, the peak, and the least-squares slope in KiB per 1000 frames.
    int64_t warm_kib() const;
    int64_t last_kib() const;
    int64_t peak_kib() const;
    double slope_kib_per_1000_frames() const;
    // Flat: neither the last sample nor the fitted line over the measured frames rises more than `tolerance_kib`.
    bool flat(int64_t tolerance_kib) const;
    // {"warm_kib": …, "last_kib": …, "peak_kib": …, "slope_kib_per_1000_frames": …, "samples": [[frame, kib], …]}
    std::string json() const;

private:
    struct Sample {
        int frame;
        int64_t kib;
    };
    std::vector<Sample> measured_;  // after warm-up
    int warmup_frames_;
};

}  // namespace attnlab::gui
