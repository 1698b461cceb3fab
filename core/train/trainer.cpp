// The training loop's body: draw a batch, compute loss and gradients on the model's step graph, take an optimiser
// step.
#include "train/trainer.h"

#include "train/data_parallel.h"
#include "train/graph_run.h"

#include <algorithm>
#include <cassert>

namespace attnlab {

namespace {

Status check_settings(const TrainSettings& settings) {
    if (settings.steps < 1) return Error{"steps must be at least 1"};
    if (settings.batch_size < 1) return Error{"the batch size must be at least 1"};
    if (!(settings.dropout >= 0.0f && settings.dropout < 1.0f)) return Error{"dropout must be in [0, 1)"};
    if (!(settings.label_smoothing >= 0.0f && settings.label_smoothing < 1.0f))
        return Error{"label smoothing must be in [0, 1)"};
    for (float weight : {settings.head_disagreement, settings.query_disagreement})
        if (!(weight >= 0.0f && weight <= 100.0f)) return Error{"a disagreement weight must be in [0, 100]"};
    if (settings.threads < 1 || settings.threads > 64) return Error{"threads must be 1..64"};
    return check_optimizer(settings.optimizer);
}

// A preset as a decoder-only model of the paper's family, for the induction task's vocabulary.
Result<Model> induction_model(const TrainSettings& settings) {
    if (settings.induction_length < 2 || settings.induction_tokens < 1)
        return Error{"the induction task needs sequences of at least 2 tokens and at least 1 token to draw"};
    const Vocab vocab = induction_vocab(settings.induction_tokens);
    auto config = induction_config(settings.preset, vocab.size(), settings.induction_length);
    if (!config) return config.error();
    if (auto st = validate_config(*config); !st) return st.error();
    return Model{*config,
                 init_weights(*config, settings.seed),
                 std::nullopt,
                 vocab,
                 TokenizerKind::word,
                 TrainingRecord{"induction", settings.seed, 0},
                 nullptr};
}

std::string arch_phrase(Arch arch) {
    switch (arch) {
        case Arch::decoder_only: return "a decoder-only model";
        case Arch::encoder_only: return "an encoder-only model";
        case Arch::encoder_decoder: return "an encoder-decoder";
    }
    return "a model";
}

// The first sequence of a batch without its padding: the probe attention_entropies reads.
ForwardInputs first_sequence(const Batch& batch) {
    int s = batch.S;  // the source without its trailing padding
    while (s > 0 && batch.src[static_cast<size_t>(s - 1)] == batch.pad_id) --s;
    ForwardInputs probe;
    probe.src_ids.assign(batch.src.begin(), batch.src.begin() + s);
    // A pair's decoder input is as long as its targets (<sos> counts where <eos> does); next-token sequences are
    // not padded.
    const auto targets = batch.tgt_out.begin();
    const auto n = batch.S > 0 ? std::find(targets, targets + batch.T, batch.pad_id) - targets : batch.T;
    probe.tgt_ids.assign(batch.tgt_in.begin(), batch.tgt_in.begin() + n);
    return probe;
}

}  // namespace

Result<std::unique_ptr<Trainer>> Trainer::create(const TrainSettings& settings) {
    if (auto st = check_settings(settings); !st) return st.error();
    if (settings.task == "induction") {
        auto model = induction_model(settings);
        if (!model) return model.error();
        const InductionTask task = make_induction_task(settings.induction_tokens, settings.induction_length);
        auto trainer = create_on(std::move(*model),
                                 std::make_unique<InductionBatches>(task, settings.batch_size, settings.seed), settings);
        if (trainer) (*trainer)->induction_ = task;
        return trainer;
    }
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
    return std::unique_ptr<Trainer>(new Trainer(settings, std::move(*task), nullptr, std::move(model)));
}

Result<std::unique_ptr<Trainer>> Trainer::create_on(Model model, std::unique_ptr<SequenceBatches> batches,
                                                    const TrainSettings& settings) {
    if (auto st = check_settings(settings); !st) return st.error();
    const ModelConfig& c = model.config;
    if (batches->trains() != c.arch)
        return Error{"this is " + arch_phrase(c.arch) + ": train it on " + batches_name(c.arch) + ", not on " +
                     batches_name(batches->trains())};
    // The first batch's ids must fit the model (the caller's data: a file's ids may be past the vocabulary).
    const Batch first = batches->batch(0);
    if (auto st = check_batch(c, first); !st) return st.error();
    return std::unique_ptr<Trainer>(new Trainer(settings, nullptr, std::move(batches), std::move(model)));
}

Trainer::Trainer(TrainSettings settings, std::unique_ptr<Task> task, std::unique_ptr<SequenceBatches> batches,
                 Model model)
    : settings_(std::move(settings)),
      task_(std::move(task)),
      batches_(std::move(batches)),
      model_(std::move(model)),
      optimizer_(settings_.optimizer),
      rng_(settings_.seed * 0x9E3779B97F4A7C15ull + 1),
      groups_(attnlab::param_groups(model_.config, model_.weights)) {
    if (task_) {
        assert(!task_->heldout().empty() && "every task holds pairs out");
        probe_example_ = task_->heldout().front();
        const Batch probe = make_batch({to_token_pair(*task_, probe_example_)}, model_.config);
        probe_.src_ids = probe.src;
        probe_.tgt_ids = probe.tgt_in;
    } else {
        copy_probe_ = batches_->batch(0);
        probe_ = first_sequence(copy_probe_);
    }
}

Batch Trainer::next_batch() {
    if (batches_) return batches_->batch(step_);
    std::vector<TokenPair> pairs;
    pairs.reserve(static_cast<size_t>(settings_.batch_size));
    for (int i = 0; i < settings_.batch_size; ++i) pairs.push_back(to_token_pair(*task_, task_->sample_train(rng_)));
    return make_batch(pairs, model_.config);
}

StepReport Trainer::train_step() {
    const Batch batch = next_batch();
    TrainOptions options;
    options.label_smoothing = settings_.label_smoothing;
    options.dropout = settings_.dropout;
    options.dropout_seed = rng_();
    options.head_disagreement = settings_.head_disagreement;
    options.query_disagreement = settings_.query_disagreement;
    auto result = loss_and_gradients_parallel(model_.config, model_.weights, batch, options, settings_.threads);
    assert(result.ok() && "the batches fit the model (checked when the trainer was made)");

    ++step_;
    StepReport report;
    report.step = step_;
    report.loss = result->loss;
    report.token_accuracy = result->n_tokens ? static_cast<double>(result->n_correct) / result->n_tokens : 0.0;
    report.learning_rate = learning_rate(settings_.optimizer, model_.config.d_model, step_);
    report.group_grad_norms = group_norms(groups_, result->grads);
    report.grad_norm = optimizer_.step(model_.weights, result->grads, report.learning_rate);
    if (model_.training) model_.training->steps = step_;
    return report;
}

std::vector<SiteEntropy> Trainer::attention_entropies() const {
    return attnlab::attention_entropies(model_.config, model_.weights, probe_);
}

std::optional<CopyLosses> Trainer::copy_losses() const {
    if (!induction_) return std::nullopt;
    auto logits = batch_logits(model_.config, model_.weights, copy_probe_);
    assert(logits.ok());
    return attnlab::copy_losses(*induction_, copy_probe_, *logits);
}

EvalScores Trainer::evaluate(const EvalOptions& options) const {
    assert(task_ && "only a task of pairs has a held-out split");
    auto scores = evaluate_heldout(model_, *task_, options);
    assert(scores.ok() && "the trainer's model was made for its task");
    return *scores;
}

}  // namespace attnlab
