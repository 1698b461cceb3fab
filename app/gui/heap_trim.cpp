#include "heap_trim.h"

#include <malloc.h>

namespace attnlab::gui {

void return_free_heap_pages() { malloc_trim(0); }

}  // namespace attnlab::gui
