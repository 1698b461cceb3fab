// Predict mode (app/model/predict_mode): its menu-bar indicator shows exactly while it is on, in
// every mode of the window, and turning it off always uncovers the view.
#include "predict_mode.h"

#include <catch2/catch.hpp>

#include <cstdint>

using namespace attnlab::gui;

TEST_CASE("the predict-mode indicator shows while predict mode is on, classroom mode included", "[app][predict]") {
    ViewState v;
    CHECK_FALSE(shows_predict_indicator(v));
    toggle_predict(v);
    CHECK(shows_predict_indicator(v));
    v.settings.classroom = true;
    CHECK(shows_predict_indicator(v));
    v.settings.presentation = true;
    CHECK(shows_predict_indicator(v));
    toggle_predict(v);
    CHECK_FALSE(shows_predict_indicator(v));
}

TEST_CASE("in predict mode a step forward covers the view, and ending the mode uncovers it", "[app][predict]") {
    ViewState v;
    cover_after_step(v, 3, 4);
    CHECK_FALSE(v.stepper.hidden);  // not in predict mode

    toggle_predict(v);
    cover_after_step(v, SIZE_MAX, 4);  // the first frame: nothing ran before
    CHECK_FALSE(v.stepper.hidden);
    cover_after_step(v, 4, 3);  // a step back
    CHECK_FALSE(v.stepper.hidden);
    cover_after_step(v, 3, 4);
    CHECK(v.stepper.hidden);

    end_predict(v);  // the indicator clicked
    CHECK_FALSE(shows_predict_indicator(v));
    CHECK_FALSE(v.stepper.hidden);

    toggle_predict(v);
    cover_after_step(v, 4, 5);
    REQUIRE(v.stepper.hidden);
    toggle_predict(v);  // P again
    CHECK_FALSE(v.stepper.hidden);
}
