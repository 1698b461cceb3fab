// "Open this head on that sequence": the head detectors' ids put in the session's input, and the user's own input
// kept, to come back to. The session keeps its texts while ids replace its tokens (the Input view then says "tokens
// edited by hand" over the user's sentence, and the next edit of it applies that sentence again); this keeps the
// rest: the ids of a model without a vocabulary, a translated or hand-edited target, and mask cells the detector's
// sequence cut off.
#pragma once

#include "session.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace attnlab::gui {

class DetectorSequence {
public:
    // Makes `ids` the input of every side the model reads (an encoder-decoder's source and target both), first
    // keeping the user's input, unless the session still shows a sequence opened here (whose user's input is kept).
    // False and the session's error when the session refuses the ids.
    bool open(Session& session, const std::vector<int>& ids);
    // Whether the session reads the sequence opened here: an edit of the input since (the user's own) ends it.
    bool showing(const Session& session) const;
    // The user's input back: a typed sentence by its text (its tokens as typed), other ids as they were, then the
    // mask cells flipped then. False and the session's error when the model cannot read it (another model).
    bool restore(Session& session);

private:
    struct Side {
        std::vector<int> ids;
        bool typed = false;  // the ids came from the text
        std::string text;
    };
    struct Kept {
        Side source, target;
        std::map<AttentionUse, std::map<std::pair<int, int>, bool>> mask_cells;
    };
    std::optional<Kept> kept_;
    std::vector<int> opened_;
};

}  // namespace attnlab::gui
