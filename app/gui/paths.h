// Where the app finds its data at run time.
#pragma once

#include <string>

namespace attnlab::gui {

struct Paths {
    std::string assets;   // assets/ (models, examples, vocabularies)
    std::string shaders;  // shaders/
};

}  // namespace attnlab::gui
