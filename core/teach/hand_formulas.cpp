// Formulas with their numbers filled in, for the playground's cells.
#include "teach/hand_formulas.h"

#include <cassert>
#include <cmath>
#include <cstdio>

namespace attnlab {

namespace {

constexpr const char* kMinus = "\u2212";

// "₁" … "₉" (the playground has at most four rows).
std::string subscript(int n) {
    assert(n >= 0 && n <= 9);
    std::string s = "\u2080";  // UTF-8 E2 82 80; U+2080 + n differs in the last byte only
    s[2] = static_cast<char>(0x80 + n);
    return s;
}

std::string at(int i, int j) { return "[" + std::to_string(i + 1) + "," + std::to_string(j + 1) + "]"; }

// A factor of a product: negative numbers in parentheses, "(−1)".
std::string factor(double x) { return x < 0.0 ? "(" + hand_number(x) + ")" : hand_number(x); }

// "a₁×b₁ + a₂×b₂ + …" over the n terms a(t)×b(t).
template <class A, class B>
std::string sum_of_products(Eigen::Index n, A a, B b) {
    std::string s;
    for (Eigen::Index t = 0; t < n; ++t) s += (t ? " + " : "") + factor(a(t)) + "×" + factor(b(t));
    return s;
}

}  // namespace

std::string hand_number(double x) {
    if (std::isnan(x)) return "NaN";
    if (std::isinf(x)) return x < 0.0 ? std::string(kMinus) + "∞" : "∞";
    char buf[32];
    if (std::abs(x) >= 1e5) {
        std::snprintf(buf, sizeof buf, "%.3g", std::abs(x));
    } else {
        std::snprintf(buf, sizeof buf, "%.3f", std::abs(x));
        std::string s = buf;
        s.erase(s.find_last_not_of('0') + 1);
        if (s.back() == '.') s.pop_back();
        if (s == "0") return s;  // no "−0"
        return (x < 0.0 ? kMinus : "") + s;
    }
    return (x < 0.0 ? kMinus : "") + std::string(buf);
}

std::string projection_formula(const HandSpec& spec, char which, int i, int d) {
    const Mat& w = which == 'Q' ? spec.w_q : which == 'K' ? spec.w_k : spec.w_v;  // (C, D)
    assert(i < spec.x.rows() && d < w.cols() && spec.x.cols() == w.rows());
    const double value = spec.x.row(i).dot(w.col(d));
    return std::string(1, which) + at(i, d) + " = x" + subscript(i + 1) + "·W_" + which + "[:," +
           std::to_string(d + 1) + "] = " +
           sum_of_products(
               w.rows(), [&](auto c) { return spec.x(i, c); }, [&](auto c) { return w(c, d); }) +
           " = " + hand_number(value);
}

std::string score_formula(const HandAttention& a, int i, int j) {
    return "QKᵀ" + at(i, j) + " = q" + subscript(i + 1) + "·k" + subscript(j + 1) + " = " +
           sum_of_products(
               a.q.cols(), [&](auto c) { return a.q(i, c); }, [&](auto c) { return a.k(j, c); }) +
           " = " + hand_number(a.scores(i, j));
}

std::string scaled_formula(const HandSpec& spec, const HandAttention& a, int i, int j) {
    if (!spec.scale) return hand_number(a.scaled(i, j));
    return hand_number(a.scores(i, j)) + " / √" + std::to_string(a.q.cols()) + " = " + hand_number(a.scaled(i, j));
}

std::string masked_formula(const HandSpec& spec, const HandAttention& a, int i, int j) {
    return "mask" + at(i, j) + " = " + hand_number(spec.mask(i, j)) + " → " + hand_number(a.masked(i, j));
}

std::string weight_formula(const HandAttention& a, int i, int j) {
    const auto row = a.masked.row(i);
    if (!std::isfinite(row(j))) return "e^(" + std::string(kMinus) + "∞) = 0";
    // Large scores are shown minus the row's largest, as softmax computes them, so e^s never overflows.
    const double largest = row.maxCoeff();
    bool shift = false;
    for (Eigen::Index t = 0; t < row.size(); ++t) shift = shift || (std::isfinite(row(t)) && std::abs(row(t)) > 30.0f);
    auto power = [&](Eigen::Index t) {
        return shift ? "e^(" + hand_number(row(t)) + kMinus + factor(largest) + ")" : "e^" + factor(row(t));
    };
    auto value = [&](Eigen::Index t) { return std::exp(static_cast<double>(row(t)) - (shift ? largest : 0.0)); };
    std::string terms;
    double total = 0.0;
    int n_terms = 0;
    for (Eigen::Index t = 0; t < row.size(); ++t) {
        if (!std::isfinite(row(t))) continue;  // a blocked key adds e^(−∞) = 0
        terms += (n_terms++ ? " + " : "") + power(t);
        total += value(t);
    }
    const std::string denominator = n_terms > 1 ? "(" + terms + ")" : terms;
    return power(j) + " / " + denominator + " = " + hand_number(value(j)) + " / " + hand_number(total) + " = " +
           hand_number(a.weights(i, j));
}

std::string context_formula(const HandAttention& a, int i, int d) {
    return "out" + at(i, d) + " = w" + subscript(i + 1) + "·V[:," + std::to_string(d + 1) + "] = " +
           sum_of_products(
               a.v.rows(), [&](auto t) { return a.weights(i, t); }, [&](auto t) { return a.v(t, d); }) +
           " = " + hand_number(a.context(i, d));
}

}  // namespace attnlab
