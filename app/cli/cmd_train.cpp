// attnlab-cli train: trains a task's new model (a preset on copy, reverse, sort, en-ko or induction) or an opened
// model of any family on a file's tokens, with a progress bar; evaluates at intervals, logs each step's loss, and
// checkpoints atomically. Ctrl-C stops after the current step and saves.
#include "cli_common.h"
#include "commands.h"
#include "hf/hf_folder_writer.h"
#include "hf/open_model.h"
#include "io/model_file.h"
#include "train/training_history.h"
#include "train/training_data.h"
#include "train/training_history_file.h"
#include "train_args.h"

#include <unistd.h>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace attnlab::cli {

namespace {

volatile std::sig_atomic_t g_interrupted = 0;  // set by SIGINT/SIGTERM; the loop polls it

void on_interrupt(int) { g_interrupted = 1; }

std::string format_duration(double seconds) {
    const long s = static_cast<long>(seconds + 0.5);
    char buf[32];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, s / 60 % 60);
    else
        std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
    return buf;
}

// [#########...........] step 1200/3000  loss 1.234  acc 81.2%  43.1 steps/s  ETA 0m42s
void print_progress(const StepReport& r, int total, double steps_per_second, bool tty) {
    constexpr int kWidth = 24;
    const int filled = static_cast<int>(static_cast<double>(r.step) / total * kWidth);
    std::string bar(static_cast<size_t>(filled), '#');
    bar.resize(kWidth, '.');
    const double eta = steps_per_second > 0 ? (total - r.step) / steps_per_second : 0.0;
    std::fprintf(stderr, "%s[%s] step %d/%d  loss %.3f  acc %5.1f%%  %.1f steps/s  ETA %s%s", tty ? "\r" : "",
                 bar.c_str(), r.step, total, r.loss, 100.0 * r.token_accuracy, steps_per_second,
                 format_duration(eta).c_str(), tty ? "   " : "\n");
    std::fflush(stderr);
}

// What the run has learnt so far: the held-out split's scores, or the induction task's two losses.
void print_eval(const Trainer& t, const EvalOptions& options) {
    if (t.has_heldout()) {
        const EvalScores s = t.evaluate(options);
        std::printf("held-out @ step %d: exact match %.1f%%  token accuracy %.1f%%", t.steps_done(),
                    100.0 * s.exact_match, 100.0 * s.token_accuracy);
        if (t.settings().task == "en-ko") std::printf("  BLEU %.1f", s.bleu);
        std::printf("  loss %.3f  (%d sentences)\n", s.loss, s.n_examples);
    } else if (const auto copies = t.copy_losses()) {
        std::printf("step %d: loss on the first copy %.3f, on the second copy %.3f\n", t.steps_done(), copies->first,
                    copies->second);
    } else {
        return;
    }
    std::fflush(stdout);
}

// The opened model's batches, from the file its flags name: --pairs for an encoder-decoder, else --text or --data-ids.
Result<std::unique_ptr<SequenceBatches>> file_batches(const TrainCommand& c, const Model& model) {
    if (trains_on_pairs(model.config.arch) && !c.pairs)
        return Error{"this model is an encoder-decoder: it trains on --pairs FILE (source<TAB>target lines)"};
    if (!trains_on_pairs(model.config.arch) && c.pairs)
        return Error{"--pairs trains an encoder-decoder; this model reads one sequence: give --text or --data-ids"};
    DataFileSpec spec;
    spec.kind = c.pairs ? DataFileKind::pairs : c.data_ids ? DataFileKind::token_ids : DataFileKind::text;
    spec.path = c.pairs ? *c.pairs : c.data_ids ? *c.data_ids : *c.text;
    spec.seq_len = c.seq_len;
    spec.batch_size = c.settings.batch_size;
    spec.shuffle = c.shuffle;
    spec.seed = c.settings.seed;
    auto data = read_training_data(model, spec);
    if (!data) return data.error();
    if (data->counts.unknown > 0)
        std::fprintf(stderr, "note: %lld tokens of %s are unknown to the tokenizer\n",
                     static_cast<long long>(data->counts.unknown), spec.path.c_str());
    std::printf("%s\n", describe(data->counts).c_str());
    return std::move(data->batches);
}

struct Opened {
    std::unique_ptr<Trainer> trainer;
    std::optional<std::string> hf_folder;  // the --init folder a Hugging Face model came from
};

Result<Opened> make_trainer(const TrainCommand& c) {
    if (!c.init) {
        auto trainer = Trainer::create(c.settings);
        if (!trainer) return trainer.error();
        return Opened{std::move(*trainer), std::nullopt};
    }
    auto loaded = open_model(*c.init);
    if (!loaded) return loaded.error();
    auto batches = file_batches(c, loaded->model);
    if (!batches) return batches.error();
    auto trainer = Trainer::create_on(std::move(loaded->model), std::move(*batches), c.settings);
    if (!trainer) return trainer.error();
    return Opened{std::move(*trainer), hf_folder_of(*c.init)};  // a Hugging Face model is saved as a folder
}

Status save(const Opened& run, const std::string& out) {
    if (run.hf_folder) return write_hf_folder(out, run.trainer->model(), *run.hf_folder);
    return io::write_model(out, run.trainer->model());
}

}  // namespace

int run_train(const Argv& argv) {
    auto parsed = parse_train_command(argv);
    if (auto* err = std::get_if<std::string>(&parsed)) return fail("train: " + *err, kExitUsage);
    const TrainCommand& c = std::get<TrainCommand>(parsed);
    auto opened = make_trainer(c);
    if (!opened) return fail("train: " + opened.error().message, c.init ? kExitBadInput : kExitUsage);
    // Fail before training, not after it, when the output cannot be written (an existing file stays until
    // the first checkpoint replaces it).
    const std::filesystem::path out_dir = std::filesystem::absolute(c.out).parent_path();
    if (!std::filesystem::is_directory(out_dir) || access(out_dir.c_str(), W_OK) != 0)
        return fail("train: cannot write " + c.out + ": " + out_dir.string() + " is not a writable directory",
                    kExitBadInput);
    std::optional<TrainingHistory> history;  // --history: checkpoints from step 0
    if (c.history) {
        history = start_history(opened->trainer->model(), c.settings.induction_length);
        if (auto st = record_checkpoint(*history, *opened->trainer, std::nullopt); !st)
            return fail("train: " + st.error().message, kExitBadInput);
    }
    std::ofstream log;
    if (c.log) {
        log.open(*c.log, std::ios::trunc);
        if (!log) return fail("train: cannot write the log " + *c.log, kExitBadInput);
    }

    std::signal(SIGINT, on_interrupt);
    std::signal(SIGTERM, on_interrupt);
    const bool tty = isatty(STDERR_FILENO) && !c.quiet;
    EvalOptions eval;
    eval.max_examples = static_cast<size_t>(c.eval_size);
    eval.label_smoothing = c.settings.label_smoothing;
    Trainer& t = *opened->trainer;
    std::printf("training %s on %s: %lld parameters, %d steps of %d sequences, seed %llu -> %s\n",
                c.init ? c.init->c_str() : c.settings.preset.c_str(),
                c.init ? (c.text ? c.text : c.data_ids ? c.data_ids : c.pairs)->c_str() : c.settings.task.c_str(),
                static_cast<long long>(parameter_count(t.model().config)), c.settings.steps, c.settings.batch_size,
                static_cast<unsigned long long>(c.settings.seed), c.out.c_str());
    std::fflush(stdout);

    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    while (!t.finished() && !g_interrupted) {
        const StepReport r = t.train_step();
        if (log) {
            char line[96];
            std::snprintf(line, sizeof line, "{\"step\": %d, \"loss\": %.9g}\n", r.step, r.loss);
            log << line << std::flush;
        }
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        const double rate = elapsed > 0 ? r.step / elapsed : 0.0;
        if (tty ? (r.step % 10 == 0 || t.finished()) : (r.step % c.eval_every == 0 || r.step == 1))
            print_progress(r, c.settings.steps, rate, tty);
        if (history && (r.step % c.history_every == 0 || t.finished())) {
            if (auto st = record_checkpoint(*history, t, r.loss); !st)
                return fail("train: " + st.error().message, kExitBadInput);
            if (auto st = write_training_history(*c.history, *history); !st)
                return fail("train: " + st.error().message, kExitBadInput);
        }
        if (r.step % c.eval_every == 0 || t.finished()) {
            if (tty) std::fputc('\n', stderr);
            print_eval(t, eval);
            if (auto st = save(*opened, c.out); !st) return fail("train: " + st.error().message, kExitBadInput);
        }
    }
    if (g_interrupted) {
        if (tty) std::fputc('\n', stderr);
        if (auto st = save(*opened, c.out); !st) return fail("train: " + st.error().message, kExitBadInput);
        std::printf("interrupted at step %d; saved %s\n", t.steps_done(), c.out.c_str());
        return 130;
    }
    const double total = std::chrono::duration<double>(Clock::now() - start).count();
    std::printf("done: %d steps in %s (%.1f steps/s); saved %s\n", t.steps_done(), format_duration(total).c_str(),
                t.steps_done() / total, c.out.c_str());
    return 0;
}

}  // namespace attnlab::cli
