// What the session runs that differs from the model as loaded (its file, or the training run's
// newest snapshot): heads switched off, mask cells flipped, weights edited, switches. A typed list
// computed from the Session, each item undone by one session command; and whether starting a
// training run, which replaces the model, should ask first.
#pragma once

#include "session.h"

#include <cstdint>
#include <vector>

namespace attnlab::gui {

enum class ChangeKind { heads_off, mask_cells, weights, config };
// The Model view's switches; `other` is any other config field (none of the app's switches sets one).
enum class ConfigSwitch { layer_norm, activation, positional, scale_embedding, final_norm, other };

struct ModelChange {
    ChangeKind kind = ChangeKind::heads_off;
    // heads_off: heads switched off; mask_cells: cells whose value differs from the mask the ids make;
    // weights: values that differ from the loaded ones (-1: not counted, the edited tensors are too big);
    // config: 1.
    int64_t count = 0;
    int tensors = 0;                           // weights: tensors holding an edit
    ConfigSwitch which = ConfigSwitch::other;  // config: the switch
    bool operator==(const ModelChange&) const = default;
};

// In a fixed order: heads, mask cells, weights, then each switch that differs. Empty for a model
// as it was loaded.
std::vector<ModelChange> model_changes(const Session& session);

// Undoes one listed change by a session command: every head back on, every mask reset, the loaded
// weights back, or that one switch (`other`: the whole config) as loaded. False and the session's
// error on failure.
bool undo_change(Session& session, const ModelChange& change);

// Every change undone: the config and weights as loaded, every mask reset, every head on.
bool undo_all_changes(Session& session);

// `live` with switch `which` set as in `loaded` (`other`: all of `loaded`).
ModelConfig with_switch_restored(const ModelConfig& live, const ModelConfig& loaded, ConfigSwitch which);

// Starting a training run replaces the session's model. It asks first when the model was opened
// from a file, or was trained, or has changes; `unsaved` says that saving first would keep
// something (edited weights, switches, or a trained model), so the question offers it.
struct ReplaceQuestion {
    bool ask = false;
    bool unsaved = false;
};
ReplaceQuestion replacing_model_question(const Session& session);

}  // namespace attnlab::gui
