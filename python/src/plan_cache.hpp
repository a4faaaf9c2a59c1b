#pragma once
// The plans of the function calls (tilekit.permute, ...), kept by what they
// depend on so that repeated calls set nothing up and allocate nothing.
#include "bridge.hpp"
#include "dlpack_io.hpp"

#include <list>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace tilekit::python {

/// The function calls keep their plans (setup, workspace, tables) keyed by
/// what they depend on, so that repeated calls allocate nothing: on a GPU an
/// allocation or a free would synchronise the device. Callers hold the Lock.
template <class Plan>
class PlanCache final : public Finalizable {
 public:
  static PlanCache& get() {
    static auto* c = new PlanCache();  // emptied by finalize, never destroyed
    return *c;
  }

  template <class Make>
  Plan& find(const std::string& key, Make&& make) {
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
      if (it->first == key) {
        entries_.splice(entries_.begin(), entries_, it);
        return *entries_.front().second;
      }
    std::unique_ptr<Plan> plan = make();  // may throw: nothing cached then
    entries_.emplace_front(key, std::move(plan));
    while (entries_.size() > capacity) entries_.pop_back();
    return *entries_.front().second;
  }

  void drop() override { entries_.clear(); }
  std::size_t size() const { return entries_.size(); }

  static constexpr std::size_t capacity = 32;

 private:
  std::list<std::pair<std::string, std::unique_ptr<Plan>>> entries_;
};

/// What a plan depends on: the operation, dtype (and whether it scales),
/// device, stream, shape, orders and, for strided arrays, the strides.
inline std::string key_of(const char* op, const Array& in, const Array* out, const std::vector<int>& axes,
                   Stream stream, bool scaled = false) {
  std::ostringstream k;
  auto layout = [&k](const Array& a) {
    if (!a.strided) {
      k << (a.fortran ? 'F' : 'C');
      return;
    }
    k << 'S';
    for (int d = 0; d < a.ndim; ++d) k << (d ? "," : "(") << a.strides[d];
    k << ')';
  };
  k << op << '|' << static_cast<int>(in.dtype) << (scaled && !dtype_arithmetic(in.dtype) ? "s" : "") << '|' << device_string(in)
    << '|' << stream << '|' << shape_string(in);
  layout(in);
  if (out) layout(*out);
  for (int v : axes) k << ',' << v;
  return k.str();
}

}  // namespace tilekit::python
