#pragma once
// What tilekit can tell about the hardware behind an execution space.
#include <tilekit/hardware_info.hpp>

namespace tilekit {

/// Hardware facts for an execution space instance (see backends/).
template <class ExecSpace>
HardwareInfo hardware_info(const ExecSpace& exec);

}  // namespace tilekit

#include <tilekit/backends/traits.hpp>

template <class ExecSpace>
tilekit::HardwareInfo tilekit::hardware_info(const ExecSpace& exec) {
  return backends::Traits<ExecSpace>::hardware(exec);
}
