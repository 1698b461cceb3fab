// The target's end and origin from the session's ids, and the record Translate leaves.
#include "translation_record.h"

namespace attnlab::gui {

TargetEnd target_end(const Session& session) {
    const std::vector<int>& ids = session.stepper().inputs().tgt_ids;
    const ModelConfig& c = session.stepper().config();
    if (!ids.empty() && ids.back() == c.eos_id) return TargetEnd::eos;
    return static_cast<int>(ids.size()) >= c.max_len ? TargetEnd::length_limit : TargetEnd::open;
}

bool TranslationRecord::translate(Session& session) {
    if (!session.translate()) return false;
    made_ = session.stepper().inputs().tgt_ids;
    model_serial_ = session.model_serial();
    return true;
}

bool TranslationRecord::owns_target(const Session& session) const {
    return !made_.empty() && model_serial_ == session.model_serial() && session.stepper().inputs().tgt_ids == made_;
}

TargetOrigin target_origin(const Session& session, const TranslationRecord& record) {
    if (record.owns_target(session)) return TargetOrigin::translated;
    return session.target().pieces.empty() ? TargetOrigin::by_hand : TargetOrigin::typed;
}

}  // namespace attnlab::gui
