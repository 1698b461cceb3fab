// The check behind every incremental re-run test: a stepper's trace is the one a fresh run writes.
#pragma once

#include "stepper.h"

#include <catch2/catch.hpp>

#include <cstring>

namespace attnlab::test {

// Every step below the cursor holds, bit for bit, what a fresh stepper run to the same cursor holds:
// the numbers (on-demand stages recomputed), the shape, the non-finite count and the fully masked rows.
inline void require_fresh_trace(const Stepper& a) {
    auto b = Stepper::create(a.config(), a.weights(), a.inputs());
    REQUIRE(b);
    b->run_to(a.cursor());
    for (size_t i = 0; i < a.cursor(); ++i) {
        const std::string& path = a.step(i).path;
        INFO(path);
        const TraceEntry* facts = a.run_facts(path);
        const TraceEntry* fresh_facts = b->run_facts(path);
        REQUIRE(facts);
        CHECK(facts->value.shape == fresh_facts->value.shape);
        CHECK(facts->non_finite == fresh_facts->non_finite);
        CHECK(facts->fully_masked_rows == fresh_facts->fully_masked_rows);
        const Tensor& x = *a.output(path);
        const Tensor& y = *b->output(path);
        CHECK((x.shape == y.shape && std::memcmp(x.data.data(), y.data.data(), x.data.size() * sizeof(float)) == 0));
    }
}

}  // namespace attnlab::test
