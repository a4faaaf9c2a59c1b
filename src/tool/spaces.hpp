#pragma once
// The tool's execution spaces by name, without Kokkos: what the plain C++
// sources (the study's runner, writer and command) may ask of them.
#include <string>
#include <vector>

namespace tilekit::tool {

/// Names of the spaces this tool is built with (TILEKIT_SPACES), GPU last.
std::vector<std::string> built_spaces();
/// Whether the space of this Kokkos name computes on a GPU.
bool is_gpu(const std::string& space);
/// Whether a host space (Serial or OpenMP) is built into this tool.
bool host_space_built();

}  // namespace tilekit::tool
