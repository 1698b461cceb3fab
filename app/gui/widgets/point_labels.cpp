// Greedy label placement for scatter plots: candidate spots in rings around each point.
#include "widgets/point_labels.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace attnlab::gui {

namespace {

// The spot's box for direction (dx, dy) in {-1, 0, 1}², `reach` pixels beyond the dot's edge.
LabelRect spot(LabelPoint p, LabelSize s, int dx, int dy, float reach) {
    const float x = dx > 0 ? p.x + reach : dx < 0 ? p.x - reach - s.w : p.x - 0.5f * s.w;
    const float y = dy > 0 ? p.y + reach : dy < 0 ? p.y - reach - s.h : p.y - 0.5f * s.h;
    return {x, y, x + s.w, y + s.h};
}

LabelPoint nearest_on(const LabelRect& r, LabelPoint p) {
    return {std::clamp(p.x, r.x0, r.x1), std::clamp(p.y, r.y0, r.y1)};
}

bool inside(const LabelRect& outer, const LabelRect& r) {
    return r.x0 >= outer.x0 && r.y0 >= outer.y0 && r.x1 <= outer.x1 && r.y1 <= outer.y1;
}

// Directions tried at each distance: right first (the way text reads), then left, above, below, diagonals.
constexpr int kDirections[8][2] = {{1, 0}, {-1, 0}, {0, -1}, {0, 1}, {1, -1}, {1, 1}, {-1, -1}, {-1, 1}};

}  // namespace

bool segment_hits_rect(LabelPoint a, LabelPoint b, const LabelRect& r) {
    // Liang-Barsky clipping: the part of a + t (b - a), t in [0, 1], inside the rect.
    float t0 = 0.0f, t1 = 1.0f;
    const float d[2] = {b.x - a.x, b.y - a.y}, lo[2] = {r.x0 - a.x, r.y0 - a.y}, hi[2] = {r.x1 - a.x, r.y1 - a.y};
    for (int k = 0; k < 2; ++k) {
        if (std::abs(d[k]) < 1e-9f) {
            if (lo[k] > 0.0f || hi[k] < 0.0f) return false;
            continue;
        }
        float ta = lo[k] / d[k], tb = hi[k] / d[k];
        if (ta > tb) std::swap(ta, tb);
        t0 = std::max(t0, ta);
        t1 = std::min(t1, tb);
        if (t0 > t1) return false;
    }
    return true;
}

LabelRect point_label_beside(LabelPoint point, LabelSize size, const PointLabelRequest& request) {
    return spot(point, size, 1, 0, request.dot_radius + request.gap);
}

std::vector<PointLabel> place_point_labels(const std::vector<LabelPoint>& points, const std::vector<LabelSize>& sizes,
                                           const PointLabelRequest& request) {
    const size_t n = std::min(points.size(), sizes.size());
    std::vector<PointLabel> out(n);
    std::vector<LabelRect> taken;  // placed labels, each grown by the gap
    std::vector<std::pair<LabelPoint, LabelPoint>> leaders;  // placed leader lines: no later label covers one
    std::vector<LabelRect> dots;
    const float r = request.dot_radius;
    for (size_t i = 0; i < n; ++i)
        dots.push_back(
            LabelRect{points[i].x - r, points[i].y - r, points[i].x + r, points[i].y + r}.grown(request.gap));
    for (size_t i = 0; i < n; ++i) {
        const LabelPoint p = points[i];
        const LabelSize s = sizes[i];
        const float step = s.h + 2.0f * request.gap;  // each ring one line further out
        for (int ring = 0; ring <= request.rings && !out[i].placed; ++ring) {
            const float reach = r + request.gap + ring * step;
            for (const auto& dir : kDirections) {
                const LabelRect box = spot(p, s, dir[0], dir[1], reach);
                if (!inside(request.area, box)) continue;
                const auto hits = [&](const LabelRect& o) { return o.overlaps(box); };
                if (std::any_of(taken.begin(), taken.end(), hits) || std::any_of(dots.begin(), dots.end(), hits))
                    continue;
                const LabelRect clear = box.grown(request.gap);
                if (std::any_of(leaders.begin(), leaders.end(),
                                [&](const auto& seg) { return segment_hits_rect(seg.first, seg.second, clear); }))
                    continue;
                const LabelPoint to = nearest_on(box, p);
                const float dx = to.x - p.x, dy = to.y - p.y, len = std::sqrt(dx * dx + dy * dy);
                const float edge = std::min(len, request.dot_radius) / std::max(len, 1e-6f);
                const LabelPoint from{p.x + dx * edge, p.y + dy * edge};
                if (ring > 0 && std::any_of(taken.begin(), taken.end(),
                                            [&](const LabelRect& o) { return segment_hits_rect(from, to, o); }))
                    continue;
                out[i] = {true, box, ring > 0, from, to};
                taken.push_back(clear);
                if (ring > 0) leaders.emplace_back(from, to);
                break;
            }
        }
    }
    return out;
}

}  // namespace attnlab::gui
