// Session: the app's model, its stepper and the user's inputs, behind commands. It has no
// GL or ImGui in it, so its logic is tested headless. Panels read it as const and change it
// only through these commands; a failed command keeps the last good state and sets `error`.
#pragma once

#include "backward/backward_pass.h"
#include "model.h"
#include "stepper.h"

#include <optional>
#include <string>
#include <vector>

namespace attnlab::gui {

struct SequenceView {
    std::vector<std::string> labels;  // one per token: its vocabulary text, or its id
    std::vector<bool> unknown;        // true where the user's word became <unk>
    std::vector<std::string> pieces;  // what the user typed for each token; empty once the ids were edited by hand
};

// The shape of a random model the user asks for: a preset's sizes, which the user may change.
// Where the session's model came from: a file (opened, bundled, or saved since), a seeded random
// preset, or a training run (its step 0 or a snapshot).
enum class ModelOrigin { file, random, training };

struct RandomModelSpec {
    int d_model = 64, n_heads = 4, n_layers = 2, d_ff = 256;  // n_layers per stack
    uint64_t seed = 1;
    void use_preset(const std::string& preset);  // "tiny" | "base"
};

class Session {
public:
    // `first_version` continues the trace versions of a session this one replaces (see Stepper::create).
    static Result<Session> from_model(Model model, std::string model_name, std::string src_text, std::string tgt_text,
                                      uint64_t first_version = 1);
    // The model at `path` (ours, or a Hugging Face folder or its config.json), reading the given sentences where
    // it can (a sentence it cannot read starts empty). BackgroundOpen calls it on a worker thread.
    // `ids_text` is the ids a model without a vocabulary read ("1,5,9", see typed_ids_text): a model that also
    // reads ids keeps them when every id is within its vocabulary.
    static Result<Session> from_file(const std::string& path, const std::string& src_text, const std::string& tgt_text,
                                     uint64_t first_version, const std::string& ids_text = "");
    // A seeded random preset with the given vocabularies (or the built-in character vocabulary).
    static Result<Session> from_preset(const std::string& preset, uint64_t seed, std::optional<Vocab> src_vocab,
                                       std::optional<Vocab> tgt_vocab, std::string src_text);

    // The model as loaded (from its file, or the training run's newest snapshot; as saved after a
    // save): its vocabularies, tokenizer, config and weights. The live config and weights, after
    // switches and edits, are the stepper's; model_changes.h lists what differs.
    const Model& model() const { return model_; }
    ModelOrigin origin() const { return origin_; }
    // The model as the views show it: model() with the stepper's live config and weights (switches and edits).
    Model live_model() const;
    const Stepper& stepper() const { return *stepper_; }
    const std::string& model_name() const { return model_name_; }
    const std::string& error() const { return error_; }  // the last command's failure, or empty
    void clear_error() { error_.clear(); }
    uint64_t generation() const { return generation_; }  // bumps whenever anything may have changed
    // Bumps whenever another model replaces this one (open, new random, adopt); not on weight
    // edits, switches or snapshots. The training view uses it to see whether it still shows its run.
    uint64_t model_serial() const { return model_serial_; }

    const std::string& src_text() const { return src_text_; }
    const std::string& tgt_text() const { return tgt_text_; }
    SequenceView source() const;
    SequenceView target() const;
    // The ids of the sequence a model without a vocabulary reads (an encoder's source, else the prompt), as the
    // ids field writes them ("1,5,9"); empty for a model with a vocabulary, whose sentences are its texts.
    std::string typed_ids_text() const;

    // ---- commands: each returns false and sets error() on failure ----
    // For input a panel found malformed before any command: records `message` as the error.
    bool reject(const std::string& message) { return fail(message); }
    bool open_model_file(const std::string& path);  // ours, or a Hugging Face folder (or its config.json)
    void adopt_session(Session fresh);              // one built elsewhere (from_file on a worker) replaces this one
    bool save_model_file(const std::string& path);  // the live config and weights; they become the model as loaded
    bool new_random_model(const RandomModelSpec& spec);
    bool set_src_text(const std::string& text);
    bool set_tgt_text(const std::string& text);
    bool set_src_ids(std::vector<int> ids);
    bool set_tgt_ids(std::vector<int> ids);
    bool toggle_mask_cell(AttentionUse use, int row, int col);  // a cell of the mask that use of attention reads
    bool reset_mask(AttentionUse use);
    bool reset_all_masks();  // every mask as the ids make it, no cell flipped
    bool toggle_head(const AttentionSite& attention, int head);
    bool switch_all_heads_on();
    bool toggle_expert(const FfnSite& ffn, int expert);  // a mixture of experts' expert off, or back on
    bool set_weight(const std::string& name, int64_t flat_index, float value);
    // Switches that keep the weights' shapes, or add/drop what the switch needs: a tensor the
    // loaded model has comes back from it; others are seeded (learned positions get random
    // embeddings, final norms start as identity).
    bool set_config(const ModelConfig& config);
    // Undo: every weight the loaded model has, back to its value (a switch's own tensors stay);
    // the config the weights were loaded with (or trained with), its tensors back as loaded.
    bool restore_weights();
    bool restore_config();
    // A model from elsewhere (a training run at step 0) with its example sentence. When it has
    // the config and vocabularies of the current one, only the weights are swapped, so the
    // user's text, mask edits and switched-off heads stay; otherwise it replaces the model and
    // shows `src_text` → `tgt_text` (the user's sentence is kept if the new model can read it
    // without unknown words).
    bool adopt_model(Model model, std::string model_name, const std::string& src_text, const std::string& tgt_text);
    // New weights for the same model (a training snapshot, or step 0 to compare): the inputs,
    // mask edits, switched-off heads and switches stay, and every step that reads a changed
    // tensor re-runs. Tensors a switch needs beyond `weights` keep their current values.
    // `weights` become the model as loaded: the run's weights are not the user's edits.
    bool set_weights(const Weights& weights, std::string model_name);
    // Appends the most probable next target token, or, with `sample`, one drawn (seeded) from
    // softmax(logits / temperature) cut to the top_k most probable (0: all) and then to the
    // top_p nucleus (1: all), as core/sampling.h does it.
    bool generate_next(bool sample, float temperature, uint64_t seed, int top_k = 0, float top_p = 1.0f);
    bool translate();  // greedy decoding from <sos> to <eos>

    // Stepping, for the timeline. It holds the forward steps, then (when the loss can be taken) one backward
    // step per forward step the loss reaches, last first: cursors past stepper().size() are in the backward
    // half. run_to(stepper().size()) is the forward's end, as before.
    void step_forward();
    void step_back();
    void run_to(size_t cursor);
    size_t timeline_size() const { return stepper_->size() + backward_steps(); }
    size_t timeline_cursor() const { return stepper_->cursor() + backward_cursor_; }
    bool in_backward() const { return backward_cursor_ > 0; }

    // ---- the backward pass ----
    // The loss the backward half starts from: next-token for a model with a decoder; for an encoder-only model
    // (BERT), the cross-entropy of the token at position 1 (or 0), which the user changes to a masked position.
    const LossSpec& loss() const { return loss_; }
    bool set_loss(const LossSpec& loss);  // fails, keeping the loss, when it does not fit the model and inputs
    // Why the timeline has no backward half, or empty: no logits, or the loss does not fit the inputs (one token).
    const std::string& backward_unavailable() const { return backward_unavailable_; }
    // The backward steps the timeline holds; the forward step whose backward the k-th is.
    size_t backward_steps() const { return backward_unavailable_.empty() ? backward_plan_.size() : 0; }
    size_t backward_forward_index(size_t k) const { return backward_plan_.at(k); }
    // The pass so far (nullptr before the cursor enters the backward half).
    const BackwardPass* backward() const { return backward_ ? &*backward_ : nullptr; }
    // dL/d(a step's output), when the cursor is in the backward half and every backward step adding to it has
    // run: a TraceEntry whose versions never meet the forward trace's.
    const TraceEntry* gradient(const StepId& id) const;

private:
    Session(Model model, Stepper stepper, std::string model_name);
    bool fail(const std::string& message);
    bool done();
    // After anything that may change the forward pass: the backward plan and loss checked again, and the pass
    // re-run to the cursor it had (or none, when the loss no longer fits).
    void refresh_backward();
    // The pass at backward_cursor_, made anew when there is none.
    void run_backward();
    bool replace_model(Model model, std::string model_name);
    // A session of `model` showing the given sentences where it can read them.
    static Result<Session> with_texts(Model model, std::string model_name, const std::string& src_text,
                                      const std::string& tgt_text, uint64_t first_version,
                                      const std::string& ids_text);

    Model model_;
    std::optional<Stepper> stepper_;
    std::string model_name_;
    std::string src_text_, tgt_text_;
    std::vector<int> src_unknown_, tgt_unknown_;        // token indices that became <unk>
    std::vector<std::string> src_pieces_, tgt_pieces_;  // the typed text of each token, while the ids come from it
    std::string error_;
    uint64_t generation_ = 1;
    uint64_t model_serial_ = 1;
    ModelOrigin origin_ = ModelOrigin::file;
    LossSpec loss_;
    bool loss_chosen_ = false;           // set_loss ran: an encoder-only model's default loss no longer follows its ids
    std::vector<size_t> backward_plan_;  // BackwardPass::plan of the stepper
    std::string backward_unavailable_;
    size_t backward_cursor_ = 0;  // backward steps run; > 0 only with the forward at its end
    std::optional<BackwardPass> backward_;
    uint64_t next_gradient_version_ = uint64_t{1} << 62;  // above any forward version
};

}  // namespace attnlab::gui
