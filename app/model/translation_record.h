// What Translate made, kept so the views can say so while the target is still that: the Input view's
// Target label reads "translated" (not "edited by hand"), and the Output view says why the decoding
// stopped (at </s>, or at the position limit without it). No ImGui: tested headless.
#pragma once

#include "session.h"

#include <cstdint>
#include <vector>

namespace attnlab::gui {

// How the target ends: with the model's end token; at the position limit (max_len) without it; or neither.
enum class TargetEnd { open, eos, length_limit };
TargetEnd target_end(const Session& session);

// Where the target's tokens came from: typed as text (each token has its typed piece), made by Translate
// (and unchanged since), or set as ids by hand (or by Generate).
enum class TargetOrigin { typed, translated, by_hand };

class TranslationRecord {
public:
    // session.translate(), remembering the target it left; false (with the session's error) if it failed.
    bool translate(Session& session);
    // Whether the session's target is still the one the last translation made, in the same model.
    bool owns_target(const Session& session) const;

private:
    std::vector<int> made_;  // the target ids as Translate left them (T,)
    uint64_t model_serial_ = 0;
};

TargetOrigin target_origin(const Session& session, const TranslationRecord& record);

}  // namespace attnlab::gui
