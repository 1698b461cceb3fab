#include "tour.h"

#include "attribution_tool.h"
#include "forward/step_path.h"
#include "model_changes.h"
#include "predict_mode.h"

#include <algorithm>

namespace attnlab::gui {

namespace {

// The tour's own Llama-template model: a seeded random decoder-only model over the character vocabulary, with
// pre-norm RMSNorm, rotary positions, a SwiGLU FFN and 4 query heads sharing 2 K/V heads. Untrained: it shows
// the shapes and the steps of today's models, not what they predict.
Result<Model> llama_tiny_model() {
    auto model = make_random_model("tiny", kLlamaTinySeed, std::nullopt, std::nullopt, TokenizerKind::character);
    if (!model) return model.error();
    ModelConfig& c = model->config;
    c.arch = Arch::decoder_only;
    c.family = Family::llama;
    c.n_encoder_layers = 0;
    c.n_decoder_layers = 2;
    c.d_model = 64, c.n_heads = 4, c.n_kv_heads = 2;
    c.d_ff = 176;  // about (2/3)·4C, as Llama sizes its gated FFN, rounded up to a multiple of 16
    c.activation = Activation::silu;
    c.norm = NormKind::rms_norm;
    c.norm_first = true;
    c.final_norm = true;
    c.positional = Positional::rotary;
    c.gated_ffn = true;
    c.qkv_bias = c.out_bias = c.ffn_bias = false;
    c.scale_embedding = false;
    c.src_vocab_size = 0;
    model->src_vocab.reset();
    if (auto st = validate_config(c); !st) return st.error();
    model->weights = init_weights(c, kLlamaTinySeed);
    if (auto st = check_model(*model); !st) return st.error();
    return model;
}

bool open_model(const TourChapter& c, Session& session, const std::string& assets_dir) {
    if (c.model == kLlamaTinyModel) {
        auto model = llama_tiny_model();
        if (!model) return session.reject(model.error().message);
        auto fresh =
            Session::from_model(std::move(*model), llama_tiny_name(), "", "", session.stepper().next_version());
        if (!fresh) return session.reject(fresh.error().message);
        session.adopt_session(std::move(*fresh));
        return true;
    }
    if (c.model == "tiny" || c.model == "base") {
        RandomModelSpec spec;
        spec.use_preset(c.model);
        return session.new_random_model(spec);
    }
    return session.open_model_file(assets_dir + "/models/" + c.model);
}

// Appends `n` <pad> tokens to the source or the target, as a shorter sentence is padded in a batch.
bool pad(Session& session, bool source, int n) {
    if (n == 0) return true;
    const ForwardInputs& in = session.stepper().inputs();
    std::vector<int> ids = source ? in.src_ids : in.tgt_ids;
    ids.insert(ids.end(), static_cast<size_t>(n), session.stepper().config().pad_id);
    return source ? session.set_src_ids(ids) : session.set_tgt_ids(ids);
}

// Whether what the chapter's view and task point at exists in this model and view: the attention use (and its
// layer, stage and head) of the attention and masks views, rotary positions for the RoPE view's task, added
// ones for the PE curves' task, and the Model view for the norm switch.
Status check_fits(const TourChapter& c, const Stepper& stepper, View tab, const AttentionViewState& attention) {
    const ModelConfig& config = stepper.config();
    if (tab == View::attention || tab == View::masks || c.task == TourTaskKind::toggle_mask_cell) {
        const std::string use = to_string(attention.family);
        if (!stepper.find(StepId::mask_of(attention.family))) return Error{"this model has no " + use + " attention"};
        if (tab == View::attention && !stepper.find(StepId::attention_at({attention.family, c.layer}, attention.stage)))
            return Error{"this model has no " + use + " attention step " + to_string(attention.stage) + " in layer " +
                         std::to_string(c.layer)};
        if (c.head >= config.n_heads) return Error{"this model has no head " + std::to_string(c.head)};
    }
    if (c.task == TourTaskKind::change_rope_rows &&
        (tab != View::positional || config.positional != Positional::rotary))
        return Error{"the RoPE view's sliders need rotary positions and the positional view"};
    if (c.task == TourTaskKind::change_pe_dims &&
        (tab != View::positional || config.positional == Positional::rotary || config.positional == Positional::none))
        return Error{"the PE curves need positions added to the embeddings and the positional view"};
    if (c.task == TourTaskKind::switch_norm_placement && tab != View::model)
        return Error{"the norm placement switch is in the model view"};
    if (c.task == TourTaskKind::scrub_checkpoint && tab != View::training)
        return Error{"the checkpoint slider is in the training view"};
    return ok_status();
}

// Whether the chapter keeps the open model: it has all the chapter needs, as loaded, and is the learner's
// Hugging Face folder (a Llama-family model, a Marian translator), not one the tour opened for an earlier chapter.
bool keeps_open_model(const TourChapter& c, const Session& session) {
    const ModelConfig& loaded = session.model().config;
    return !c.needs.empty() && loaded.family != Family::transformer && session.model_name() != llama_tiny_name() &&
           !first_unmet(loaded, c.needs);
}

// A kept model's input, when it would show nothing: ids for a model without a tokenizer reading one token, a
// translation for a translator whose target is its start token alone. Notes in `choice` what it gave.
bool give_kept_model_input(Session& session, TourModelChoice& choice) {
    const ModelConfig& config = session.stepper().config();
    const bool source = config.has_encoder();  // the sequence typed ids are (as typed_ids_text has it)
    const ForwardInputs& in = session.stepper().inputs();
    const std::vector<int> ids = tour_typed_ids(source ? config.src_vocab_size : config.tgt_vocab_size);
    if (!session.typed_ids_text().empty() && (source ? in.src_ids : in.tgt_ids).size() < 2 &&
        !(source ? session.set_src_ids(ids) : session.set_tgt_ids(ids)))
        return false;
    if (!session.typed_ids_text().empty() && (source ? in.src_ids : in.tgt_ids) == ids) {  // now, or a chapter before
        choice.input = TourModelChoice::Input::typed_ids;
        choice.n_typed_ids = static_cast<int>(ids.size());
    }
    if (config.arch == Arch::encoder_decoder && in.tgt_ids.size() < 2) {
        if (!session.translate()) return false;
        choice.input = TourModelChoice::Input::translated;
    }
    return true;
}

Status set_up(const TourChapter& c, Session& session, ViewState& view, const std::string& assets_dir,
              TourModelChoice& choice) {
    const std::string where = "tour chapter \"" + c.id + "\": ";
    choice = TourModelChoice{};
    if (keeps_open_model(c, session)) {  // the learner's own model: its input stays, its edits go
        choice.kept = true;
        if (!undo_all_changes(session) || !give_kept_model_input(session, choice))
            return Error{where + session.error()};
    } else {
        // The learner's own model (any family but the bundled models' own) gives way: the card says what it lacked.
        if (!c.needs.empty() && session.model().config.family != Family::transformer &&
            session.model_name() != llama_tiny_name())
            choice.missing = first_unmet(session.model().config, c.needs);
        if (!open_model(c, session, assets_dir)) return Error{where + session.error()};
        if (!session.set_src_text(c.src)) return Error{where + session.error()};
        if (session.stepper().config().arch == Arch::encoder_decoder && !session.set_tgt_text(c.tgt))
            return Error{where + session.error()};
        if (!pad(session, true, c.src_padding) || !pad(session, false, c.tgt_padding))
            return Error{where + session.error()};
    }
    // The model the chapter runs on has what its text and views are about (its own model must, always).
    if (const auto lacking = first_unmet(session.stepper().config(), c.needs))
        return Error{where + "needs a model with " + tour_need_name(*lacking) + ", which " + session.model_name() +
                     " has not"};
    size_t cursor = session.stepper().size();
    if (!c.step.empty()) {
        auto index = session.stepper().find(c.step);
        if (!index) return Error{where + "no step " + c.step};
        cursor = *index + 1;
    }
    if (c.task == TourTaskKind::step_past && !session.stepper().find(c.task_step))
        return Error{where + "no step " + c.task_step};
    View tab;
    if (!view_from_id(c.view, tab)) return Error{where + "no view " + c.view};
    for (const std::string& slide : c.slides)
        if (View v; !view_from_id(slide, v)) return Error{where + "no view " + slide + " for a slide"};
    if (!enum_from_name(c.family, view.attention.family)) return Error{where + "no attention family " + c.family};
    if (!enum_from_name(c.stage, view.attention.stage)) return Error{where + "no attention stage " + c.stage};
    if (auto st = check_fits(c, session.stepper(), tab, view.attention); !st) return Error{where + st.error().message};
    if (c.task == TourTaskKind::step_past && *session.stepper().find(c.task_step) < cursor)
        return Error{where + "the task's step " + c.task_step + " has run before the chapter opens (its step is " +
                     c.step + ")"};
    session.run_to(cursor);
    view.tab = tab;
    view.attention.layer = c.layer;
    view.attention.head = c.head;
    view.attention.detail_open = c.detail;
    view.playground.experiment = c.playground_experiment;
    view.positional.compare.on = c.positional_compare;
    if (c.positional_compare) view.positional.compare.layer = c.layer, view.positional.compare.head = c.head;
    if (!c.metric.empty()) {  // "Why this output?" on the chapter's metric (parse_tour checked its spelling)
        const AttributionMetric metric = *AttributionMetric::parse(c.metric);
        WhyOutputState& why = view.output.why;
        why.open = true;
        why.diff = metric.kind == AttributionMetricKind::logit_diff;
        why.token = metric.token;
        why.other = metric.other;
        why.position = static_cast<int>(metric.position);
        why.row = why.head = why.ffn_layer = -1;
    }
    if (!c.corrupt.empty()) view.output.patching.corrupt = c.corrupt;
    if (!c.piece.empty()) view.output.patching.piece = c.piece;
    view.stepper.playing = false;
    view.stepper.hidden = view.settings.predict;  // in predict mode a chapter opens with its answer covered
    return ok_status();
}

}  // namespace

std::vector<int> tour_typed_ids(int vocab_size) {
    std::vector<int> ids = {1, 14, 9, 17, 6, 3, 22, 8, 11, 4, 30, 5};
    for (int& id : ids) id %= std::max(1, vocab_size);
    return ids;
}

std::string llama_tiny_name() {
    return std::string(kLlamaTinyModel) + " (random, seed " + std::to_string(kLlamaTinySeed) + ")";
}

Status TourRunner::load(const std::string& assets_dir) {
    auto chapters = load_tour(assets_dir);
    if (!chapters) return chapters.error();
    chapters_ = std::move(*chapters);
    return ok_status();
}

Status TourRunner::open(int index, Session& session, ViewState& view, const std::string& assets_dir) {
    if (index < 0 || index >= static_cast<int>(chapters_.size()))
        return Error{"the tour has chapters 1 to " + std::to_string(chapters_.size())};
    current_ = -1;
    if (auto st = set_up(chapters_[static_cast<size_t>(index)], session, view, assets_dir, model_choice_); !st)
        return st;
    current_ = index;
    baseline_ = Baseline{session.stepper().inputs(),
                         view.output.temperature,
                         {view.positional.dims[0], view.positional.dims[1]},
                         view.playground.experiment_keys,
                         {view.positional.rope.query, view.positional.rope.key},
                         session.stepper().config().norm_first,
                         session.model().weights};
    setup_probs_ = last_row_probs(session.stepper());
    strongest_.reset();
    return ok_status();
}

void TourRunner::close(ViewState& view) {
    current_ = -1;
    end_predict(view);
}

std::optional<PredictionChange> TourRunner::head_off_change(const Session& session) const {
    const TourChapter* c = chapter();
    if (!c || (c->task != TourTaskKind::ablate_head && c->task != TourTaskKind::ablate_strongest_head))
        return std::nullopt;
    const ForwardInputs& now = session.stepper().inputs();
    if (now.src_ids != baseline_.inputs.src_ids || now.tgt_ids != baseline_.inputs.tgt_ids) return std::nullopt;
    if (now.ablated_heads == baseline_.inputs.ablated_heads) {  // the setup itself: its prediction, once it ran
        if (setup_probs_.empty()) setup_probs_ = last_row_probs(session.stepper());
        return std::nullopt;
    }
    return prediction_change(setup_probs_, last_row_probs(session.stepper()));
}

std::optional<std::pair<AttentionSite, int>> TourRunner::strongest_head(const Session& session) const {
    const TourChapter* c = chapter();
    if (!c || c->task != TourTaskKind::ablate_strongest_head) return std::nullopt;
    const ForwardInputs& now = session.stepper().inputs();
    if (!strongest_ && now.src_ids == baseline_.inputs.src_ids && now.tgt_ids == baseline_.inputs.tgt_ids &&
        now.ablated_heads == baseline_.inputs.ablated_heads) {  // the setup's own run
        const AttributionMetric metric = *AttributionMetric::parse(c->metric);
        AttributionTool tool;
        tool.update(session.stepper(), {metric.kind, metric.token, metric.other, static_cast<int>(metric.position)});
        if (const auto best = tool.ready() ? tool.strongest_head() : std::nullopt)
            strongest_ = std::make_pair(tool.grid().rows[best->first], best->second);
    }
    return strongest_;
}

bool TourRunner::task_done(const Session& session, const ViewState& view) const {
    const TourChapter* c = chapter();
    if (!c) return false;
    const ForwardInputs& now = session.stepper().inputs();
    switch (c->task) {
        case TourTaskKind::step_past: {
            auto index = session.stepper().find(c->task_step);
            return index && session.stepper().cursor() > *index;
        }
        case TourTaskKind::edit_source: return now.src_ids != baseline_.inputs.src_ids;
        case TourTaskKind::toggle_mask_cell: return now.mask_overrides != baseline_.inputs.mask_overrides;
        case TourTaskKind::ablate_head: return now.ablated_heads != baseline_.inputs.ablated_heads;
        case TourTaskKind::change_temperature: return view.output.temperature != baseline_.temperature;
        case TourTaskKind::change_pe_dims:
            return view.positional.dims[0] != baseline_.pe_dims[0] || view.positional.dims[1] != baseline_.pe_dims[1];
        case TourTaskKind::change_experiment_keys: return view.playground.experiment_keys != baseline_.experiment_keys;
        case TourTaskKind::switch_norm_placement: return session.stepper().config().norm_first != baseline_.norm_first;
        case TourTaskKind::change_rope_rows:
            return view.positional.rope.query != baseline_.rope_rows[0] ||
                   view.positional.rope.key != baseline_.rope_rows[1];
        case TourTaskKind::scrub_checkpoint: return session.model().weights.all() != baseline_.weights.all();
        case TourTaskKind::ablate_strongest_head: {
            const auto best = strongest_head(session);
            const auto off = best ? now.ablated_heads.find(best->first) : now.ablated_heads.end();
            return off != now.ablated_heads.end() && off->second.count(best->second) > 0;
        }
    }
    return false;
}

}  // namespace attnlab::gui
