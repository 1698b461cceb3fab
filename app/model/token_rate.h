// How fast the model makes tokens while it generates: the seconds each of the last few appends took to
// compute (the whole traced re-run of the new token, not the animation's pace), as tokens per second.
#pragma once

#include <cstddef>
#include <deque>

namespace attnlab::gui {

class TokenRate {
public:
    static constexpr size_t kWindow = 8;  // tokens the rate is measured over

    void add(double seconds);  // one token's compute time
    void clear() { seconds_.clear(); }
    size_t count() const { return seconds_.size(); }  // tokens measured now, at most kWindow
    // count() / the sum of their seconds: 0 before the first token.
    double tokens_per_second() const;

private:
    std::deque<double> seconds_;  // oldest first
};

}  // namespace attnlab::gui
