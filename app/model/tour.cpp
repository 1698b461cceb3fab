#include "tour.h"

#include "predict_mode.h"

namespace attnlab::gui {

namespace {

bool open_model(const TourChapter& c, Session& session, const std::string& assets_dir) {
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

Status set_up(const TourChapter& c, Session& session, ViewState& view, const std::string& assets_dir) {
    const std::string where = "tour chapter \"" + c.id + "\": ";
    if (!open_model(c, session, assets_dir)) return Error{where + session.error()};
    if (!session.set_src_text(c.src)) return Error{where + session.error()};
    if (session.stepper().config().arch == Arch::encoder_decoder && !session.set_tgt_text(c.tgt))
        return Error{where + session.error()};
    if (!pad(session, true, c.src_padding) || !pad(session, false, c.tgt_padding))
        return Error{where + session.error()};
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
    session.run_to(cursor);
    view.tab = tab;
    view.attention.layer = c.layer;
    view.attention.head = c.head;
    view.attention.detail_open = c.detail;
    view.playground.experiment = c.playground_experiment;
    view.stepper.playing = false;
    view.stepper.hidden = view.settings.predict;  // in predict mode a chapter opens with its answer covered
    return ok_status();
}

}  // namespace

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
    if (auto st = set_up(chapters_[static_cast<size_t>(index)], session, view, assets_dir); !st) return st;
    current_ = index;
    baseline_ = Baseline{session.stepper().inputs(),
                         view.output.temperature,
                         {view.positional.dims[0], view.positional.dims[1]},
                         view.playground.experiment_keys};
    return ok_status();
}

void TourRunner::close(ViewState& view) {
    current_ = -1;
    end_predict(view);
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
    }
    return false;
}

}  // namespace attnlab::gui
