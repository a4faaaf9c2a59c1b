// Streams in a build without CUDA: host calls are synchronous, nothing to order.
#include "spaces.hpp"

namespace tilekit::python {

void release_stream_instances() {}
void stream_wait(Stream, Stream) {}

}  // namespace tilekit::python
