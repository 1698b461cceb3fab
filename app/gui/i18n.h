// The UI's two languages. Panels write English; tr() gives the Korean when it is chosen.
#pragma once

namespace attnlab::gui {

// Returns the Korean text for `english` when `korean` is set and a translation exists, else `english`.
const char* tr(bool korean, const char* english);

}  // namespace attnlab::gui
