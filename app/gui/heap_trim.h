// Hands glibc's free heap pages back to the system. A replaced model, the panel caches and the
// textures that showed it are freed into the heap as free space, and glibc returns only the heap's
// top on its own: without a trim the resident size keeps the largest model ever opened.
#pragma once

namespace attnlab::gui {

void return_free_heap_pages();

}  // namespace attnlab::gui
