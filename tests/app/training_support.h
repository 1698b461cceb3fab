// What the training tests share: a small, quick run on the copy task, a poll with a deadline, and a
// bit-for-bit comparison of two sets of weights.
#pragma once

#include "training_worker.h"

#include <chrono>
#include <functional>
#include <thread>

namespace attnlab::gui::test {

// A small, quick run on the copy task.
inline TrainJob copy_job(int steps) {
    TrainJob job;
    job.settings.task = "copy";
    job.settings.steps = steps;
    job.settings.batch_size = 4;
    job.settings.threads = 1;
    job.settings.seed = 3;
    job.eval_every = 3;
    job.eval_examples = 8;
    job.eval_chunk = 4;
    job.final_full_eval = false;
    job.snapshot_seconds = 0.0;  // a snapshot after every step
    return job;
}

// Polls until `done` holds; a deadline only so that a hang fails instead of blocking ctest.
inline bool wait_for(const std::function<bool()>& done, double seconds = 120.0) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (!done()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

// The same tensors by name, with the same bits.
inline bool same_values(const Weights& a, const Weights& b) {
    for (const auto& [name, t] : a.all()) {
        const Tensor* u = b.find(name);
        if (!u || u->data != t->data) return false;
    }
    return a.all().size() == b.all().size();
}

}  // namespace attnlab::gui::test
