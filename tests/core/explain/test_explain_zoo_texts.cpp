// The 2026 zoo's texts name what the open model does: the stage its mask reads (Gemma 2's capped scores, ALiBi's
// and T5's biased ones), the family whose layers leave RoPE out, and T5's constant scale of the logits.
#include "explain_support.h"

#include <algorithm>

using namespace attnlab;
using namespace attnlab::test;

namespace {

FamilyModel family_model(const std::string& name) {
    for (FamilyModel& m : hugging_face_models())
        if (m.name == name) return m;
    FAIL("no family model " << name);
    return {};
}

Explanation explained(const Stepper& s, const StepId& id, Language language = Language::english) {
    const auto i = s.find(id);
    REQUIRE(i);
    auto e = explain_step(bundled_table(language), s, *i);
    if (!e) FAIL(e.error().message);
    return *e;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("the masked stage names the stage it reads: scaled, biased (ALiBi, T5) or capped (Gemma 2)",
          "[explain][zoo]") {
    const std::pair<const char*, const char*> reads[] = {
        {"llama", "scaled"}, {"bloom", "biased"}, {"t5", "biased"}, {"gemma2", "capped"}, {"gemma3", "scaled"}};
    const std::pair<const char*, const char*> words[] = {{"scaled", "scaled scores"},
                                                        {"biased", "scores with the position bias added"},
                                                        {"capped", "soft-capped scores"}};
    for (const auto& [family, stage] : reads) {
        INFO(family);
        const FamilyModel m = family_model(family);
        Stepper s = m.stepper();
        const AttentionUse use = m.config.arch == Arch::encoder_decoder ? AttentionUse::encoder_self
                                                                        : AttentionUse::decoder_self;
        const StepId masked = StepId::attention_at({use, 0}, AttentionStage::masked);
        const std::string formula = std::string("masked = ") + stage + ", with −∞ where M[i, j] = 0";
        CHECK(s.step(*s.find(masked)).formula == formula);  // the step's own
        const Explanation e = explained(s, masked);
        CHECK(e.formula == formula);
        const std::string stage_read = stage;  // a lambda may not capture a structured binding (clang 14)
        const auto word = std::find_if(std::begin(words), std::end(words),
                                       [&](const auto& w) { return w.first == stage_read; });
        CHECK(e.what == std::string("Copies the ") + word->second + " and writes −∞ wherever the mask is 0.");
    }
    const FamilyModel gemma2 = family_model("gemma2");
    const Explanation ko = explained(gemma2.stepper(),
                                     StepId::attention_at({AttentionUse::decoder_self, 0}, AttentionStage::masked),
                                     Language::korean);
    CHECK(has(ko.what, "소프트 캡을 씌운 점수"));
    CHECK(has(ko.formula, "masked = capped"));
}

TEST_CASE("a NoPE layer's scores name the open model's family, or none", "[explain][zoo]") {
    const std::pair<const char*, const char*> texts[] = {
        {"smollm3", "This SmolLM3 model drops RoPE in 1 of its 4 layers (layer 3)"},
        {"mistral with local and global layers", "This Mistral model drops RoPE in 1 of its"}};
    for (const auto& [name, text] : texts) {
        INFO(name);
        const FamilyModel m = family_model(name);
        const int layer = m.config.no_rope_layers.front();
        const Explanation e =
            explained(m.stepper(), StepId::attention_at({AttentionUse::decoder_self, layer}, AttentionStage::scores));
        CHECK(e.kind == "attn.scores_nope");
        CHECK(has(e.why, text));
        CHECK_FALSE(has(e.why, name == std::string("smollm3") ? "Mistral" : "SmolLM3"));
    }
    const FamilyModel smollm3 = family_model("smollm3");
    const Explanation ko = explained(
        smollm3.stepper(), StepId::attention_at({AttentionUse::decoder_self, 3}, AttentionStage::scores),
        Language::korean);
    CHECK(has(ko.why, "이 SmolLM3 모델은 층 4개 중 1개(층 3)에서 RoPE를 빼서"));
}

TEST_CASE("T5's logits show their constant scale; a model without one shows none", "[explain][zoo]") {
    const FamilyModel t5 = family_model("t5");
    Stepper s = t5.stepper();
    s.run_all();
    const StepId logits = StepId::head(StepKind::logits, s.config());
    REQUIRE(s.config().logit_scale == 0.25f);  // tied, d_model 16: 16^−½
    CHECK(s.step(*s.find(logits)).formula == "logits = x·Eᵀ · s  (tied to the embedding)");
    const Explanation e = explained(s, logits);
    CHECK(e.formula == "logits = x·Eᵀ · s  (tied to the embedding)");  // the step's own
    CHECK(e.values.at("logit_scale_value") == ";  s = 0.250");
    CHECK(has(e.what, "multiplied by this model's constant s"));
    CHECK(has(explained(s, logits, Language::korean).what, "상수 s를 곱합니다"));
    const FamilyModel gpt2 = family_model("gpt2");
    const Explanation plain = explained(gpt2.stepper(), StepId::head(StepKind::logits, gpt2.config));
    CHECK(plain.formula == "logits = x·Eᵀ  (tied to the embedding)");
    CHECK_FALSE(has(plain.what, "constant s"));
}

TEST_CASE("an encoder's masked-token probabilities name the open model, not BERT for every encoder", "[explain][zoo]") {
    const FamilyModel m = family_model("modernbert");
    const Stepper s = m.stepper();
    const StepId probs = StepId::head(StepKind::probs, m.config);
    CHECK(explained(s, probs).why.starts_with("This ModernBERT model was trained as a masked language model"));
    CHECK(explained(s, probs, Language::korean).why.starts_with("이 ModernBERT 모델은 마스크드 언어 모델로"));
}
