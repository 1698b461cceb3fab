// The UI's two languages. Panels write English; tr() gives the Korean when it is chosen.
#pragma once

#include <string_view>

namespace attnlab::gui {

// Returns the Korean text for `english` when `korean` is set and a translation exists, else `english`.
const char* tr(bool korean, const char* english);

// The table's Korean for `english`, or nullptr when it has none.
const char* korean_text(std::string_view english);

// Marks an English UI string that is translated later, where it is drawn (gettext's N_): a table of
// labels, or a function that returns one for ctx.t. Returns it unchanged; the i18n test
// (tests/gui/logic/test_i18n_coverage.cpp) finds the strings it marks, as it finds those passed to tr.
constexpr const char* tr_noop(const char* english) { return english; }

}  // namespace attnlab::gui
