// One training step against PyTorch autograd and torch.optim.Adam (tests/golden/make_train_golden.py):
// the smoothed loss, every parameter's gradient, and the weights after one Adam step.
#include "../test_support.h"
#include "io/model_file.h"
#include "train/adam.h"
#include "train/transformer_grad.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace attnlab;

namespace {

const std::string kFixtures = std::string(ATTNLAB_SOURCE_DIR) + "/tests/golden/fixtures/";

std::vector<int> ids_of(const Tensor& t) {  // ids stored as floats
    std::vector<int> ids;
    for (float x : t.data) ids.push_back(static_cast<int>(std::lround(x)));
    return ids;
}

}  // namespace

TEST_CASE("a training step matches PyTorch: loss, gradients within 1e-4, one Adam step", "[golden][train]") {
    for (const char* name : {"train_post_ln", "train_pre_ln_tied"}) {
        INFO("case " << name);
        auto model = io::read_model(kFixtures + name + ".model.safetensors");
        if (!model) FAIL(model.error().message);
        auto expected = io::read_safetensors(kFixtures + name + ".train.safetensors");
        if (!expected) FAIL(expected.error().message);
        const auto& want = expected->tensors;

        Batch batch;
        const Tensor& src = want.at("batch.src");  // (B, S)
        batch.B = static_cast<int>(src.dim(0));
        batch.S = static_cast<int>(src.dim(1));
        batch.T = static_cast<int>(want.at("batch.tgt_in").dim(1));
        batch.pad_id = model->config.pad_id;
        batch.src = ids_of(src);
        batch.tgt_in = ids_of(want.at("batch.tgt_in"));
        batch.tgt_out = ids_of(want.at("batch.tgt_out"));

        TrainOptions options;
        options.label_smoothing = std::stof(expected->metadata.at("label_smoothing"));
        auto result = loss_and_gradients(model->config, model->weights, batch, options);
        if (!result) FAIL(result.error().message);
        CHECK(result->loss == Approx(want.at("loss").data[0]).epsilon(1e-5));

        REQUIRE(result->grads.size() == model->weights.all().size());
        for (const auto& [param, grad] : result->grads) {
            INFO("gradient of " << param);
            REQUIRE(want.count("grad." + param));
            const Tensor& torch_grad = want.at("grad." + param);
            REQUIRE(grad.shape == torch_grad.shape);
            CHECK(test::max_abs_diff(grad, torch_grad) < 1e-4f);
        }

        // Adam's first step moves each weight by lr·g/(|g| + ε): for a gradient that is only rounding noise
        // (e.g. the key bias, which softmax ignores) it is ±lr or 0 by chance. Those entries are skipped
        // and counted, to keep the check honest.
        Weights stepped = model->weights;
        Adam adam(AdamOptions{0.9f, 0.98f, 1e-9f, 4, 1.0f, 0.0f});
        const float lr = std::stof(expected->metadata.at("lr"));
        CHECK(lr == Approx(warmup_learning_rate(model->config.d_model, 1, 4, 1.0f)));
        adam.step(stepped, result->grads, lr);
        size_t compared = 0, skipped = 0;
        for (const auto& [param, tensor] : stepped.all()) {
            const Tensor& after = want.at("adam1." + param);
            const Tensor& torch_grad = want.at("grad." + param);
            for (size_t i = 0; i < after.data.size(); ++i) {
                const float g = torch_grad.data[i];
                if (std::abs(g) < 1e-4f) {
                    ++skipped;
                    continue;
                }
                ++compared;
                INFO(param << "[" << i << "]");
                REQUIRE(tensor->data[i] == Approx(after.data[i]).margin(1e-5));
            }
        }
        CHECK(compared > 2 * skipped);
    }
}
