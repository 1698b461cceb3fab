// The training run as the session sees it: adopt at start, swap snapshots in, compare with step 0.
#include "training.h"

#include "io/model_file.h"
#include "platform/threads.h"

#include <algorithm>

namespace attnlab::gui {

std::string join_words(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
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

std::string Training::model_name(int step) const {
    const TrainSettings& s = progress_.job.settings;
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
    return io::write_model(path, *model);
}

}  // namespace attnlab::gui
