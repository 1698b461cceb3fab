#include "detector_sequence.h"

namespace attnlab::gui {

namespace {

const std::vector<int>& ids_of(const Session& session, bool source) {
    return source ? session.stepper().inputs().src_ids : session.stepper().inputs().tgt_ids;
}

bool set_ids(Session& session, bool source, const std::vector<int>& ids) {
    return source ? session.set_src_ids(ids) : session.set_tgt_ids(ids);
}

}  // namespace

bool DetectorSequence::open(Session& session, const std::vector<int>& ids) {
    if (!showing(session)) {
        Kept k;
        k.source = {ids_of(session, true), !session.source().pieces.empty(), session.src_text()};
        // A decoder-only model's prompt is its target (Session::set_src_text sets the target's text).
        k.target = {ids_of(session, false), !session.target().pieces.empty(), session.tgt_text()};
        k.mask_cells = session.stepper().inputs().mask_overrides;
        kept_ = std::move(k);
    }
    opened_ = ids;
    const ModelConfig& c = session.stepper().config();
    if (c.has_encoder() && !set_ids(session, true, ids)) return false;
    return !c.has_decoder() || set_ids(session, false, ids);
}

bool DetectorSequence::showing(const Session& session) const {
    if (!kept_) return false;
    const ModelConfig& c = session.stepper().config();
    return (!c.has_encoder() || ids_of(session, true) == opened_) &&
           (!c.has_decoder() || ids_of(session, false) == opened_);
}

bool DetectorSequence::restore(Session& session) {
    if (!kept_) return true;
    const Kept k = *kept_;
    const ModelConfig& c = session.stepper().config();
    for (const bool source : {true, false}) {
        if (source ? !c.has_encoder() : !c.has_decoder()) continue;
        const Side& side = source ? k.source : k.target;
        if (side.typed && !(source ? session.set_src_text(side.text) : session.set_tgt_text(side.text))) return false;
        if (ids_of(session, source) != side.ids && !set_ids(session, source, side.ids)) return false;
    }
    // The cells the detector's sequence cut off (past its length) come back; the others never left.
    for (const auto& [use, cells] : k.mask_cells) {
        for (const auto& [cell, allowed] : cells) {
            const Tensor* mask = session.stepper().output(StepId::mask_of(use));  // (N, M)
            if (!mask || cell.first >= mask->dim(0) || cell.second >= mask->dim(1)) continue;
            const bool now = mask->data[static_cast<size_t>(cell.first * mask->dim(1) + cell.second)] != 0.0f;
            if (now != allowed && !session.toggle_mask_cell(use, cell.first, cell.second)) return false;
        }
    }
    kept_.reset();
    opened_.clear();
    return true;
}

}  // namespace attnlab::gui
