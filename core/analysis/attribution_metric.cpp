#include "analysis/attribution_metric.h"

#include <cctype>
#include <string_view>

namespace attnlab {

namespace {

// A non-negative decimal integer filling all of `text`, at most 9 digits.
bool parse_count(std::string_view text, int64_t& out) {
    if (text.empty() || text.size() > 9) return false;
    int64_t v = 0;
    for (char c : text) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
        v = v * 10 + (c - '0');
    }
    out = v;
    return true;
}

}  // namespace

std::string prob_refusal(const std::string& text) {
    return "metric \"" + text +
           "\": prob is not supported yet (a probability is not linear in the components, so no exact split); use "
           "logit:A@POS or logit-diff:A,B@POS";
}

Result<AttributionMetric> AttributionMetric::parse(const std::string& text, MetricKinds kinds) {
    const std::string usage = "metric \"" + text + "\": expected logit:A@POS" +
                              (kinds == MetricKinds::any ? ", prob:A@POS" : "") +
                              " or logit-diff:A,B@POS (token ids, POS 0-based)";
    if (text.rfind("prob:", 0) == 0 && kinds == MetricKinds::linear) return Error{prob_refusal(text)};
    AttributionMetric m;
    std::string_view rest;
    if (text.rfind("prob:", 0) == 0) {
        m.kind = AttributionMetricKind::prob;
        rest = std::string_view(text).substr(5);
    } else if (text.rfind("logit:", 0) == 0) {
        m.kind = AttributionMetricKind::logit;
        rest = std::string_view(text).substr(6);
    } else if (text.rfind("logit-diff:", 0) == 0) {
        m.kind = AttributionMetricKind::logit_diff;
        rest = std::string_view(text).substr(11);
    } else {
        return Error{usage};
    }
    const size_t at = rest.find('@');
    if (at == std::string_view::npos) return Error{usage};
    std::string_view tokens = rest.substr(0, at);
    int64_t a = 0, b = 0;
    if (m.kind == AttributionMetricKind::logit_diff) {
        const size_t comma = tokens.find(',');
        if (comma == std::string_view::npos || !parse_count(tokens.substr(comma + 1), b)) return Error{usage};
        tokens = tokens.substr(0, comma);
    }
    if (!parse_count(tokens, a) || !parse_count(rest.substr(at + 1), m.position)) return Error{usage};
    m.token = static_cast<int>(a);
    if (m.kind == AttributionMetricKind::logit_diff) {
        m.other = static_cast<int>(b);
        if (a == b) return Error{"metric \"" + text + "\": logit-diff needs two different tokens"};
    }
    return m;
}

std::string AttributionMetric::to_string() const {
    const std::string pos = "@" + std::to_string(position);
    if (kind == AttributionMetricKind::logit) return "logit:" + std::to_string(token) + pos;
    if (kind == AttributionMetricKind::prob) return "prob:" + std::to_string(token) + pos;
    return "logit-diff:" + std::to_string(token) + "," + std::to_string(other) + pos;
}

}  // namespace attnlab
