#pragma once
// Traits<ExecSpace> for every space this Kokkos enables: the primary template
// (primary.hpp) and each backend's specialisation. What the library includes.
#include <tilekit/backends/primary.hpp>
#include <tilekit/backends/host.hpp>  // Serial, OpenMP
#include <tilekit/backends/cuda.hpp>
