#pragma once
// The CMM family's launching code (impl/common/eti.hpp): the out-of-line
// members of its plan, and TILEKIT_ETI_INSTANTIATE_CMM_FLOATING, which the
// library's units (cmake/TilekitETI.cmake: float and double on each space) expand.
#include <tilekit/impl/cmm/dispatch_def.hpp>

#define TILEKIT_ETI_INSTANTIATE_CMM_FLOATING(E, T) template class tilekit::CmmPlan<E, T>;
