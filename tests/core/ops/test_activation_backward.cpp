// activation_backward against central finite differences of activation_forward (grad_check.h), and at ReLU's kink.
#include "grad_check.h"
#include "ops/activation.h"

#include <catch2/catch.hpp>

#include <cmath>

using namespace attnlab;
using namespace attnlab::grad_check;

TEST_CASE("activation_backward matches finite differences for ReLU, GELU and GELU-tanh", "[grad]") {
    const Activation kinds[] = {Activation::relu, Activation::gelu, Activation::gelu_tanh, Activation::silu};
    for (Activation kind : kinds) {
        SECTION(to_string(kind)) {
            Tensor h = random_tensor({4, 7}, 31, 1.5f);
            // Keep every entry at least 0.05 from ReLU's kink, far more than the step.
            for (float& v : h.data)
                if (std::abs(v) < 0.05f) v = v < 0.0f ? v - 0.05f : v + 0.05f;
            h.data[0] = 4.0f;  // the tails, where GELU ≈ ReLU
            h.data[1] = -4.0f;
            const Tensor r = random_tensor(h.shape, 32);
            auto loss = [&] { return weighted_sum(r, activation_forward(h, kind)); };
            const Tensor dh = activation_backward(h, r, kind);
            check_against_fd(h, dh, loss, "dh");
        }
    }
}

TEST_CASE("ReLU's derivative is 0 at 0, as PyTorch's", "[grad]") {
    Tensor h({5});
    h.data = {0.0f, -0.0f, 2.0f, -2.0f, 1e-30f};
    Tensor dy({5});
    dy.data = {3.0f, 3.0f, 3.0f, 3.0f, 3.0f};
    CHECK(activation_backward(h, dy, Activation::relu).data == FloatBuffer{0.0f, 0.0f, 3.0f, 0.0f, 3.0f});
    // GELU'(0) = Φ(0) = ½ in both forms.
    CHECK(activation_backward(h, dy, Activation::gelu).data[0] == Approx(1.5f).margin(1e-6));
    CHECK(activation_backward(h, dy, Activation::gelu_tanh).data[0] == Approx(1.5f).margin(1e-6));
}
