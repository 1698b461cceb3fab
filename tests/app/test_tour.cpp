// The guided tour without a display: every bundled chapter sets the app up (the bundled model,
// its sentence, its view and step), its task is not done on arrival, and doing it is noticed. The
// chapters of "From the paper to today's models" run on the tour's Llama-template model, or keep a
// Llama-family model the learner opened when it has what they need; what a chapter points at must
// exist in the model it runs on.
#include "tour.h"

#include "checkpoint_player.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

using namespace attnlab;
using namespace attnlab::gui;

namespace {

const std::string kAssets = ATTNLAB_SOURCE_DIR "/assets";

// Does what the chapter asks, as the learner would through the views.
void do_the_task(const TourRunner& tour, const TourChapter& c, Session& s, ViewState& v) {
    switch (c.task) {
        case TourTaskKind::step_past: s.run_to(*s.stepper().find(c.task_step) + 1); break;
        case TourTaskKind::edit_source: REQUIRE(s.set_src_text("we eat sweet bread")); break;
        case TourTaskKind::toggle_mask_cell: REQUIRE(s.toggle_mask_cell(AttentionUse::decoder_self, 0, 1)); break;
        case TourTaskKind::ablate_head: REQUIRE(s.toggle_head({v.attention.family, c.layer}, 1)); break;
        case TourTaskKind::change_temperature: v.output.temperature = 0.5f; break;
        case TourTaskKind::change_pe_dims: v.positional.dims[1] += 2; break;
        case TourTaskKind::change_experiment_keys: v.playground.experiment_keys = 32; break;
        case TourTaskKind::change_rope_rows: v.positional.rope.key += 1; break;
        case TourTaskKind::switch_norm_placement: {
            ModelConfig config = s.stepper().config();
            config.norm_first = !config.norm_first;
            REQUIRE(s.set_config(config));
            break;
        }
        case TourTaskKind::scrub_checkpoint: {  // the training view's slider, moved to step 400
            CheckpointPlayer player;
            player.follow(s);
            REQUIRE(player.has_history());
            REQUIRE(player.show(s, 5));
            REQUIRE(player.history().checkpoints[5].step == 400);
            break;
        }
        case TourTaskKind::ablate_strongest_head: {  // the reddest cell of "Why this output?", switched off
            const auto best = tour.strongest_head(s);
            REQUIRE(best);
            REQUIRE(s.toggle_head(best->first, best->second));
            break;
        }
    }
}

Session some_other_model() {
    auto s = Session::from_preset("tiny", 9, std::nullopt, std::nullopt, "abc");
    REQUIRE(s);
    return std::move(*s);
}

}  // namespace

TEST_CASE("every tour chapter sets the app up, and notices its task done") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    REQUIRE(tour.chapters().size() == 17);
    for (int i = 0; i < static_cast<int>(tour.chapters().size()); ++i) {
        const TourChapter& c = tour.chapters()[static_cast<size_t>(i)];
        INFO("chapter " << i + 1 << " " << c.id);
        Session s = some_other_model();
        ViewState v;
        v.tab = View::weights;
        auto st = tour.open(i, s, v, kAssets);
        INFO((st ? "" : st.error().message));
        REQUIRE(st);
        CHECK(tour.current() == i);
        CHECK(s.model_name().find(c.model) != std::string::npos);
        // A decoder-only model reads the chapter's sentence as its prompt, the target side.
        CHECK((s.stepper().config().arch == Arch::decoder_only ? s.tgt_text() : s.src_text()) == c.src);
        CHECK(std::string(view_id(v.tab)) == c.view);
        if (!c.step.empty())
            CHECK(s.stepper().cursor() == *s.stepper().find(c.step) + 1);
        else
            CHECK(s.stepper().cursor() == s.stepper().size());
        CHECK(v.playground.experiment == c.playground_experiment);
        CHECK_FALSE(tour.task_done(s, v));
        do_the_task(tour, c, s, v);
        CHECK(tour.task_done(s, v));
    }
}

TEST_CASE("opening a chapter undoes the edits of the one before") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    Session s = some_other_model();
    ViewState v;
    REQUIRE(tour.open(2, s, v, kAssets));  // multi-head attention
    REQUIRE(s.toggle_head({AttentionUse::encoder_self, 0}, 1));
    CHECK(tour.task_done(s, v));
    REQUIRE(tour.open(2, s, v, kAssets));
    CHECK(s.stepper().inputs().ablated_heads.empty());
    CHECK_FALSE(tour.task_done(s, v));
}

TEST_CASE("in predict mode a chapter opens with its view covered") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    Session s = some_other_model();
    ViewState v;
    v.settings.predict = true;
    REQUIRE(tour.open(0, s, v, kAssets));
    CHECK(v.stepper.hidden);
    v.settings.predict = false;
    REQUIRE(tour.open(1, s, v, kAssets));
    CHECK_FALSE(v.stepper.hidden);
}

TEST_CASE("a chapter that cannot be set up closes the tour with a one-line reason") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    Session s = some_other_model();
    ViewState v;
    auto past_end = tour.open(99, s, v, kAssets);
    REQUIRE_FALSE(past_end);
    CHECK(past_end.error().message == "the tour has chapters 1 to 17");
    CHECK_FALSE(tour.active());
    // The bundled model is missing from this assets folder: the chapter names itself and the file.
    auto missing = tour.open(0, s, v, ATTNLAB_SOURCE_DIR "/tests");
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message.rfind("tour chapter \"stacks\": ", 0) == 0);
    CHECK(missing.error().message.find("en-ko.safetensors") != std::string::npos);
    CHECK(missing.error().message.find('\n') == std::string::npos);
    CHECK_FALSE(tour.active());
}

TEST_CASE("ending the tour ends predict mode, so no later step is covered unannounced") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    Session s = some_other_model();
    ViewState v;
    v.settings.predict = true;
    REQUIRE(tour.open(0, s, v, kAssets));
    REQUIRE(v.stepper.hidden);
    tour.close(v);
    CHECK_FALSE(tour.active());
    CHECK_FALSE(v.settings.predict);
    CHECK_FALSE(v.stepper.hidden);
}

TEST_CASE("the masks chapter shows padding: its sentences end in <pad>, and every mask blocks those keys") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    const auto masks = std::find_if(tour.chapters().begin(), tour.chapters().end(),
                                    [](const TourChapter& c) { return c.task == TourTaskKind::toggle_mask_cell; });
    REQUIRE(masks != tour.chapters().end());
    REQUIRE(masks->src_padding > 0);
    REQUIRE(masks->tgt_padding > 0);
    Session s = some_other_model();
    ViewState v;
    REQUIRE(tour.open(static_cast<int>(masks - tour.chapters().begin()), s, v, kAssets));
    const int pad = s.stepper().config().pad_id;
    const auto& src = s.stepper().inputs().src_ids;  // (S,)
    const auto& tgt = s.stepper().inputs().tgt_ids;  // (T,)
    REQUIRE(static_cast<int>(src.size()) > masks->src_padding);
    CHECK(std::count(src.end() - masks->src_padding, src.end(), pad) == masks->src_padding);
    CHECK(std::count(tgt.end() - masks->tgt_padding, tgt.end(), pad) == masks->tgt_padding);
    // The padded keys are blocked for every query: their columns of the encoder's and decoder's masks are 0.
    for (auto [use, n_keys, padding] : {std::tuple{AttentionUse::encoder_self, src.size(), masks->src_padding},
                                        std::tuple{AttentionUse::decoder_self, tgt.size(), masks->tgt_padding}}) {
        const Tensor* mask = s.stepper().output(StepId::mask_of(use));  // (N, N)
        REQUIRE(mask);
        const ConstMatMap m = mask->matrix();
        for (size_t k = n_keys - static_cast<size_t>(padding); k < n_keys; ++k)
            CHECK(m.col(static_cast<Eigen::Index>(k)).maxCoeff() == 0.0f);
        CHECK(m.col(0).maxCoeff() == 1.0f);  // a real token stays visible
    }
}

namespace {

const std::string kFixtures = ATTNLAB_SOURCE_DIR "/tests/golden/fixtures";

Session fixture_session(const std::string& name, const std::string& src) {
    auto s = Session::from_file(kFixtures + "/" + name, src, "", 1);
    REQUIRE(s);
    return std::move(*s);
}

// What a chapter's view points at, checked in the model it runs on: every need met, its stop and task steps
// present (the stop before the task's step), the attention use of its attention or masks view present at its
// layer, the RoPE view's task on a rotary model.
void check_points_at_what_exists(const TourChapter& c, const Session& s, const ViewState& v) {
    const ModelConfig& config = s.stepper().config();
    for (TourNeed need : c.needs) {
        INFO("need " << tour_need_name(need));
        CHECK(meets(config, need));
    }
    if (!c.step.empty()) CHECK(s.stepper().find(c.step));
    if (c.task == TourTaskKind::step_past) {
        REQUIRE(s.stepper().find(c.task_step));
        CHECK(*s.stepper().find(c.task_step) >= s.stepper().cursor());
    }
    if (v.tab == View::attention || v.tab == View::masks) {
        CHECK(s.stepper().find(StepId::mask_of(v.attention.family)));
        CHECK(s.stepper().find(StepId::attention_at({v.attention.family, c.layer}, AttentionStage::weights)));
    }
    if (c.task == TourTaskKind::change_rope_rows) CHECK(config.positional == Positional::rotary);
    if (c.task == TourTaskKind::change_pe_dims) CHECK(config.positional != Positional::rotary);
}

std::vector<int> part_chapters(const TourRunner& tour, const std::string& part) {
    std::vector<int> out;
    for (int i = 0; i < static_cast<int>(tour.chapters().size()); ++i)
        if (tour.chapters()[static_cast<size_t>(i)].part == part) out.push_back(i);
    return out;
}

}  // namespace

TEST_CASE("every chapter points at steps and views that exist in the model it runs on") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    for (int i = 0; i < static_cast<int>(tour.chapters().size()); ++i) {
        const TourChapter& c = tour.chapters()[static_cast<size_t>(i)];
        INFO("chapter " << i + 1 << " " << c.id);
        Session s = some_other_model();
        ViewState v;
        REQUIRE(tour.open(i, s, v, kAssets));
        check_points_at_what_exists(c, s, v);
    }
}

TEST_CASE("today's models run on the tour's Llama-template model, reopened fresh for each chapter") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    const std::vector<int> today = part_chapters(tour, "today");
    REQUIRE(today.size() == 6);
    Session s = some_other_model();  // an encoder-decoder: no chapter of the part can keep it
    ViewState v;
    for (int i : today) {
        INFO(tour.chapters()[static_cast<size_t>(i)].id);
        REQUIRE(tour.open(i, s, v, kAssets));
        CHECK(s.model_name() == llama_tiny_name());
        CHECK_FALSE(tour.model_choice().kept);
        CHECK_FALSE(tour.model_choice().missing);
        const ModelConfig& c = s.stepper().config();
        CHECK(c.arch == Arch::decoder_only);
        CHECK(uses_llama_template(c.family));
        CHECK(c.norm_first);
        CHECK(c.n_heads == 4);
        CHECK(c.kv_heads() == 2);
        CHECK(s.tgt_text() == tour.chapters()[static_cast<size_t>(i)].src);  // the prompt of a decoder-only model
        // The learner's edit does not carry over into the next chapter, which reopens the model.
        REQUIRE(s.toggle_head({AttentionUse::decoder_self, 0}, 0));
    }
    CHECK(s.stepper().inputs().ablated_heads.size() == 1);
    REQUIRE(tour.open(today.front(), s, v, kAssets));
    CHECK(s.stepper().inputs().ablated_heads.empty());
}

TEST_CASE("a Llama-family model the learner opened is kept by every chapter whose needs it meets") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    const std::vector<int> today = part_chapters(tour, "today");
    REQUIRE(today.size() == 6);
    for (const char* fixture : {"hf_llama", "hf_mistral", "hf_qwen2", "hf_qwen3", "hf_llama3_scaled"}) {
        for (int i : today) {
            const TourChapter& c = tour.chapters()[static_cast<size_t>(i)];
            INFO(fixture << " in chapter " << c.id);
            Session s = fixture_session(fixture, "1 14 9 17 6 3 22 8");
            const std::vector<int> ids = s.stepper().inputs().tgt_ids;
            REQUIRE(s.toggle_head({AttentionUse::decoder_self, 0}, 1));  // an edit the chapter undoes
            ViewState v;
            auto st = tour.open(i, s, v, kAssets);
            INFO((st ? "" : st.error().message));
            REQUIRE(st);
            CHECK(tour.model_choice().kept);
            CHECK(s.model_name().find(fixture) != std::string::npos);
            CHECK(s.stepper().inputs().tgt_ids == ids);  // the learner's input stays
            CHECK(s.stepper().inputs().ablated_heads.empty());
            check_points_at_what_exists(c, s, v);
            CHECK_FALSE(tour.task_done(s, v));
            do_the_task(tour, c, s, v);
            CHECK(tour.task_done(s, v));
        }
    }
}

TEST_CASE("a Llama-family model without grouped-query attention gives way to the tour's model, which says why") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    const std::vector<int> today = part_chapters(tour, "today");
    const auto gqa = std::find_if(today.begin(), today.end(), [&](int i) {
        const auto& needs = tour.chapters()[static_cast<size_t>(i)].needs;
        return std::find(needs.begin(), needs.end(), TourNeed::grouped_query) != needs.end();
    });
    REQUIRE(gqa != today.end());
    Session s = fixture_session("hf_llama_linear", "1 2 3");  // 3 query heads, 3 K/V heads
    REQUIRE(s.stepper().config().kv_heads() == s.stepper().config().n_heads);
    ViewState v;
    REQUIRE(tour.open(*gqa, s, v, kAssets));
    CHECK_FALSE(tour.model_choice().kept);
    REQUIRE(tour.model_choice().missing);
    CHECK(*tour.model_choice().missing == TourNeed::grouped_query);
    CHECK(s.model_name() == llama_tiny_name());
    CHECK(s.stepper().config().kv_heads() < s.stepper().config().n_heads);
    // The same model keeps the chapters it has all the needs of.
    Session again = fixture_session("hf_llama_linear", "1 2 3");
    REQUIRE(tour.open(today.front(), again, v, kAssets));
    CHECK(tour.model_choice().kept);
}

TEST_CASE("the cross-attention chapter keeps a Marian folder the learner opened, with its own sentence") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    int cross = -1;
    for (int i = 0; i < static_cast<int>(tour.chapters().size()); ++i)
        if (tour.chapters()[static_cast<size_t>(i)].id == "cross-attention") cross = i;
    REQUIRE(cross >= 0);
    const TourChapter& c = tour.chapters()[static_cast<size_t>(cross)];
    Session s = fixture_session("hf_marian", "the cat sat");
    REQUIRE(s.stepper().config().family == Family::marian);
    const std::vector<int> src = s.stepper().inputs().src_ids;
    REQUIRE(s.toggle_head({AttentionUse::cross, 0}, 1));  // an edit the chapter undoes
    ViewState v;
    REQUIRE(tour.open(cross, s, v, kAssets));
    CHECK(tour.model_choice().kept);
    CHECK(s.model_name().find("hf_marian") != std::string::npos);
    CHECK(s.stepper().inputs().src_ids == src);
    CHECK(s.stepper().inputs().ablated_heads.empty());
    CHECK(v.tab == View::attention);
    CHECK(v.attention.family == AttentionUse::cross);
    check_points_at_what_exists(c, s, v);
    CHECK_FALSE(tour.task_done(s, v));
    do_the_task(tour, c, s, v);
    CHECK(tour.task_done(s, v));

    // A translator file of our own (a golden fixture's random weights) is not kept: the chapter opens its bundled one.
    Session ours = fixture_session("post_ln_relu.model.safetensors", "3 4 5");
    REQUIRE(ours.stepper().config().arch == Arch::encoder_decoder);
    REQUIRE(tour.open(cross, ours, v, kAssets));
    CHECK_FALSE(tour.model_choice().kept);
    CHECK(ours.model_name().find("en-ko") != std::string::npos);
}

TEST_CASE("a chapter pointing at what its model lacks does not open, and says what is missing") {
    struct Case {
        std::string fields, expected;
    };
    const std::string text = R"({"title": "t", "look": "l", "task": "k", "done": "d"})";
    // On the tiny encoder-decoder preset: no rotary positions, no decoder_only, no layer 5.
    const Case cases[] = {
        {R"("view": "positional", "task": "change_rope_rows")", "need rotary positions"},
        {R"("view": "attention", "layer": 5, "task": "ablate_head")",
         "no encoder_self attention step weights in layer 5"},
        {R"("view": "attention", "head": 9, "task": "ablate_head")", "no head 9"},
        {R"("view": "ffn", "task": "step_past", "step": "decoder.layers.1.norm1", "task_step": "decoder.layers.0.norm1")",
         "has run before the chapter opens"},
        {R"("view": "ffn", "task": "step_past", "task_step": "decoder.layers.0.ffn.gate")",
         "no step decoder.layers.0.ffn.gate"},
        {R"("view": "masks", "needs": ["rotary"], "task": "toggle_mask_cell")", "needs a model with rotary"},
        {R"("view": "residual", "task": "switch_norm_placement")", "the norm placement switch is in the model view"},
        {R"("view": "attention", "task": "scrub_checkpoint")", "the checkpoint slider is in the training view"},
    };
    for (const Case& k : cases) {
        INFO(k.fields);
        auto chapters = parse_tour(R"({"chapters": [{"id": "x", "section": "3.1", "model": "tiny", "src": "abc", )" +
                                       k.fields + R"(, "en": )" + text + R"(, "ko": )" + text + "}]}",
                                   "tour.json");
        REQUIRE(chapters);
        TourRunner tour;
        tour.use_chapters(std::move(*chapters));
        Session s = some_other_model();
        ViewState v;
        auto st = tour.open(0, s, v, kAssets);
        REQUIRE_FALSE(st);
        CHECK(st.error().message.rfind("tour chapter \"x\": ", 0) == 0);
        CHECK(st.error().message.find(k.expected) != std::string::npos);
        CHECK_FALSE(tour.active());
    }
}

TEST_CASE("\"Which head did it?\" opens Why this output? on its metric, and wants the strongest head off") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    const auto& chapters = tour.chapters();
    const auto it = std::find_if(chapters.begin(), chapters.end(), [](const TourChapter& c) {
        return c.task == TourTaskKind::ablate_strongest_head;
    });
    REQUIRE(it != chapters.end());
    Session s = some_other_model();
    ViewState v;
    REQUIRE(tour.open(static_cast<int>(it - chapters.begin()), s, v, kAssets));
    // logit-diff:32,34@0: 나 over 너 at the first target position, which the chapter's empty target makes the last.
    CHECK(v.output.why.open);
    CHECK(v.output.why.diff);
    CHECK(v.output.why.token == 32);
    CHECK(v.output.why.other == 34);
    CHECK(v.output.why.position == 0);
    CHECK(s.stepper().inputs().tgt_ids.size() == 1);
    CHECK(v.output.patching.corrupt == "you like red apples");  // the Patching tab's corrupted source, ready
    CHECK(v.output.patching.piece == "cross-heads");
    // `attnlab-cli attribute` (checked against PyTorch in [attribution]) puts decoder layer 1's cross-attention
    // head 2 first among the heads (1.34 of the 7.44), and head 0 of the same attention second (0.93).
    const auto best = tour.strongest_head(s);
    REQUIRE(best);
    CHECK(best->first == AttentionSite{AttentionUse::cross, 1});
    CHECK(best->second == 2);
    REQUIRE(s.toggle_head({AttentionUse::cross, 1}, 0));  // the runner-up alone is not the task
    CHECK_FALSE(tour.task_done(s, v));
    REQUIRE(s.toggle_head({AttentionUse::cross, 1}, 2));
    CHECK(tour.task_done(s, v));
    CHECK(tour.head_off_change(s));  // the card says what both did to 나
}

TEST_CASE("the positional encodings chapter opens every scheme side by side; the next chapter closes the comparison") {
    TourRunner tour;
    REQUIRE(tour.load(kAssets));
    const auto& chapters = tour.chapters();
    const auto it = std::find_if(chapters.begin(), chapters.end(),
                                 [](const TourChapter& c) { return c.id == "position-schemes"; });
    REQUIRE(it != chapters.end());
    CHECK(it->positional_compare);
    Session s = some_other_model();
    ViewState v;
    v.positional.compare = {false, 1, 3};
    REQUIRE(tour.open(static_cast<int>(it - chapters.begin()), s, v, kAssets));
    CHECK(v.tab == View::positional);
    CHECK(v.positional.compare.on);
    CHECK(v.positional.compare.layer == it->layer);
    CHECK(v.positional.compare.head == it->head);
    // the paper's positional-encoding chapter shows the model's own sinusoids again
    const auto pe = std::find_if(chapters.begin(), chapters.end(),
                                 [](const TourChapter& c) { return c.id == "positional-encoding"; });
    REQUIRE(pe != chapters.end());
    REQUIRE(tour.open(static_cast<int>(pe - chapters.begin()), s, v, kAssets));
    CHECK_FALSE(v.positional.compare.on);
}
