// The induction task's sequences (a <bos>, L random tokens, the same L again), its batches, its two losses by hand,
// and a model that starts to learn it.
#include "train/induction_task.h"
#include "train/trainer.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>

using namespace attnlab;

TEST_CASE("an induction batch: <bos>, P filler tokens, L tokens, the same L again, P <pad>; inputs and targets one apart",
          "[induction]") {
    const InductionTask task = make_induction_task(20, 6);
    CHECK(task.vocab_size == 24);
    CHECK(task.min_length == 3);
    InductionBatches batches(task, 16, 7);
    const Batch b = batches.batch(0);
    REQUIRE(b.B == 16);
    REQUIRE(b.T == 12);
    CHECK(b.S == 0);
    CHECK(b.pad_id == 0);
    std::set<int> lengths;
    for (int row = 0; row < 16; ++row) {
        const int* in = b.tgt_in.data() + row * 12;
        const int* out = b.tgt_out.data() + row * 12;
        CHECK(in[0] == 1);  // <sos> as <bos>
        for (int t = 0; t + 1 < 12; ++t) CHECK(out[t] == in[t + 1]);
        const int P = static_cast<int>(std::count(out, out + 12, 0));
        const int L = 6 - P;
        REQUIRE(L >= 3);
        REQUIRE(L <= 6);
        lengths.insert(L);
        for (int t = 0; t < P + 2 * L; ++t) {
            CHECK(out[t] >= 4);  // filler and copies: never a special token
            CHECK(out[t] < 24);
        }
        for (int i = 0; i < L; ++i) CHECK(out[P + L + i] == out[P + i]);  // the second copy
        for (int t = P + 2 * L; t < 12; ++t) CHECK(out[t] == 0);          // then as much padding as filler
    }
    CHECK(lengths.size() > 1);  // no one L for a positional head to learn, nor one place for the copies
    CHECK(b.tgt_in != batches.batch(1).tgt_in);                        // every batch is new
    CHECK(b.tgt_in == InductionBatches(task, 16, 7).batch(0).tgt_in);  // and the same from the same seed
    CHECK(b.tgt_in != InductionBatches(task, 16, 8).batch(0).tgt_in);
}

TEST_CASE("copy losses by hand: uniform logits give ln V on both copies, a copier 0 on the second", "[induction]") {
    const InductionTask task = make_induction_task(6, 4);  // V = 10, T = 8, L in [2, 4]
    const Batch b = InductionBatches(task, 4, 1).batch(0);
    Tensor logits({4 * 8, 10});  // all zero: uniform
    CopyLosses uniform = copy_losses(task, b, logits);
    CHECK(uniform.first == Approx(std::log(10.0)));
    CHECK(uniform.second == Approx(std::log(10.0)));
    // A model sure of the right token on the second copy's predictable positions (t = P+L+1 … P+2L−1) only.
    std::vector<int> first_copy_rows;  // rows t = P+1 … P+L−1 of each sequence
    for (int row = 0; row < 4; ++row) {
        const auto out = b.tgt_out.begin() + row * 8;
        const int P = static_cast<int>(std::count(out, out + 8, 0));
        const int L = 4 - P;
        for (int t = P + L + 1; t <= P + 2 * L - 1; ++t) logits.row(row * 8 + t)(out[t]) = 50.0f;
        logits.row(row * 8 + P + L)(out[P + L]) = 50.0f;  // x_0 of the second copy: counted in neither
        for (int t = 0; t < P; ++t) logits.row(row * 8 + t)(out[t]) = 50.0f;  // the filler: counted in neither
        for (int t = P + 1; t < P + L; ++t) first_copy_rows.push_back(row * 8 + t);
    }
    const CopyLosses copier = copy_losses(task, b, logits);
    CHECK(copier.first == Approx(std::log(10.0)));
    CHECK(copier.second < 1e-6);
    // Half right on the first copy: its loss is the mean of 0 and ln 10 over its positions.
    for (size_t i = 0; i < first_copy_rows.size(); i += 2)
        logits.row(first_copy_rows[i])(b.tgt_out[static_cast<size_t>(first_copy_rows[i])]) = 50.0f;
    const double right = static_cast<double>((first_copy_rows.size() + 1) / 2);
    CHECK(copy_losses(task, b, logits).first ==
          Approx(std::log(10.0) * (first_copy_rows.size() - right) / first_copy_rows.size()).epsilon(1e-4));
}

TEST_CASE("induction_config: the induction preset is a two-layer RoPE decoder; tiny is ours made decoder-only",
          "[induction]") {
    auto c = induction_config("induction", 44, 12);
    REQUIRE(c);
    CHECK(c->arch == Arch::decoder_only);
    CHECK(c->positional == Positional::rotary);
    CHECK(c->n_decoder_layers == 2);
    CHECK(c->max_len >= 25);
    auto tiny = induction_config("tiny", 44, 40);
    REQUIRE(tiny);
    CHECK(tiny->family == Family::transformer);
    CHECK(tiny->norm_first);
    CHECK(tiny->max_len == 81);
    auto bad = induction_config("huge", 44, 12);
    REQUIRE(!bad);
    CHECK(bad.error().message.find("huge") != std::string::npos);
}

TEST_CASE("the induction task trains a decoder-only model whose loss falls", "[induction][train]") {
    TrainSettings s;
    s.task = "induction";
    s.steps = 40;
    s.batch_size = 16;
    s.threads = 1;
    s.dropout = 0.0f;
    s.label_smoothing = 0.0f;
    s.optimizer.schedule = LrSchedule::constant;
    s.optimizer.lr = 3e-3f;
    auto trainer = Trainer::create(s);
    REQUIRE(trainer.ok());
    Trainer& t = **trainer;
    CHECK(t.model().config.arch == Arch::decoder_only);
    CHECK(!t.has_heldout());
    const CopyLosses start = *t.copy_losses();
    CHECK(start.first == Approx(std::log(44.0)).epsilon(0.15));  // near uniform over V = 44
    double first = 0.0, last = 0.0;
    for (int k = 0; k < s.steps; ++k) {
        const double loss = t.train_step().loss;
        if (k == 0) first = loss;
        last = loss;
    }
    // Forty steps learn which tokens come at all (the uniform over the 40 ordinary ones is ln 40 = 3.69); the copy
    // takes thousands.
    CHECK(last < first - 0.3);
    CHECK(last < std::log(44.0));
    CHECK(t.attention_entropies().size() == 2);  // two layers of self-attention
}
