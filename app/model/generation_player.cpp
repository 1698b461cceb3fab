// The token-by-token generation's clock and end conditions; the tokens themselves come from
// Session::generate_next.
#include "generation_player.h"

#include <algorithm>
#include <chrono>

namespace attnlab::gui {

namespace {

double tick_seconds(float tokens_per_second) { return 1.0 / static_cast<double>(std::max(tokens_per_second, 0.05f)); }

}  // namespace

bool GenerationPlayer::start(Session& session, bool from_sos, double now, int limit) {
    const ModelConfig& c = session.stepper().config();
    if (!c.has_decoder()) return false;
    if (from_sos && !session.set_tgt_ids({c.sos_id})) return false;
    state_ = State::playing;
    end_ = GenerationEnd::none;
    limit_ = std::max(limit, 1);
    made_ = session.stepper().inputs().tgt_ids;
    start_size_ = made_.size();
    appended_ = 0;
    rate_.clear();
    last_tick_ = now;
    if (static_cast<int>(made_.size()) >= c.max_len) finish(GenerationEnd::max_len);
    return true;
}

void GenerationPlayer::pause(double now) {
    if (state_ != State::playing) return;
    paused_after_ = now - last_tick_;
    state_ = State::paused;
}

void GenerationPlayer::resume(double now) {
    if (state_ != State::paused) return;
    last_tick_ = now - paused_after_;
    state_ = State::playing;
}

void GenerationPlayer::stop() {
    if (active()) finish(GenerationEnd::stopped);
}

bool GenerationPlayer::owns_target(const Session& session) const {
    return !made_.empty() && session.stepper().inputs().tgt_ids == made_;
}

bool GenerationPlayer::advance(Session& session, const GenerationChoice& choice, uint64_t seed, double now) {
    if (state_ != State::playing) return false;
    if (!owns_target(session)) {
        finish(GenerationEnd::interrupted);
        return false;
    }
    if (now - last_tick_ < tick_seconds(choice.tokens_per_second)) return false;
    const auto t0 = std::chrono::steady_clock::now();
    if (!session.generate_next(choice.sample, choice.temperature, seed, choice.top_k, choice.top_p)) {
        finish(GenerationEnd::error);  // the session's error says why
        return false;
    }
    rate_.add(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    made_ = session.stepper().inputs().tgt_ids;
    ++appended_;
    last_tick_ = now;
    const ModelConfig& c = session.stepper().config();
    if (made_.back() == c.eos_id)
        finish(GenerationEnd::eos);
    else if (static_cast<int>(made_.size()) >= c.max_len)
        finish(GenerationEnd::max_len);
    else if (appended() >= limit_)
        finish(GenerationEnd::limit);
    return true;
}

float GenerationPlayer::newest_age(double now, float tokens_per_second) const {
    if (appended_ == 0) return 1.0f;
    const double since = state_ == State::paused ? paused_after_ : now - last_tick_;
    return static_cast<float>(std::clamp(since / tick_seconds(tokens_per_second), 0.0, 1.0));
}

}  // namespace attnlab::gui
