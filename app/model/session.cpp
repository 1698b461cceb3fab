// Session commands: each validates, applies to the stepper (which re-runs what it affects),
// or leaves everything as it was and records a one-line error.
#include "session.h"

#include "input_drafts.h"

#include "decode.h"
#include "forward/mechanisms/soft_cap.h"
#include "forward/step_path.h"
#include "hf/open_model.h"
#include "io/model_file.h"
#include "sampling.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace attnlab::gui {

namespace {

// One token per side until text arrives: <eos> / <sos>, or id 0 for a model without them (BERT).
ForwardInputs default_inputs(const ModelConfig& c) {
    ForwardInputs in;
    if (c.has_encoder()) in.src_ids = {std::max(c.eos_id, 0)};
    if (c.has_decoder()) in.tgt_ids = {std::max(c.sos_id, 0)};
    return in;
}

SequenceView sequence_view(const std::vector<int>& ids, const std::optional<Vocab>& vocab,
                           const std::vector<int>& unknown, const std::vector<std::string>& pieces) {
    SequenceView v;
    if (pieces.size() == ids.size()) v.pieces = pieces;
    for (int id : ids)
        v.labels.push_back(vocab && id >= 0 && id < vocab->size() ? vocab->token(id) : std::to_string(id));
    v.unknown.assign(ids.size(), false);
    for (int u : unknown)
        if (u >= 0 && static_cast<size_t>(u) < ids.size()) v.unknown[static_cast<size_t>(u)] = true;
    return v;
}

}  // namespace

Session::Session(Model model, Stepper stepper, std::string model_name)
    : model_(std::move(model)), stepper_(std::move(stepper)), model_name_(std::move(model_name)) {
    refresh_backward();
}

Result<Session> Session::from_model(Model model, std::string model_name, std::string src_text, std::string tgt_text,
                                    uint64_t first_version) {
    auto stepper = Stepper::create(model.config, model.weights, default_inputs(model.config), first_version);
    if (!stepper) return stepper.error();
    Session s(std::move(model), std::move(*stepper), std::move(model_name));
    s.stepper_->run_all();
    // Even empty text, so that the starting ids (<eos>, <sos>) count as coming from the text; a model whose
    // empty text has no ids (GPT-2 has no <sos>) keeps its starting id instead.
    const ModelConfig& c = s.model_.config;
    const bool src_side = c.has_encoder() ? s.model_.src_vocab.has_value() : s.model_.tgt_vocab.has_value();
    // A model without a vocabulary reads its text as token ids ("1 14 9"), as the Input view does.
    if (const auto ids = src_side ? std::optional<std::vector<int>>() : parse_ids(src_text); ids && !ids->empty()) {
        if (!(c.has_encoder() ? s.set_src_ids(*ids) : s.set_tgt_ids(*ids))) return Error{s.error()};
        src_text.clear();
    }
    if ((src_side || !src_text.empty()) && !s.set_src_text(src_text) && !src_text.empty()) return Error{s.error()};
    const bool tgt_side = c.arch == Arch::encoder_decoder && s.model_.tgt_vocab;
    if ((tgt_side || !tgt_text.empty()) && !s.set_tgt_text(tgt_text)) return Error{s.error()};
    return s;
}

Result<Session> Session::from_preset(const std::string& preset, uint64_t seed, std::optional<Vocab> src_vocab,
                                     std::optional<Vocab> tgt_vocab, std::string src_text) {
    auto model = make_random_model(preset, seed, std::move(src_vocab), std::move(tgt_vocab), TokenizerKind::word);
    if (!model) return model.error();
    auto s = from_model(std::move(*model), "random " + preset + " (seed " + std::to_string(seed) + ")",
                        std::move(src_text), "");
    if (s) s->origin_ = ModelOrigin::random;
    return s;
}

bool Session::fail(const std::string& message) {
    error_ = message;
    ++generation_;
    return false;
}

bool Session::done() {
    error_.clear();
    ++generation_;
    refresh_backward();
    return true;
}

void Session::refresh_backward() {
    const ModelConfig& c = stepper_->config();
    // An encoder's default, a token to predict, follows the ids until a loss is chosen (or one it cannot take is).
    if (!c.has_decoder() && (!loss_chosen_ || loss_.kind == LossKind::next_token)) {
        const auto& ids = stepper_->inputs().src_ids;
        loss_.kind = LossKind::token;
        loss_.position = ids.size() > 1 ? 1 : 0;
        loss_.token = ids.empty() ? 0 : ids[static_cast<size_t>(loss_.position)];
    }
    backward_plan_ = BackwardPass::plan(*stepper_);
    const Status fits = BackwardPass::check(*stepper_, loss_);
    backward_unavailable_ = fits ? "" : fits.error().message;
    backward_.reset();
    if (!backward_unavailable_.empty() || stepper_->cursor() < stepper_->size()) backward_cursor_ = 0;
    if (backward_cursor_ > 0) run_backward();
}

void Session::run_backward() {
    if (!backward_) {
        auto pass = BackwardPass::create(*stepper_, loss_, next_gradient_version_);
        if (!pass) {  // checked already: only a forward pass not at its end gets here
            backward_unavailable_ = pass.error().message;
            backward_cursor_ = 0;
            return;
        }
        backward_ = std::move(*pass);
    }
    backward_->run_to(*stepper_, backward_cursor_);
    next_gradient_version_ = backward_->next_version();
}

bool Session::set_loss(const LossSpec& loss) {
    if (auto st = BackwardPass::check(*stepper_, loss); !st) return fail(st.error().message);
    loss_ = loss;
    loss_chosen_ = true;
    return done();
}

const TraceEntry* Session::gradient(const StepId& id) const {
    if (!backward_ || backward_cursor_ == 0) return nullptr;
    const auto i = stepper_->find(id);
    return i ? backward_->gradient(*i) : nullptr;
}

SequenceView Session::source() const {
    return sequence_view(stepper_->inputs().src_ids, model_.src_vocab, src_unknown_, src_pieces_);
}

SequenceView Session::target() const {
    return sequence_view(stepper_->inputs().tgt_ids, model_.tgt_vocab, tgt_unknown_, tgt_pieces_);
}

std::string Session::typed_ids_text() const {
    const bool source = model_.config.has_encoder();
    if (source ? model_.src_vocab.has_value() : model_.tgt_vocab.has_value()) return "";
    return join_ids(source ? stepper_->inputs().src_ids : stepper_->inputs().tgt_ids);
}

Result<Session> Session::with_texts(Model model, std::string model_name, const std::string& src_text,
                                    const std::string& tgt_text, uint64_t first_version, const std::string& ids_text) {
    // Keep the user's sentence when the new model can read it; otherwise start empty. The sentence is the
    // source beside an encoder, and a decoder-only model's prompt, which it keeps as its target text (src_text
    // empty). It is read first, as the new model's first input: GPT-2 has no <sos> to stand alone, so it cannot
    // start empty.
    // A model without a vocabulary reads the ids the last one read, when there were such ids.
    const bool reads_ids = !(model.config.has_encoder() ? model.src_vocab : model.tgt_vocab);
    const std::string& sentence = reads_ids && !ids_text.empty() ? ids_text : src_text.empty() ? tgt_text : src_text;
    auto fresh = from_model(model, model_name, sentence, "", first_version);
    if (!fresh) fresh = from_model(std::move(model), std::move(model_name), "", "", first_version);
    if (!fresh) return fresh.error();
    // A decoder-only model read the sentence as its prompt; a target is a second sequence only beside an
    // encoder, and only when the sentence was a source.
    const bool separate_target = fresh->model_.config.arch == Arch::encoder_decoder && !src_text.empty();
    if (separate_target && !tgt_text.empty() && !fresh->set_tgt_text(tgt_text)) fresh->tgt_text_.clear();
    fresh->done();
    return fresh;
}

Result<Session> Session::from_file(const std::string& path, const std::string& src_text, const std::string& tgt_text,
                                   uint64_t first_version, const std::string& ids_text) {
    auto loaded = open_model(path);
    if (!loaded) return loaded.error();
    auto fresh = with_texts(std::move(loaded->model), path, src_text, tgt_text, first_version, ids_text);
    if (fresh) fresh->origin_ = ModelOrigin::file;
    return fresh;
}

void Session::adopt_session(Session fresh) {
    const uint64_t serial = model_serial_ + 1;
    *this = std::move(fresh);
    model_serial_ = serial;
    done();
}

bool Session::replace_model(Model model, std::string model_name) {
    auto fresh = with_texts(std::move(model), std::move(model_name), src_text_, tgt_text_, stepper_->next_version(),
                            typed_ids_text());
    if (!fresh) return fail(fresh.error().message);
    adopt_session(std::move(*fresh));
    return true;
}

bool Session::open_model_file(const std::string& path) {
    auto fresh = from_file(path, src_text_, tgt_text_, stepper_->next_version(), typed_ids_text());
    if (!fresh) return fail(fresh.error().message);
    adopt_session(std::move(*fresh));
    return true;
}

Model Session::live_model() const {
    Model m = model_;
    m.config = stepper_->config();
    m.weights = stepper_->weights();
    return m;
}

bool Session::save_model_file(const std::string& path) {
    Model m = live_model();
    if (auto st = io::write_model(path, m); !st) return fail(st.error().message);
    model_ = std::move(m);  // the file now holds the switches and edits: they no longer differ from it
    model_name_ = path;
    origin_ = ModelOrigin::file;
    return done();
}

void RandomModelSpec::use_preset(const std::string& preset) {
    if (auto c = preset_config(preset, 4, 4)) {  // the four special tokens: the smallest valid vocabulary
        d_model = c->d_model, n_heads = c->n_heads, n_layers = c->n_encoder_layers, d_ff = c->d_ff;
    }
}

bool Session::new_random_model(const RandomModelSpec& spec) {
    // An encoder-decoder over this model's vocabularies; a model with one side lends it to both.
    const std::optional<Vocab>& src = model_.src_vocab ? model_.src_vocab : model_.tgt_vocab;
    const std::optional<Vocab>& tgt = model_.tgt_vocab ? model_.tgt_vocab : model_.src_vocab;
    auto model = make_random_model("tiny", spec.seed, src, tgt, model_.tokenizer);
    if (!model) return fail(model.error().message);
    ModelConfig& c = model->config;
    c.d_model = spec.d_model, c.n_heads = spec.n_heads, c.d_ff = spec.d_ff;
    c.n_encoder_layers = c.n_decoder_layers = spec.n_layers;
    if (auto st = validate_config(c); !st) return fail(st.error().message);
    model->weights = init_weights(c, spec.seed);
    char name[96];
    std::snprintf(name, sizeof name, "random C=%d H=%d L=%d F=%d (seed %llu)", spec.d_model, spec.n_heads,
                  spec.n_layers, spec.d_ff, static_cast<unsigned long long>(spec.seed));
    if (!replace_model(std::move(*model), name)) return false;
    origin_ = ModelOrigin::random;
    return true;
}

bool Session::set_src_text(const std::string& text) {
    const bool decoder_only = model_.config.arch == Arch::decoder_only;
    if (decoder_only) return set_tgt_text(text);
    auto t = encode_source_text(model_, text);
    if (!t) return fail(t.error().message);
    if (auto st = stepper_->set_src_ids(t->ids); !st) return fail(st.error().message);
    src_text_ = text;
    src_unknown_ = t->unknown;
    src_pieces_ = t->pieces;
    return done();
}

bool Session::set_tgt_text(const std::string& text) {
    if (!model_.config.has_decoder()) return fail("this model has no decoder, so no target text");
    auto t = encode_target_text(model_, text);
    if (!t) return fail(t.error().message);
    if (auto st = stepper_->set_tgt_ids(t->ids); !st) return fail(st.error().message);
    tgt_text_ = text;
    tgt_unknown_ = t->unknown;
    tgt_pieces_ = t->pieces;
    return done();
}

bool Session::set_src_ids(std::vector<int> ids) {
    if (auto st = stepper_->set_src_ids(std::move(ids)); !st) return fail(st.error().message);
    src_unknown_.clear();
    src_pieces_.clear();
    return done();
}

bool Session::set_tgt_ids(std::vector<int> ids) {
    if (auto st = stepper_->set_tgt_ids(std::move(ids)); !st) return fail(st.error().message);
    tgt_unknown_.clear();
    tgt_pieces_.clear();
    return done();
}

bool Session::toggle_mask_cell(AttentionUse use, int row, int col) {
    const StepId id = StepId::mask_of(use);
    if (!stepper_->find(id)) return fail("this model has no " + step_path(id));
    const Tensor* mask = stepper_->output(id);  // (N, M)
    if (!mask) return fail("run the forward pass up to " + step_path(id) + " first");
    if (row < 0 || col < 0 || row >= mask->dim(0) || col >= mask->dim(1)) return fail("mask cell outside the matrix");
    const bool allowed = mask->data[static_cast<size_t>(row * mask->dim(1) + col)] != 0.0f;
    if (auto st = stepper_->set_mask_cell(use, row, col, !allowed); !st) return fail(st.error().message);
    return done();
}

bool Session::reset_mask(AttentionUse use) {
    stepper_->clear_mask_overrides(use);
    return done();
}

bool Session::reset_all_masks() {
    for (AttentionUse use : {AttentionUse::encoder_self, AttentionUse::decoder_self, AttentionUse::cross})
        stepper_->clear_mask_overrides(use);
    return done();
}

bool Session::toggle_head(const AttentionSite& attention, int head) {
    const auto& ablated = stepper_->inputs().ablated_heads;
    auto it = ablated.find(attention);
    const bool is_ablated = it != ablated.end() && it->second.count(head);
    if (auto st = stepper_->set_head_ablated(attention, head, !is_ablated); !st) return fail(st.error().message);
    return done();
}

bool Session::toggle_expert(const FfnSite& ffn, int expert) {
    const auto& ablated = stepper_->inputs().ablated_experts;
    auto it = ablated.find(ffn);
    const bool is_ablated = it != ablated.end() && it->second.count(expert);
    if (auto st = stepper_->set_expert_ablated(ffn, expert, !is_ablated); !st) return fail(st.error().message);
    return done();
}

bool Session::switch_all_heads_on() {
    const auto ablated = stepper_->inputs().ablated_heads;  // a copy: each command below edits it
    for (const auto& [site, heads] : ablated)
        for (int head : heads)
            if (auto st = stepper_->set_head_ablated(site, head, false); !st) return fail(st.error().message);
    return done();
}

bool Session::set_weight(const std::string& name, int64_t flat_index, float value) {
    if (!std::isfinite(value)) return fail("a weight must be a finite number");
    if (auto st = stepper_->set_weight_value(name, flat_index, value); !st) return fail(st.error().message);
    return done();
}

namespace {

// The seed of the tensors a switch adds and no weights have yet (learned positions, a final
// norm): fixed, so the same switch always brings the same values.
constexpr uint64_t kSwitchSeed = 12345;

bool same_vocab(const std::optional<Vocab>& a, const std::optional<Vocab>& b) {
    return a.has_value() == b.has_value() && (!a || a->tokens() == b->tokens());
}

// `weights` made to fit `config`: what it lacks is taken from `current`, then from `loaded` (or
// seeded when the shapes differ there too), what the config does not read is dropped. A switch
// fits the current weights to the new config; a snapshot fits new weights to the current config.
Weights fit_weights(const ModelConfig& config, Weights weights, const Weights& current,
                    const Weights* loaded = nullptr) {
    std::set<std::string> needed;
    std::optional<Weights> fresh;
    for (const auto& spec : parameter_specs(config)) {
        needed.insert(spec.name);
        const Tensor* have = weights.find(spec.name);
        if (have && have->shape == spec.shape) continue;
        const Tensor* old = current.find(spec.name);
        if (old && old->shape == spec.shape) {
            weights.set_shared(spec.name, current.shared(spec.name));
            continue;
        }
        const Tensor* as_loaded = loaded ? loaded->find(spec.name) : nullptr;
        if (as_loaded && as_loaded->shape == spec.shape) {
            weights.set_shared(spec.name, loaded->shared(spec.name));
            continue;
        }
        if (!fresh) fresh = init_weights(config, kSwitchSeed);
        weights.set_shared(spec.name, fresh->shared(spec.name));
    }
    std::vector<std::string> drop;
    for (const auto& [name, t] : weights.all())
        if (!needed.count(name) && name != "generator.bias") drop.push_back(name);
    for (const auto& name : drop) weights.erase(name);
    return weights;
}

}  // namespace

bool Session::set_config(const ModelConfig& config) {
    if (auto st = validate_config(config); !st) return fail(st.error().message);
    Weights fitted = fit_weights(config, stepper_->weights(), stepper_->weights(), &model_.weights);
    if (auto st = stepper_->set_model(config, std::move(fitted)); !st) return fail(st.error().message);
    return done();
}

bool Session::restore_weights() {
    Weights fitted = fit_weights(stepper_->config(), model_.weights, stepper_->weights());
    if (auto st = stepper_->set_model(stepper_->config(), std::move(fitted)); !st) return fail(st.error().message);
    return done();
}

bool Session::restore_config() {
    // A tensor the switches dropped comes back as loaded, not as the seeded one a later switch made.
    Weights fitted = fit_weights(model_.config, stepper_->weights(), model_.weights);
    if (auto st = stepper_->set_model(model_.config, std::move(fitted)); !st) return fail(st.error().message);
    return done();
}

bool Session::adopt_model(Model model, std::string model_name, const std::string& src_text,
                          const std::string& tgt_text) {
    const bool same_model = model.config == model_.config && model.config == stepper_->config() &&
                            same_vocab(model.src_vocab, model_.src_vocab) &&
                            same_vocab(model.tgt_vocab, model_.tgt_vocab) && model.tokenizer == model_.tokenizer;
    if (same_model) {
        if (auto st = stepper_->set_model(stepper_->config(), model.weights); !st) return fail(st.error().message);
        model_ = std::move(model);
        model_name_ = std::move(model_name);
        origin_ = ModelOrigin::training;
        ++model_serial_;
        return done();
    }
    // Keep the user's sentence if every word of it is in the new vocabulary.
    auto readable = [&](const std::string& text, bool source) {
        if (text.empty()) return false;
        auto t = source ? encode_source_text(model, text) : encode_target_text(model, text);
        return t && t->unknown.empty();
    };
    const bool keep = readable(src_text_, true) && (tgt_text_.empty() || readable(tgt_text_, false));
    const std::string src = keep ? src_text_ : src_text, tgt = keep ? tgt_text_ : tgt_text;
    auto fresh = from_model(std::move(model), std::move(model_name), "", "", stepper_->next_version());
    if (!fresh) return fail(fresh.error().message);
    const uint64_t serial = model_serial_ + 1;
    *this = std::move(*fresh);
    model_serial_ = serial;
    origin_ = ModelOrigin::training;
    if (!src.empty() && !set_src_text(src)) src_text_.clear();
    if (!tgt.empty() && model_.config.arch == Arch::encoder_decoder && !set_tgt_text(tgt)) tgt_text_.clear();
    return done();
}

bool Session::set_weights(const Weights& weights, std::string model_name) {
    Weights fitted = fit_weights(stepper_->config(), weights, stepper_->weights());
    if (auto st = stepper_->set_model(stepper_->config(), std::move(fitted)); !st) return fail(st.error().message);
    model_.weights = weights;  // the run's weights are the model now, not an edit of the user's
    model_name_ = std::move(model_name);
    ++generation_;  // not done(): a snapshot arriving must not wipe the error of the user's last command
    return true;
}

bool Session::generate_next(bool sample, float temperature, uint64_t seed, int top_k, float top_p) {
    if (!model_.config.has_decoder()) return fail("an encoder_only model does not generate");
    if (!std::isfinite(temperature) || temperature <= 0.0f) return fail("the temperature must be a positive number");
    if (static_cast<int>(stepper_->inputs().tgt_ids.size()) >= stepper_->config().max_len)
        return fail("the target already has max_len = " + std::to_string(stepper_->config().max_len) + " tokens");
    stepper_->run_all();
    // The last row alone: soft-capped logits are made on demand in a checkpoint trace, and all (T, V) of them would
    // be made again for each token.
    const StepId final_logits = final_logits_of(stepper_->config());
    const int64_t last = stepper_->run_facts(final_logits)->value.dim(0) - 1;
    const std::optional<Tensor> logits = stepper_->output_rows(final_logits, last, last + 1);  // (1, V)
    int next = greedy_next(*logits, 0, stepper_->config());
    if (sample) {
        auto drawn =
            sample_token(logits->row(0), {temperature, top_k, top_p, stepper_->config().never_generated}, seed);
        if (!drawn) return fail(drawn.error().message);
        next = *drawn;
    }
    std::vector<int> tgt = stepper_->inputs().tgt_ids;
    tgt.push_back(next);
    return set_tgt_ids(std::move(tgt));
}

bool Session::translate() {
    if (!model_.config.has_decoder()) return fail("an encoder_only model does not generate");
    if (model_.config.arch == Arch::encoder_decoder) {
        if (auto st = stepper_->set_tgt_ids({model_.config.sos_id}); !st) return fail(st.error().message);
    }
    auto generated = greedy_decode(*stepper_);
    if (!generated) return fail(generated.error().message);
    tgt_unknown_.clear();
    tgt_pieces_.clear();
    if (model_.tgt_vocab) tgt_text_ = detokenize(*model_.tgt_vocab, model_.tokenizer, stepper_->inputs().tgt_ids, true);
    return done();
}

void Session::step_forward() { run_to(timeline_cursor() + 1); }

void Session::step_back() {
    if (timeline_cursor() > 0) run_to(timeline_cursor() - 1);
}

void Session::run_to(size_t cursor) {
    const size_t n = stepper_->size();
    const size_t backward = cursor > n ? std::min(cursor - n, backward_steps()) : 0;
    if (backward < backward_cursor_) backward_.reset();  // a pass only goes forward: run a new one to the cursor
    stepper_->run_to(std::min(cursor, n));
    backward_cursor_ = backward;
    if (backward > 0) run_backward();
    ++generation_;
}

}  // namespace attnlab::gui
