// A column of n tokens spread down [top, top + height], centred, at most max_step apart (the head view's query
// and key columns): where token i sits, and which token's band holds a pointer.
#pragma once

namespace attnlab::gui {

struct TokenColumn {
    float first = 0.0f, step = 0.0f;  // the centre of token 0, and the distance between two
    int n = 0;
    static TokenColumn spread(float top, float height, int n, float max_step);
    float y(int i) const { return first + static_cast<float>(i) * step; }
    int at(float y) const;  // the token whose band (step tall, centred on it) holds y, or -1
};

}  // namespace attnlab::gui
