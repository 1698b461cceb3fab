// Axis-label placement: style per axis (horizontal, rotated, thinned, abbreviated), then the boxes.
#include "widgets/label_layout.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

namespace attnlab::gui {

LabelRect LabelRect::united(const LabelRect& o) const {
    if (o.empty()) return *this;
    if (empty()) return o;
    return {std::min(x0, o.x0), std::min(y0, o.y0), std::max(x1, o.x1), std::max(y1, o.y1)};
}

LabelRect LabelQuad::bounds() const {
    LabelRect r{corner[0].x, corner[0].y, corner[0].x, corner[0].y};
    for (const LabelPoint& p : corner)
        r = {std::min(r.x0, p.x), std::min(r.y0, p.y), std::max(r.x1, p.x), std::max(r.y1, p.y)};
    return r;
}

// Local text axes: u along the text, v down its height; a point (a, b) of the text lands at pos + a·u + b·v.
LabelQuad PlacedLabel::box() const {
    const float c = std::cos(angle), s = std::sin(angle);
    const LabelPoint u{c, -s}, v{s, c};
    const auto at = [&](float a, float b) { return LabelPoint{pos.x + a * u.x + b * v.x, pos.y + a * u.y + b * v.y}; };
    return {{at(0.0f, 0.0f), at(size.w, 0.0f), at(size.w, size.h), at(0.0f, size.h)}};
}

int AxisLabels::n_abbreviated() const {
    return static_cast<int>(
        std::count_if(placed.begin(), placed.end(), [](const PlacedLabel& l) { return l.abbreviated; }));
}

namespace {

float cross(LabelPoint o, LabelPoint a, LabelPoint b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

bool quad_contains(const LabelQuad& q, LabelPoint p) {
    bool neg = false, pos = false;
    for (int i = 0; i < 4; ++i) {
        const float c = cross(q.corner[i], q.corner[(i + 1) % 4], p);
        neg |= c < 0.0f;
        pos |= c > 0.0f;
    }
    return !(neg && pos);
}

// Byte offsets where each UTF-8 character of `s` starts.
std::vector<size_t> char_starts(const std::string& s) {
    std::vector<size_t> out;
    for (size_t i = 0; i < s.size(); ++i)
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) out.push_back(i);
    return out;
}

// 1, 2, 5, 10, 20, 50, …: the smallest at least k, so thinned numeric axes read 0, 5, 10, …
int round_stride(int k) {
    for (int base = 1;; base *= 10)
        for (int m : {1, 2, 5})
            if (m * base >= k) return m * base;
}

constexpr float kPi = 3.14159265f;

// One label drawn in a style, before thinning.
struct Candidate {
    PlacedLabel label;
    bool shown = false;  // false: empty, or too long to abbreviate
    // Where its start along the axis may slide when thinned and still mark its cell: its box over the cell's
    // centre and within the cells' span (the place it has when it may not move).
    float slide_lo = 0.0f, slide_hi = 0.0f;
};

struct Style {
    LabelStyle style = LabelStyle::horizontal;
    float angle = 0.0f;
};

// Whether labels in this style stand side by side along the axis (rows, flat or upright columns), so that one can
// slide along it; slanted ones are spaced across their text.
bool along_axis(const AxisLabelRequest& r, Style st) {
    return r.axis == LabelAxis::rows || st.style == LabelStyle::horizontal || std::cos(st.angle) < 1e-3f;
}

// A label's start along the axis, and how far it reaches along it.
float along_start(const PlacedLabel& l, const AxisLabelRequest& r) {
    return r.axis == LabelAxis::rows ? l.pos.y : l.pos.x;
}
float along_extent(const PlacedLabel& l, const AxisLabelRequest& r, Style st) {
    return r.axis == LabelAxis::columns && st.style == LabelStyle::horizontal ? l.size.w : l.size.h;
}
void set_along_start(PlacedLabel& l, const AxisLabelRequest& r, float start) {
    (r.axis == LabelAxis::rows ? l.pos.y : l.pos.x) = start;
}

// The range `cand` may slide in (see Candidate): over its cell's centre `mid`, and within the cells' `span`
// when it fits there (as its own place is kept). Only labels side by side along the axis slide.
void set_slide_range(Candidate& cand, const AxisLabelRequest& r, Style st, float mid, float span) {
    const float start = along_start(cand.label, r), extent = along_extent(cand.label, r, st);
    cand.slide_lo = cand.slide_hi = start;
    if (span < extent) return;
    cand.slide_lo = std::max(mid - extent, 0.0f);
    cand.slide_hi = std::min(mid, span - extent);
}

// Every label of `labels` placed in `style`, abbreviated to the room it has.
std::vector<Candidate> candidates(const std::vector<std::string>& labels, const std::vector<LabelSize>& sizes,
                                  const TextMeasure& measure, const AxisLabelRequest& r, Style st) {
    const int n = static_cast<int>(labels.size());
    const float span = n * r.pitch;
    const float s = std::sin(st.angle), c = std::cos(st.angle);
    std::vector<Candidate> out(labels.size());
    for (int i = 0; i < n; ++i) {
        Candidate& cand = out[static_cast<size_t>(i)];
        PlacedLabel& l = cand.label;
        l.index = i;
        l.angle = st.angle;
        const float mid = (i + 0.5f) * r.pitch;  // the cell's centre along the axis
        const LabelSize full = sizes[static_cast<size_t>(i)];
        // Below the cells: under their bottom edge, or a line down when they are shorter than a line (the row
        // labels, in the same font, overhang their bottom edge then).
        const float bottom = std::max(r.cells_height, full.h);
        float max_w = 0.0f;
        if (r.axis == LabelAxis::rows) {
            max_w = r.space - r.margin;
        } else if (st.style == LabelStyle::horizontal) {
            max_w = INFINITY;
        } else {
            max_w = (r.space - r.margin - full.h * c) / s;
            // Slanted, a label reaches past the far end: its foot centred on the column, it runs right above
            // the cells; its end centred on the column, it runs left below them.
            const float reach = r.side == LabelSide::above ? span + r.end_room - mid - 0.5f * full.h * s
                                                           : mid + r.end_room - 0.5f * full.h * s;
            if (c > 1e-3f) max_w = std::min(max_w, reach / c);
        }
        l.text = labels[static_cast<size_t>(i)];
        l.size = full;
        if (full.w > max_w) {
            l.text = abbreviate_label(l.text, max_w, measure);
            l.abbreviated = true;
            l.size = measure(l.text);
        }
        cand.shown = !l.text.empty();
        if (r.axis == LabelAxis::rows) {
            l.pos = {-r.margin - l.size.w, std::max(0.0f, std::min(mid - 0.5f * l.size.h, span - l.size.h))};
        } else if (st.style == LabelStyle::horizontal) {
            const float x = mid - 0.5f * l.size.w;
            const float y = r.side == LabelSide::above ? -r.margin - l.size.h : bottom + r.margin;
            l.pos = {span >= l.size.w ? std::clamp(x, 0.0f, span - l.size.w) : x, y};
        } else if (r.side == LabelSide::above) {  // the foot's lower corner r.margin over the cells
            l.pos = {mid - 0.5f * l.size.h * s, -r.margin - l.size.h * c};
        } else {  // the end's upper corner r.margin under the cells
            l.pos = {mid - l.size.w * c - 0.5f * l.size.h * s, bottom + r.margin + l.size.w * s};
        }
        // Upright (90°) labels stay within the cells' width, as flat ones do: the ends' labels move inwards
        // (by less than half a line) rather than overhang a neighbouring plot's labels or the window's edge.
        if (r.axis == LabelAxis::columns && st.style == LabelStyle::rotated && c < 1e-3f && span >= l.size.h)
            l.pos.x = std::clamp(l.pos.x, 0.0f, span - l.size.h);
        set_slide_range(cand, r, st, mid, span);
    }
    return out;
}

// The room two neighbouring labels keep between them along the axis.
float along_gap(const AxisLabelRequest& r, Style st) {
    const bool flat_columns = r.axis == LabelAxis::columns && st.style == LabelStyle::horizontal;
    return flat_columns ? std::max(r.gap, r.word_gap) : r.gap;
}

// Whether labels a < b (by index) come closer than the gap: along the axis for horizontal labels, across
// the text for rotated ones (parallel strips where they stand; conservative, as if every label were endless).
bool collide(const PlacedLabel& a, const PlacedLabel& b, const AxisLabelRequest& r, Style st) {
    if (r.axis == LabelAxis::rows) return a.pos.y + a.size.h + r.gap > b.pos.y;
    if (st.style == LabelStyle::horizontal) return a.pos.x + a.size.w + along_gap(r, st) > b.pos.x;
    const float s = std::sin(st.angle), c = std::cos(st.angle);  // across the text: along (s, c)
    return b.pos.x * s + b.pos.y * c < a.pos.x * s + a.pos.y * c + a.size.h + r.gap;
}

// The labels that are always shown, by priority: the kept one, the first, the last, each at its own place and only
// if it clears those before it. Checking neighbours suffices: each label's extent holds its own cell's centre.
std::set<int> fixed_labels(const std::vector<Candidate>& cands, const AxisLabelRequest& r, Style st) {
    const int n = static_cast<int>(cands.size());
    std::vector<int> order;
    if (r.keep >= 0 && r.keep < n) order.push_back(r.keep);
    const auto shown = [&](const Candidate& c) { return c.shown; };
    const auto first = std::find_if(cands.begin(), cands.end(), shown);
    if (first == cands.end()) return {};
    order.push_back(static_cast<int>(first - cands.begin()));
    order.push_back(static_cast<int>(std::find_if(cands.rbegin(), cands.rend(), shown).base() - cands.begin()) - 1);
    std::set<int> fixed;
    for (int i : order) {
        if (!cands[static_cast<size_t>(i)].shown || fixed.count(i)) continue;
        const auto next = fixed.upper_bound(i);
        if (next != fixed.end() &&
            collide(cands[static_cast<size_t>(i)].label, cands[static_cast<size_t>(*next)].label, r, st))
            continue;
        if (next != fixed.begin() &&
            collide(cands[static_cast<size_t>(*std::prev(next))].label, cands[static_cast<size_t>(i)].label, r, st))
            continue;
        fixed.insert(i);
    }
    return fixed;
}

// `cand` placed between the label shown before it and the next fixed one (either may be absent): at its own place
// if it clears both; else, when it may slide, at the nearest place in its range that does. False: no such place.
bool fit_between(const Candidate& cand, const PlacedLabel* before, const PlacedLabel* after, const AxisLabelRequest& r,
                 Style st, bool slide, PlacedLabel& out) {
    out = cand.label;
    if (!slide || !along_axis(r, st))
        return !(before && collide(*before, out, r, st)) && !(after && collide(out, *after, r, st));
    const float gap = along_gap(r, st);
    float lo = cand.slide_lo, hi = cand.slide_hi;
    if (before) lo = std::max(lo, along_start(*before, r) + along_extent(*before, r, st) + gap);
    if (after) hi = std::min(hi, along_start(*after, r) - gap - along_extent(out, r, st));
    if (lo > hi) return false;
    set_along_start(out, r, std::clamp(along_start(out, r), lo, hi));
    return true;
}

// The labels shown, in index order: the fixed ones (fixed_labels), and between them every stride-th from the
// first column or row, each that finds room. Thinned (`slide`), a label slides within its range to clear the one
// before it, so an end label moved inwards to stay within the cells does not push its neighbour out: the stride
// stays even. Only those next to a fixed label may find no room.
std::vector<PlacedLabel> thin(const std::vector<Candidate>& cands, const AxisLabelRequest& r, Style st, int stride,
                              bool slide) {
    const std::set<int> fixed = fixed_labels(cands, r, st);
    std::vector<PlacedLabel> out;
    auto next_fixed = fixed.begin();
    for (int i = 0; i < static_cast<int>(cands.size()); ++i) {
        const Candidate& cand = cands[static_cast<size_t>(i)];
        if (next_fixed != fixed.end() && i == *next_fixed) {
            out.push_back(cand.label);
            ++next_fixed;
            continue;
        }
        if (i % stride != 0 || !cand.shown) continue;
        const PlacedLabel* after = next_fixed != fixed.end() ? &cands[static_cast<size_t>(*next_fixed)].label : nullptr;
        PlacedLabel placed;
        if (fit_between(cand, out.empty() ? nullptr : &out.back(), after, r, st, slide, placed))
            out.push_back(std::move(placed));
    }
    return out;
}

// The smallest stride at which neighbouring labels clear each other.
int min_stride(const std::vector<Candidate>& cands, const AxisLabelRequest& r, Style st) {
    float need = 0.0f;  // the pitch-multiples two shown labels must be apart
    for (const Candidate& c : cands) {
        if (!c.shown) continue;
        const LabelSize z = c.label.size;
        const float along = r.axis == LabelAxis::rows            ? z.h
                            : st.style == LabelStyle::horizontal ? z.w
                                                                 : z.h / std::sin(st.angle);
        need = std::max(need, along + along_gap(r, st));
    }
    return std::max(1, static_cast<int>(std::ceil(need / r.pitch - 1e-4f)));
}

struct Plan {
    Style style;
    std::vector<Candidate> cands;
    bool thinned = false;
    int stride = 1;
    size_t shown = 0;     // with nothing kept
    int abbreviated = 0;  // among the shown
};

Plan plan(const std::vector<std::string>& labels, const std::vector<LabelSize>& sizes, const TextMeasure& measure,
          AxisLabelRequest r, Style st, bool thinned) {
    r.keep = -1;  // the style never depends on the hover
    Plan p{st, candidates(labels, sizes, measure, r, st), thinned};
    p.stride = thinned ? round_stride(min_stride(p.cands, r, st)) : 1;
    const std::vector<PlacedLabel> shown = thin(p.cands, r, st, p.stride, thinned);
    p.shown = shown.size();
    for (const PlacedLabel& l : shown) p.abbreviated += l.abbreviated ? 1 : 0;
    return p;
}

size_t n_nonempty(const std::vector<std::string>& labels) {
    return static_cast<size_t>(
        std::count_if(labels.begin(), labels.end(), [](const std::string& l) { return !l.empty(); }));
}

Plan choose(const std::vector<std::string>& labels, const std::vector<LabelSize>& sizes, const TextMeasure& measure,
            const AxisLabelRequest& r) {
    const size_t all = n_nonempty(labels);
    const Style horizontal{LabelStyle::horizontal, 0.0f};
    if (r.axis == LabelAxis::rows) {
        Plan p = plan(labels, sizes, measure, r, horizontal, false);
        return p.shown == all ? p : plan(labels, sizes, measure, r, horizontal, true);
    }
    Plan h = plan(labels, sizes, measure, r, horizontal, false);
    const float span = static_cast<float>(labels.size()) * r.pitch;
    const bool within = std::all_of(sizes.begin(), sizes.end(), [&](LabelSize z) { return z.w <= span; });
    if (h.shown == all && within) return h;
    // Rotated, every label shown: the angle that abbreviates fewest (45° on a tie: it reads more easily).
    std::optional<Plan> best;
    for (float angle : {0.25f * kPi, 0.5f * kPi}) {
        Plan p = plan(labels, sizes, measure, r, {LabelStyle::rotated, angle}, false);
        if (p.shown == all && (!best || p.abbreviated < best->abbreviated)) best = std::move(p);
    }
    if (best) return std::move(*best);
    // Too dense for every label: thinned, horizontally or at 90°, whichever shows more; at 90° on a tie when a
    // flat label is wider than all the cells (a thumbnail's 2,048 keys), which it would overhang.
    Plan ht = plan(labels, sizes, measure, r, horizontal, true);
    Plan vt = plan(labels, sizes, measure, r, {LabelStyle::rotated, 0.5f * kPi}, true);
    return vt.shown > ht.shown || (vt.shown == ht.shown && !within) ? std::move(vt) : std::move(ht);
}

}  // namespace

const PlacedLabel* AxisLabels::at(LabelPoint p) const {
    for (const PlacedLabel& l : placed)
        if (quad_contains(l.box(), p)) return &l;
    return nullptr;
}

std::string abbreviate_label(const std::string& text, float max_w, const TextMeasure& measure) {
    if (measure(text).w <= max_w) return text;
    const std::vector<size_t> starts = char_starts(text);
    static constexpr const char* kEllipsis = "…";
    int lo = 0, hi = static_cast<int>(starts.size()) - 1;  // characters kept: lo fits (0: none), hi + 1 does not
    while (lo < hi) {
        const int mid = (lo + hi + 1) / 2;
        if (measure(text.substr(0, starts[static_cast<size_t>(mid)]) + kEllipsis).w <= max_w)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo == 0 ? std::string() : text.substr(0, starts[static_cast<size_t>(lo)]) + kEllipsis;
}

AxisLabels layout_axis_labels(const std::vector<std::string>& labels, const TextMeasure& measure,
                              const AxisLabelRequest& request) {
    AxisLabels out;
    if (labels.empty() || request.pitch <= 0.0f) return out;
    std::vector<LabelSize> sizes;
    sizes.reserve(labels.size());
    for (const std::string& l : labels) sizes.push_back(l.empty() ? LabelSize{} : measure(l));
    Plan p = choose(labels, sizes, measure, request);
    out.style = p.style.style;
    out.angle = p.style.angle;
    out.stride = p.stride;
    for (const Candidate& c : p.cands)
        if (c.shown) out.reserve = out.reserve.united(c.label.box().bounds());
    out.placed = thin(p.cands, request, p.style, p.stride, p.thinned);
    if (!out.reserve.empty())
        out.depth = request.axis == LabelAxis::rows    ? -out.reserve.x0
                    : request.side == LabelSide::above ? -out.reserve.y0
                                                       : out.reserve.y1 - request.cells_height;
    return out;
}

bool quads_overlap(const LabelQuad& a, const LabelQuad& b) {
    // Separated when some edge's normal of either quad has their projections apart.
    for (const LabelQuad* q : {&a, &b})
        for (int i = 0; i < 4; ++i) {
            const LabelPoint p0 = q->corner[i], p1 = q->corner[(i + 1) % 4];
            const LabelPoint axis{p0.y - p1.y, p1.x - p0.x};
            float a_lo = INFINITY, a_hi = -INFINITY, b_lo = INFINITY, b_hi = -INFINITY;
            for (const LabelPoint& c : a.corner) {
                const float d = c.x * axis.x + c.y * axis.y;
                a_lo = std::min(a_lo, d), a_hi = std::max(a_hi, d);
            }
            for (const LabelPoint& c : b.corner) {
                const float d = c.x * axis.x + c.y * axis.y;
                b_lo = std::min(b_lo, d), b_hi = std::max(b_hi, d);
            }
            if (a_hi <= b_lo || b_hi <= a_lo) return false;
        }
    return true;
}

}  // namespace attnlab::gui
