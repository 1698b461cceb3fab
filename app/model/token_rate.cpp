// The generation's measured rate over its last kWindow tokens.
#include "token_rate.h"

#include <numeric>

namespace attnlab::gui {

void TokenRate::add(double seconds) {
    seconds_.push_back(seconds);
    if (seconds_.size() > kWindow) seconds_.pop_front();
}

double TokenRate::tokens_per_second() const {
    const double total = std::accumulate(seconds_.begin(), seconds_.end(), 0.0);
    return total > 0.0 ? static_cast<double>(seconds_.size()) / total : 0.0;
}

}  // namespace attnlab::gui
