// The training loop's body: sample a batch, compute loss and gradients, take an Adam step.
#include "train/trainer.h"

#include "train/data_parallel.h"

#include <cassert>

namespace attnlab {

Result<std::unique_ptr<Trainer>> Trainer::create(const TrainSettings& settings) {
    if (settings.steps < 1) return Error{"steps must be at least 1"};
    if (settings.batch_size < 1) return Error{"the batch size must be at least 1"};
    if (!(settings.dropout >= 0.0f && settings.dropout < 1.0f)) return Error{"dropout must be in [0, 1)"};
    for (float weight : {settings.head_disagreement, settings.query_disagreement})
        if (!(weight >= 0.0f && weight <= 100.0f)) return Error{"a disagreement weight must be in [0, 100]"};
    if (settings.threads < 1 || settings.threads > 64) return Error{"threads must be 1..64"};
    if (settings.adam.warmup_steps < 1) return Error{"warm-up steps must be at least 1"};
    auto task = make_task(settings.task, settings.seed);
    if (!task) return task.error();
    auto config = preset_config(settings.preset, (*task)->src_vocab().size(), (*task)->tgt_vocab().size());
    if (!config) return config.error();
    Model model{*config,
                init_weights(*config, settings.seed),
                (*task)->src_vocab(),
                (*task)->tgt_vocab(),
                TokenizerKind::word,
                TrainingRecord{settings.task, settings.seed, 0},
                nullptr};
    return std::unique_ptr<Trainer>(new Trainer(settings, std::move(*task), std::move(model)));
}

Trainer::Trainer(TrainSettings settings, std::unique_ptr<Task> task, Model model)
    : settings_(std::move(settings)),
      task_(std::move(task)),
      model_(std::move(model)),
      adam_(settings_.adam),
      rng_(settings_.seed * 0x9E3779B97F4A7C15ull + 1),
      groups_(attnlab::param_groups(model_.config, model_.weights)) {
    assert(!task_->heldout().empty() && "every task holds pairs out");
    probe_example_ = task_->heldout().front();
    probe_pair_ = to_token_pair(*task_, probe_example_);
}

StepReport Trainer::train_step() {
    std::vector<TokenPair> pairs;
    pairs.reserve(static_cast<size_t>(settings_.batch_size));
    for (int i = 0; i < settings_.batch_size; ++i) pairs.push_back(to_token_pair(*task_, task_->sample_train(rng_)));
    TrainOptions options;
    options.label_smoothing = settings_.label_smoothing;
    options.dropout = settings_.dropout;
    options.dropout_seed = rng_();
    options.head_disagreement = settings_.head_disagreement;
    options.query_disagreement = settings_.query_disagreement;
    auto result = loss_and_gradients_parallel(model_.config, model_.weights, pairs, options, settings_.threads);
    assert(result.ok() && "the task's examples fit the model it made");

    ++step_;
    StepReport report;
    report.step = step_;
    report.loss = result->loss;
    report.token_accuracy = result->n_tokens ? static_cast<double>(result->n_correct) / result->n_tokens : 0.0;
    report.learning_rate =
        warmup_learning_rate(model_.config.d_model, step_, settings_.adam.warmup_steps, settings_.adam.lr_scale);
    report.group_grad_norms = group_norms(groups_, result->grads);
    report.grad_norm = adam_.step(model_.weights, result->grads, report.learning_rate);
    model_.training->steps = step_;
    return report;
}

std::vector<SiteEntropy> Trainer::attention_entropies() const {
    auto entropies = attnlab::attention_entropies(model_.config, model_.weights, probe_pair_);
    assert(entropies.ok() && "the task's examples fit the model it made");
    return std::move(*entropies);
}

EvalScores Trainer::evaluate(const EvalOptions& options) const {
    auto scores = evaluate_heldout(model_, *task_, options);
    assert(scores.ok() && "the trainer's model was made for its task");
    return *scores;
}

}  // namespace attnlab
