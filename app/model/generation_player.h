// Generation animated token by token: one token appended through the session per tick (1 / tokens per
// second of the clock it is given), until <eos>, the model's max_len or a limit of new tokens, with
// pause, resume and stop. No ImGui: the app advances it every frame with its clock, the Output view
// draws it, and a test drives it with a clock of its own.
#pragma once

#include "session.h"
#include "token_rate.h"

#include <vector>

namespace attnlab::gui {

// Why an animation is over: not yet; <eos> appended; the limit of new tokens; the model's max_len;
// stopped by the user; the target changed under it (an edit, another model); the session refused a token.
enum class GenerationEnd { none, eos, limit, max_len, stopped, interrupted, error };

// What each new token is drawn with (OutputViewState's choices, at the moment it is drawn).
struct GenerationChoice {
    bool sample = false;  // else the argmax
    float temperature = 1.0f;
    int top_k = 0;
    float top_p = 1.0f;
    float tokens_per_second = 1.5f;
};

class GenerationPlayer {
public:
    static constexpr int kDefaultLimit = 20;  // new tokens a run appends at most

    // Starts at `now`; the first token is appended one tick later. `from_sos`: the target is first
    // cleared to <sos> alone (an encoder-decoder model translates afresh, as Translate does); else the
    // run continues the target (a decoder-only model's prompt). False if the model does not generate,
    // or (with the session's error) the target cannot be cleared.
    bool start(Session& session, bool from_sos, double now, int limit = kDefaultLimit);
    void pause(double now);  // keeps how far into the tick it was
    void resume(double now);
    void stop();  // over where it is; the tokens appended stay

    // Appends the token due by `now`, if one is: at most one per call, and the next a whole tick after
    // it, so a late frame still shows every token. `seed` is the draw's seed when sampling; true when a
    // token was appended (the caller then moves its seed on).
    bool advance(Session& session, const GenerationChoice& choice, uint64_t seed, double now);

    bool playing() const { return state_ == State::playing; }
    bool paused() const { return state_ == State::paused; }
    bool active() const { return state_ != State::idle; }  // playing or paused
    GenerationEnd end() const { return end_; }
    int appended() const { return static_cast<int>(appended_); }
    int limit() const { return limit_; }
    // Whether the session's target is still the one this run made (so its highlights are true).
    bool owns_target(const Session& session) const;
    // Position in the target of the first token this run appended.
    size_t first_position() const { return start_size_; }
    // The newest token's age in ticks: 0 as it appears, 1 a tick later (its highlight fades meanwhile).
    float newest_age(double now, float tokens_per_second) const;
    // How fast this run's last few tokens were computed (each timed from the draw to its re-run trace).
    const TokenRate& rate() const { return rate_; }

private:
    enum class State { idle, playing, paused };
    void finish(GenerationEnd why) { state_ = State::idle, end_ = why; }

    State state_ = State::idle;
    GenerationEnd end_ = GenerationEnd::none;
    int limit_ = kDefaultLimit;
    size_t start_size_ = 0;      // the target's length when the run started
    size_t appended_ = 0;        // tokens appended since
    double last_tick_ = 0.0;     // when the run started or the newest token appeared
    double paused_after_ = 0.0;  // seconds into the tick when paused
    std::vector<int> made_;      // the target as this run left it
    TokenRate rate_;
};

}  // namespace attnlab::gui
