#pragma once
// One host thread at a time in a plan that owns a workspace (the reduce
// plans): a second thread that enters while the first is inside execute()
// gets tilekit::invalid_argument instead of sharing the workspace and the
// host result. Copies of a plan share the workspace, so they share the flag.
#include <tilekit/errors.hpp>

#include <atomic>
#include <memory>
#include <string>

namespace tilekit::impl {

class ExclusiveUse {
 public:
  ExclusiveUse() : busy_(std::make_shared<std::atomic<bool>>(false)) {}

  /// Holds the plan for the scope of one execute().
  class Scope {
   public:
    Scope(const ExclusiveUse& u, const std::string& where) : busy_(u.busy_.get()) {
      if (busy_->exchange(true, std::memory_order_acquire))
        detail::fail(where,
                     "this plan is executing in another thread (a plan owns its workspace and "
                     "host result); give each thread its own plan");
    }
    ~Scope() { busy_->store(false, std::memory_order_release); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    std::atomic<bool>* busy_;
  };

 private:
  std::shared_ptr<std::atomic<bool>> busy_;
};

}  // namespace tilekit::impl
