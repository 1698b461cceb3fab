// What differs from the model as loaded: read from the stepper's inputs, config and weights
// against Session::model(); each undone by the session command for its kind.
#include "model_changes.h"

#include <cmath>

namespace attnlab::gui {

namespace {

// Values are counted only while the edited tensors hold at most this many (a copy-on-write edit of
// GPT-2's 38 M-value embedding is one tensor, not worth a comparison every time the list is made).
constexpr int64_t kMaxCountedValues = int64_t{1} << 22;

// What cell (row, col) of `use`'s mask is before the user's flips: the key is not padding and,
// in the decoder's self-attention, not after the query (mask_steps.cpp builds the same).
bool allowed_by_ids(const ModelConfig& c, const ForwardInputs& in, AttentionUse use, int row, int col) {
    const std::vector<int>& keys = use == AttentionUse::decoder_self ? in.tgt_ids : in.src_ids;
    if (col < 0 || static_cast<size_t>(col) >= keys.size()) return true;
    const bool keep = keys[static_cast<size_t>(col)] != c.pad_id;
    return keep && (use != AttentionUse::decoder_self || col <= row);
}

int64_t flipped_mask_cells(const Session& s) {
    const ForwardInputs& in = s.stepper().inputs();
    int64_t n = 0;
    for (const auto& [use, cells] : in.mask_overrides)
        for (const auto& [cell, allowed] : cells)
            if (allowed != allowed_by_ids(s.stepper().config(), in, use, cell.first, cell.second)) ++n;
    return n;
}

int64_t differing_values(const Tensor& a, const Tensor& b) {
    int64_t n = 0;
    for (int64_t i = 0; i < a.numel(); ++i) {
        const float x = a.value_at(i), y = b.value_at(i);  // either may be BF16 (a loaded weight)
        if (x != y && !(std::isnan(x) && std::isnan(y))) ++n;
    }
    return n;
}

// Tensors of the loaded model that the stepper holds with its shape but not the same numbers: an
// edit replaced the shared tensor (copy-on-write), so equal pointers mean unedited.
ModelChange edited_weights(const Session& s) {
    ModelChange change{ChangeKind::weights};
    std::vector<std::pair<const Tensor*, const Tensor*>> edited;
    int64_t values = 0;
    for (const auto& [name, live] : s.stepper().weights().all()) {
        const std::shared_ptr<const Tensor> loaded = s.model().weights.shared(name);
        if (!loaded || loaded == live || loaded->shape != live->shape) continue;
        edited.emplace_back(live.get(), loaded.get());
        values += live->numel();
    }
    change.count = values <= kMaxCountedValues ? 0 : -1;
    for (const auto& [live, loaded] : edited) {
        const int64_t n = change.count < 0 ? 1 : differing_values(*live, *loaded);
        if (n == 0) continue;  // edited back to the loaded numbers
        ++change.tensors;
        if (change.count >= 0) change.count += n;
    }
    return change;
}

// Whether `a` and `b` differ in switch `which`.
bool differs(const ModelConfig& a, const ModelConfig& b, ConfigSwitch which) {
    switch (which) {
        case ConfigSwitch::layer_norm: return a.norm_first != b.norm_first;
        case ConfigSwitch::activation: return a.activation != b.activation;
        case ConfigSwitch::positional: return a.positional != b.positional;
        case ConfigSwitch::scale_embedding: return a.scale_embedding != b.scale_embedding;
        case ConfigSwitch::final_norm: return a.final_norm != b.final_norm;
        case ConfigSwitch::other: {
            ModelConfig same_switches = a;
            for (ConfigSwitch s : {ConfigSwitch::layer_norm, ConfigSwitch::activation, ConfigSwitch::positional,
                                   ConfigSwitch::scale_embedding, ConfigSwitch::final_norm})
                same_switches = with_switch_restored(same_switches, b, s);
            return !(same_switches == b);
        }
    }
    return false;
}

}  // namespace

ModelConfig with_switch_restored(const ModelConfig& live, const ModelConfig& loaded, ConfigSwitch which) {
    ModelConfig c = live;
    switch (which) {
        case ConfigSwitch::layer_norm: c.norm_first = loaded.norm_first; break;
        case ConfigSwitch::activation: c.activation = loaded.activation; break;
        case ConfigSwitch::positional: c.positional = loaded.positional; break;
        case ConfigSwitch::scale_embedding: c.scale_embedding = loaded.scale_embedding; break;
        case ConfigSwitch::final_norm: c.final_norm = loaded.final_norm; break;
        case ConfigSwitch::other: c = loaded; break;
    }
    return c;
}

std::vector<ModelChange> model_changes(const Session& session) {
    std::vector<ModelChange> out;
    int64_t heads = 0;
    for (const auto& [site, off] : session.stepper().inputs().ablated_heads) heads += static_cast<int64_t>(off.size());
    if (heads > 0) out.push_back({ChangeKind::heads_off, heads});
    if (const int64_t cells = flipped_mask_cells(session); cells > 0) out.push_back({ChangeKind::mask_cells, cells});
    if (const ModelChange w = edited_weights(session); w.tensors > 0) out.push_back(w);
    const ModelConfig &live = session.stepper().config(), &loaded = session.model().config;
    for (ConfigSwitch s : {ConfigSwitch::layer_norm, ConfigSwitch::activation, ConfigSwitch::positional,
                           ConfigSwitch::scale_embedding, ConfigSwitch::final_norm, ConfigSwitch::other})
        if (differs(live, loaded, s)) out.push_back({ChangeKind::config, 1, 0, s});
    return out;
}

bool undo_change(Session& session, const ModelChange& change) {
    switch (change.kind) {
        case ChangeKind::heads_off: return session.switch_all_heads_on();
        case ChangeKind::mask_cells: return session.reset_all_masks();
        case ChangeKind::weights: return session.restore_weights();
        case ChangeKind::config:
            if (change.which == ConfigSwitch::other) return session.restore_config();
            return session.set_config(
                with_switch_restored(session.stepper().config(), session.model().config, change.which));
    }
    return false;
}

bool undo_all_changes(Session& session) {
    return session.restore_config() && session.restore_weights() && session.reset_all_masks() &&
           session.switch_all_heads_on();
}

ReplaceQuestion replacing_model_question(const Session& session) {
    ReplaceQuestion q;
    bool changed = false;
    q.unsaved = session.origin() == ModelOrigin::training;
    for (const ModelChange& c : model_changes(session)) {
        changed = true;
        // A file keeps weights and switches; switched-off heads and flipped cells are the session's alone.
        if (c.kind == ChangeKind::weights || c.kind == ChangeKind::config) q.unsaved = true;
    }
    q.ask = changed || q.unsaved || session.origin() == ModelOrigin::file;
    return q;
}

}  // namespace attnlab::gui
