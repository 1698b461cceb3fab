// The training run as the session sees it: adopt at start, swap snapshots in, compare with step 0.
#include "training.h"

#include "hf/hf_folder_writer.h"
#include "hf/open_model.h"
#include "io/model_file.h"
#include "model_display_name.h"
#include "platform/threads.h"

#include <algorithm>

namespace attnlab::gui {

std::string join_words(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
}

std::vector<const char*> train_presets(const std::string& task) {
    if (task == "induction") return {"induction", "tiny", "base"};
    return {"tiny", "base"};
}

TrainJob train_job(const TrainForm& form) {
    TrainJob job;
    TrainSettings& s = job.settings;
    s.task = form.task;
    s.preset = form.preset;
    s.steps = form.steps;
    s.seed = static_cast<uint64_t>(std::max(form.seed, 0));
    s.batch_size = form.batch_size;
    const int cores = platform::hardware_threads();  // 1 in the page: no thread is started
    s.threads = form.threads > 0 ? form.threads : std::max(1, cores - 1);
    job.eval_every = std::max(form.eval_every, 0);
    return job;
}

Result<TrainJob> opened_model_job(const TrainForm& form, const Session& session, const Training& training) {
    if (session.model().config.output_head == OutputHead::none)
        return Error{"this model has no output head: there is no loss to train it on"};
    if (form.data_path.empty()) return Error{"choose a file to train on"};
    TrainJob job = train_job(form);
    TrainSettings& s = job.settings;
    s.dropout = 0.0f;  // an opened model is fine-tuned as attnlab-cli train --init does it
    s.label_smoothing = 0.0f;
    s.optimizer.schedule = LrSchedule::constant;
    s.optimizer.lr = form.learning_rate;
    OpenedModelRun run;
    run.model = std::make_shared<const Model>(session.live_model());
    run.name = model_display_name(session.model_name());
    run.data.kind = trains_on_pairs(session.model().config.arch) ? DataFileKind::pairs : form.data_kind;
    run.data.path = form.data_path;
    run.data.seq_len = std::clamp(form.seq_len, 1, std::max(1, session.model().config.max_len));
    run.data.batch_size = form.batch_size;
    run.data.seed = s.seed;
    // A Hugging Face model stays one: opened from its folder, or trained here from one.
    if (session.origin() == ModelOrigin::file)
        run.hf_folder = hf_folder_of(session.model_name());
    else if (training.linked(session) && training.progress().job.opened)
        run.hf_folder = training.progress().job.opened->hf_folder;
    job.opened = std::move(run);
    return job;
}

std::string Training::model_name(int step) const {
    const TrainSettings& s = progress_.job.settings;
    if (const auto& opened = progress_.job.opened)
        return opened->name + " · trained · step " + std::to_string(step) + (compare_ && step == 0 ? " (compare)" : "");
    return "trained " + s.task + " (" + s.preset + ", seed " + std::to_string(s.seed) + ") · step " +
           std::to_string(step) + (compare_ && step == 0 ? " (compare)" : "");
}

Status Training::start(Session& session, const TrainJob& job) {
    const Status started = worker_.start(job);
    worker_.poll(progress_);
    linked_serial_ = shown_serial_ = 0;
    shown_step_ = -1;
    compare_ = compare_pinned_ = false;
    if (!started) return started;
    if (!show_in_session(session)) return Error{session.error()};
    return ok_status();
}

bool Training::show_in_session(Session& session) {
    const std::shared_ptr<const Model> initial = worker_.initial();
    if (!initial) return false;
    const std::vector<TextPair> examples = worker_.examples();
    const TextPair example = examples.empty() ? TextPair{} : examples.front();
    const WeightSnapshot snap = worker_.snapshot();
    Model model = *initial;
    if (!compare_ && snap.weights) model.weights = *snap.weights;
    const int step = compare_ ? 0 : snap.step;
    if (!session.adopt_model(std::move(model), model_name(step), join_words(example.src), join_words(example.tgt)))
        return false;
    linked_serial_ = session.model_serial();
    shown_serial_ = compare_ ? 0 : snap.serial;
    shown_step_ = step;
    return true;
}

bool Training::sync(Session& session) {
    bool changed = worker_.poll(progress_);
    if (!linked(session)) return changed;
    if (compare_) {
        if (shown_serial_ == 0) return changed;
        const std::shared_ptr<const Model> initial = worker_.initial();
        if (!initial || !session.set_weights(initial->weights, model_name(0))) return true;
        shown_serial_ = 0;
        shown_step_ = 0;
        return true;
    }
    if (shown_serial_ != 0 && progress_.snapshot_serial <= shown_serial_) return changed;
    const WeightSnapshot snap = worker_.snapshot();  // may be newer than progress_: that is fine
    if (!snap.weights || !session.set_weights(*snap.weights, model_name(snap.step))) return true;
    shown_serial_ = snap.serial;
    shown_step_ = snap.step;
    return true;
}

void Training::set_compare(Session& session, bool pinned, bool held) {
    compare_pinned_ = pinned;
    if (compare_ == (pinned || held)) return;
    compare_ = pinned || held;
    sync(session);
}

Status Training::save(const std::string& path) const {
    const std::shared_ptr<const Model> model = worker_.latest_model();
    if (!model) return Error{"nothing trained yet: start a run first"};
    if (const auto& opened = progress_.job.opened; opened && opened->hf_folder)
        return write_hf_folder(path, *model, *opened->hf_folder);
    return io::write_model(path, *model);
}

}  // namespace attnlab::gui
