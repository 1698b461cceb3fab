// The BF16 llama folder (tests/golden/make_hf_bf16_golden.py) traced with --bf16-products dot: x rounded to BF16 before
// each product with a BF16 weight moves the logits 2.02e-3 (max |difference| / max |logit|) from PyTorch's float32 pass
// on this CPU (AMD EPYC, AVX512_BF16), where the exact path is 1.95e-7 from it and PyTorch's bfloat16 pass, which
// rounds every activation, 3.50e-3. Without AVX512_BF16 the run is the exact one, bit for bit.
#include "hf_golden_support.h"
#include "ops/gemm_bf16_products.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <string>

using namespace attnlab;
using namespace attnlab::test;

namespace {


// Asks for dot_bf16 while it lives; exact again after, however the test ends.
struct DotAsked {
    DotAsked() : in_use(set_bf16_products(Bf16Products::dot_bf16)) {}
    ~DotAsked() { set_bf16_products(Bf16Products::exact); }
    Bf16Products in_use;
};

// The measured 2.02e-3 and a quarter more: vdpbf16ps is deterministic, but whether it rounds each pair's sum once or
// twice is the CPU's (Intel's and AMD's may differ in the last bit of some sums), which moves the figure a little.
constexpr double kDotBound = 2.5e-3;

}  // namespace

TEST_CASE("A BF16 llama folder with vdpbf16ps products stays near PyTorch's float32 pass", "[hf][llama][bf16][bf16-dot]") {
    const FixtureRun exact = run_fixture("hf_llama_bf16");
    const DotAsked asked;
    const FixtureRun dot = run_fixture("hf_llama_bf16");
    const Tensor* exact_logits = exact.stepper.output("logits");
    const Tensor* logits = dot.stepper.output("logits");
    REQUIRE(exact_logits);
    REQUIRE(logits);
    const bool same = exact_logits->data.size() == logits->data.size() &&
                      std::memcmp(exact_logits->data.data(), logits->data.data(), logits->data.size() * sizeof(float)) == 0;
    if (!cpu_has_bf16_dot()) {  // the fallback: the exact run
        CHECK(asked.in_use == Bf16Products::exact);
        CHECK(same);
        return;
    }
    REQUIRE(asked.in_use == Bf16Products::dot_bf16);
    CHECK(!same);
    auto file = io::read_safetensors(hf_fixture("hf_llama_bf16") + "/expected.safetensors");
    REQUIRE(file);
    const double from_f32 = relative_distance(*logits, file->tensors.at("logits_f32"));
    const double from_bf16 = relative_distance(*logits, file->tensors.at("logits_bf16"));
    const double bf16_from_f32 = std::stod(file->metadata.at("bf16_from_f32"));  // the script's two passes, 3.5e-3
    INFO("from PyTorch's float32 pass " << from_f32 << ", from its bfloat16 pass " << from_bf16);
    CHECK(from_f32 < kDotBound);
    CHECK(from_f32 > 1e-3);  // the exact path's is 2e-7: x was rounded
    CHECK(from_f32 < bf16_from_f32);
}
