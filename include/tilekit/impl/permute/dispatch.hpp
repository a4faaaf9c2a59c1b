#pragma once
// The permute plan: validates the views and the permutation once, maps a
// LayoutLeft problem onto the row-major kernels, fuses dimensions, picks the
// method and its launch shape from the backend traits, checks the shape
// against the space's limits, prepares the tiled kernel's tables, and then
// launches one labelled kernel per execute() on the caller's space. The value
// side (conversion, alpha/beta, conjugation) is the kernels' Store
// (permute/store.hpp), chosen per execute() from alpha and beta.
#include <tilekit/backends/traits.hpp>
#include <tilekit/errors.hpp>
#include <tilekit/impl/common/launch.hpp>
#include <tilekit/impl/common/eti.hpp>
#include <tilekit/impl/permute/interleave.hpp>
#include <tilekit/impl/permute/kernels.hpp>  // the kernels' types and traits the plan names
#include <tilekit/impl/permute/matrix.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tilekit {

/// `fused` is the library's method (fusion, then copy, rows, tiled or the 2-D
/// transposition); `naive` is one element per work item, any rank (the
/// reference, and the fused variant's fallback for strided views without unit
/// inner strides). (Seed 003's rank-3 kernels are tilekit::study::Permute3Plan.)
enum class PermuteVariant { fused, naive };
inline constexpr PermuteVariant permute_variants[] = {PermuteVariant::fused,
                                                      PermuteVariant::naive};

/// What a plan launches. `transpose`: a pure move whose fused problem is a
/// 2-D transposition, or a batch of them (rank 3: the fastest dimension
/// moved, matrices of at least the transpose's tile rows both ways), on
/// backends that run those through the 2-D engine (impl::MatrixTranspose,
/// the out-of-place transpose's; Traits::permute_2d_by_transpose: hosts);
/// scaled stores of such a plan take the tiled method. `interleave`: a pure
/// move of such a transposition, or a batch of them, with a side of 2 to 4
/// elements (an image's channels: NCHW <-> NHWC) transposed in registers
/// (impl::PermuteInterleave), on backends that give it vectors
/// (Traits::permute_interleave_vector_bytes: GPUs); scaled stores, and views
/// not aligned to its vectors, take the tiled method.
enum class PermuteMethod { none, copy, rows, tiled, naive, transpose, interleave };

constexpr std::string_view to_string(PermuteVariant v) {
  switch (v) {
    case PermuteVariant::fused: return "fused";
    case PermuteVariant::naive: return "naive";
  }
  return "?";
}
constexpr std::string_view to_string(PermuteMethod m) {
  switch (m) {
    case PermuteMethod::none: return "none";
    case PermuteMethod::copy: return "copy";
    case PermuteMethod::rows: return "rows";
    case PermuteMethod::tiled: return "tiled";
    case PermuteMethod::naive: return "naive";
    case PermuteMethod::transpose: return "transpose";
    case PermuteMethod::interleave: return "interleave";
  }
  return "?";
}
/// Launch-shape overrides (LaunchOptions: 0, or -1 for pad and align, keeps
/// the backend default): `tile` is the run length of the tiled kernel and the
/// piece width of the rows kernel, `tiles_per_team` the team steps (tiles, or
/// rows' units) each team takes in turn, `align` the tiled boxes' skew.
struct PermuteOptions : LaunchOptions {
  std::string label = "tilekit::permute";  ///< prefix of the kernel labels
};

/// out = alpha * convert(op(permute(in, perm))) + beta * out,
/// out.extent(i) == in.extent(perm[i]): views of T in, of TOut out; op
/// conjugates complex elements when Conjugate (the plan made with
/// tilekit::conjugate), else is the identity; alpha * x + beta * y is computed
/// in scalar_type (permute_scalar_t: float for the 2-byte floats, the wider
/// type of a mixed pair). Validates and prepares once; execute() re-checks the
/// views it is given.
template <class ExecSpace, class T, class TOut = T, bool Conjugate = false>
class PermutePlan {
 public:
  using value_type = T;  ///< the input's
  using output_type = TOut;
  using scalar_type = permute_scalar_t<T, TOut>;
  using index_t = impl::index_t;
  /// Whether the plan conjugates (complex T only: a no-op for real ones).
  static constexpr bool conjugates = Conjugate && impl::is_complex_v<T>;

  template <class InView, class OutView>
  PermutePlan(const ExecSpace& exec, const InView& in, const OutView& out,
              const std::vector<int>& perm, PermuteVariant variant = PermuteVariant::fused,
              PermuteOptions opts = {})
      : PermutePlan(shapes_t{}, exec, detail::shape_of(in), detail::shape_of(out), perm, variant,
                    std::move(opts)) {
    check_types<InView, OutView>();
  }

  /// The conjugating plan: Conjugate must be true (the deduction guides make
  /// it so for PermutePlan(exec, in, out, perm, tilekit::conjugate, ...)).
  template <class InView, class OutView>
  PermutePlan(const ExecSpace& exec, const InView& in, const OutView& out,
              const std::vector<int>& perm, conjugate_t,
              PermuteVariant variant = PermuteVariant::fused, PermuteOptions opts = {})
      : PermutePlan(exec, in, out, perm, variant, std::move(opts)) {
    static_assert(Conjugate, "tilekit::PermutePlan: tilekit::conjugate needs a plan with "
                             "Conjugate = true");
  }

  /// alpha and beta are converted to scalar_type (any type that converts:
  /// T(1) of a half_t plan is float 1).
  template <class InView, class OutView, class A = scalar_type, class B = scalar_type>
  void execute(const InView& in, const OutView& out, const A& alpha = A(1),
               const B& beta = B(0)) const {
    check(in, out);
    launch(in.data(), out.data(), static_cast<scalar_type>(alpha), static_cast<scalar_type>(beta));
  }

  PermuteVariant variant() const { return variant_; }
  PermuteMethod method() const { return method_; }
  /// The tiled method's layout (its box, and which offsets come from tables;
  /// the transpose method's scaled stores take it too).
  const impl::TiledLayout& tiled_layout() const { return tiled_; }
  /// Elements per store transaction of the skewed tiles the plan takes
  /// (PermuteOptions::align), or 0: rectangular tiles (or no tiles).
  int skew() const {
    if (transpose_) return transpose_->skew();
    return method_ == PermuteMethod::tiled ? tiled_.skew : 0;
  }
  /// Whether the plan was made for LayoutStride views (docs/strided.md).
  bool strided() const { return strided_; }
  /// The row-major problem the kernels see (LayoutLeft mapped, strided views'
  /// dimensions ordered by stride), before fusion.
  const impl::PermuteShape& shape() const { return shape_; }
  /// After fusion: what the fused variant moves.
  const impl::PermuteShape& fused_shape() const { return fused_; }
  /// Elements per global access of the rows and tiled methods' staged moves
  /// when alpha = 1, beta = 0 and both views are aligned to that many
  /// elements: the backend's Traits::permute_pack_bytes over the element's
  /// size where the rows allow (every row starts on, and holds, a multiple of
  /// them; pure moves of one type only), else 1.
  int pack_width() const { return packed_ ? PW : 1; }
  const backends::TileConfig& config() const { return config_; }
  /// Work items of a team of the tiled method's launch: the config's team
  /// rows x vector, times PermuteWideBox::team where the plan took the
  /// backend's wide box.
  int tiled_team_size() const {
    const backends::TileConfig c = tiled_config();
    return c.team_rows * c.vector;
  }
  /// Tiles (the rows method: units of pieces) each team of the launch takes
  /// in turn.
  int tiles_per_team() const {
    if (transpose_) return transpose_->config().tiles_per_team;
    return method_ == PermuteMethod::tiled ? tiled_config().tiles_per_team : config_.tiles_per_team;
  }

  /// Throws tilekit::invalid_argument where execute() would for these views:
  /// the planned rank, layout, extents and strides, disjoint.
  template <class InView, class OutView>
  void check(const InView& in, const OutView& out) const {
    check_types<InView, OutView>();
    check_shapes(detail::shape_of(in), detail::shape_of(out));
  }

 private:
  /// The views' types: what the compiler checks. Everything else the plan
  /// reads of the views is run-time data (detail::ViewShape), so that the
  /// constructor, execute() and check() of a plan compile their work once per
  /// plan type (in the library for its compiled plans), not once per view type.
  template <class InView, class OutView>
  static constexpr void check_types() {
    static_assert(InView::rank() >= 1 && InView::rank() <= impl::permute_max_rank,
                  "tilekit::permute: views must have rank 1 to 8");
    static_assert(InView::rank() == OutView::rank(),
                  "tilekit::permute: input and output must have the same rank");
    static_assert((detail::is_right_or_left_v<InView> || detail::is_stride_v<InView>) &&
                      (detail::is_right_or_left_v<OutView> || detail::is_stride_v<OutView>),
                  "tilekit: views must be Kokkos::LayoutRight, LayoutLeft or LayoutStride");
    detail::require_in_out_strided_pair<ExecSpace, T, InView, OutView, TOut>();
  }

  struct shapes_t {};
  PermutePlan(shapes_t, const ExecSpace& exec, const detail::ViewShape& in,
              const detail::ViewShape& out, const std::vector<int>& perm, PermuteVariant variant,
              PermuteOptions opts);
  void check_shapes(const detail::ViewShape& in, const detail::ViewShape& out) const;

  using Mem = typename ExecSpace::memory_space;
  static constexpr int K = backends::Traits<ExecSpace>::loads_in_flight;
  /// Staging registers per work item: the backend's count of 8-byte ones, so
  /// a 16-byte element gets half as many.
  static constexpr int N = std::max<int>(
      1, backends::Traits<ExecSpace>::stage_registers * 8 / std::max<int>(8, sizeof(T)));
  /// One type, not conjugated: every variant; the store of a pure move keeps every bit.
  static constexpr bool plain = std::is_same_v<T, TOut> && !conjugates;
  /// Elements per unit of the packed staged moves (1: none; staged teams only).
  /// The kernels move bits: every type of the element's size shares them.
  static constexpr int PW = plain && N > 1 ? impl::permute_pack_width<ExecSpace, T>() : 1;
  using Bits = impl::bits_t<(PW > 1 ? sizeof(T) : 1)>;  ///< an element's
  using Unit = impl::bits_t<(PW > 1 ? PW * sizeof(T) : 1)>;  ///< PW elements'
  using PackRows = impl::PermuteRows<ExecSpace, Unit, N, impl::StoreMove<Unit>>;
  /// The element the tiled, naive and transpose methods' moves (alpha == 1,
  /// beta == 0 of one type) take: the bits of T where it has them
  /// (impl::move_t), so the plans of every type of one size launch the same
  /// kernels, compiled once per unit. (The rows method moves T.)
  using Move = impl::move_t<T>;
  /// The tiled kernel's host path (PermuteTiled): its scratch laid out transposed.
  static constexpr bool host_path = impl::micro_edge<ExecSpace, T>() > 0;
  /// Pure moves of 2-D transpositions run the 2-D engine (PermuteMethod::transpose).
  static constexpr bool by_transpose = plain && impl::permute_2d_by_transpose<ExecSpace>();
  using S = scalar_type;

  const std::string& where() const { return opts_.label; }

  void resolve_config();

  /// Elements per store transaction S for skewed tiles (impl::skew_elements;
  /// staged tiles only) where some store row of layout L does not start on a
  /// transaction (the output's address, the store rows' stride or a tile step
  /// not a multiple of S); else 0. Whether the box can take them (an affine
  /// 2-D transposition) is make_tiling's to say.
  int skew_for(const impl::TiledLayout& L) const {
    const int S = impl::skew_elements<ExecSpace>(opts_.align, sizeof(TOut));
    if (N <= 1 || S <= 1) return 0;
    bool off = L.out_row % S != 0 || out_at_ % S != 0;
    for (int i = 0; i < L.digits; ++i) off = off || L.step_out[i] % S != 0;
    return off ? S : 0;
  }

  /// The rows method's edge: a fastest dimension that stays and holds at
  /// least this many elements moves as rows, edge^2 elements a team step. The
  /// caller's tile, else the backend's permute_rows_edge where it has one
  /// (hosts, whose tiles are larger than a rows step should be), else the
  /// tile.
  index_t rows_edge() const {
    if constexpr (requires { backends::Traits<ExecSpace>::permute_rows_edge(sizeof(T)); })
      if (opts_.tile <= 0)
        return backends::Traits<ExecSpace>::permute_rows_edge(std::max(sizeof(T), sizeof(TOut)));
    return config_.tile;
  }

  /// Tiles below which the default tile is halved (impl::tiles_wanted).
  index_t want_tiles() const { return impl::tiles_wanted<ExecSpace>(exec_.concurrency()); }

  /// Whether the caller gave any part of the launch shape (tile, team rows,
  /// vector, pad, tiles a team): the backend's own choices of it (wide boxes,
  /// the transpose method) apply only where none is given.
  bool launch_given() const { return impl::launch_given(opts_); }

  /// The backend's wider box (Traits::permute_wide_box) in place of the
  /// tiled method's default one (tiling, box), where it applies: no launch
  /// option given, the output's fastest fused dimension shorter than `below`,
  /// a default box whose offsets are not all computed (affine boxes have a
  /// long dimension in each run; the 2-D ones skew), and a wide box that fits
  /// the team's scratch (smax) and its staging with `team` times the rows.
  void widen(impl::Tiling& tiling, impl::TileBox& box, std::size_t smax);

  /// The tiled kernel's launch shape: the config, with the backend's
  /// permute_tiled_tiles_per_team where it sets one, the tiles are not skewed
  /// and the caller gave none (Cuda: one tile a team; skewed tiles keep the
  /// config's four, backends/cuda.hpp), and the team rows of a wide box.
  backends::TileConfig tiled_config() const {
    backends::TileConfig c = config_;
    c.team_rows *= wide_team_;
    if constexpr (requires { backends::Traits<ExecSpace>::permute_tiled_tiles_per_team; })
      if (opts_.tiles_per_team == 0 && tiled_.skew <= 1)
        c.tiles_per_team = backends::Traits<ExecSpace>::permute_tiled_tiles_per_team;
    return c;
  }

  /// League of a team kernel: `tiles_per_team` steps of work per team (teams
  /// loop over the rest; one-thread CPU teams keep contiguous work).
  int league(index_t work, const backends::TileConfig& c) const {
    const int per_team = std::max(1, c.tiles_per_team);
    return impl::league_for((work + per_team - 1) / per_team,
                            backends::Traits<ExecSpace>::max_league);
  }

  /// Chooses the method and validates (and, for tiled, prepares) its launch.
  void prepare();

  /// The dimensions of a fused problem that the 2-D engine moves: the
  /// input's fastest (a, unit stride in the input), the output's fastest (b,
  /// unit stride in the output) and, at rank 3, the third (c: a batch of
  /// matrices, any strides); a < 0: not such a problem.
  struct TransposeDims {
    int a = -1, b = -1, c = -1;
  };
  /// A fused 2-D transposition (rank 2, [1, 0]), or a batch of them (rank 3,
  /// the fastest dimension moved: [2, 1, 0], [0, 2, 1]) whose matrices hold
  /// at least the transpose's tile rows both ways (smaller ones fill a tile
  /// better as the tiled method's boxes, which pack several of them).
  TransposeDims transpose_dims() const {
    const int r = fused_.rank;
    if (r < 2 || r > 3 || fused_.p[r - 1] == r - 1) return {};
    TransposeDims d{r - 1, fused_.p[r - 1], -1};
    if (r == 3) {
      d.c = 3 - d.a - d.b;
      const index_t least = std::max(1, impl::transpose_tile_rows<ExecSpace>());
      if (std::min(fused_.n[d.a], fused_.n[d.b]) < least) return {};
    }
    return d;
  }
  /// Where the backend runs them so (by_transpose), a fused 2-D transposition
  /// or a batch of them (transpose_dims) with the backend's launch shape (no
  /// tile, team, vector, pad or tiles per team given) takes the transpose
  /// method: the 2-D engine (impl::MatrixTranspose) on the fused problem's
  /// matrix, in (m x n) = (n[b] x n[a]), element (i, j) at i si[b] + j, out
  /// (n x m), element (j, i) at j so[a] + i; a batch in one launch
  /// (impl::TransposeBatch). Its scaled stores keep the tiled method prepared
  /// above.
  void plan_transpose(const T* in, const TOut* out);

  /// Elements of the interleaving kernel's vectors (0: the backend gives it
  /// none, or T is not a pure move of at most 4 bytes).
  static constexpr int IV = impl::permute_interleave_width<ExecSpace, T>(plain);
  /// Where the backend interleaves (IV) and no launch shape is given, a fused
  /// problem that interleave_geom takes goes through the registers
  /// (PermuteMethod::interleave); its scaled stores, and views not aligned to
  /// the vectors, keep the tiled method prepared before.
  void plan_interleave();
  /// Whether execute() runs the interleaving kernel on these views.
  bool interleaves(const T* in, const TOut* out) const {
    constexpr std::uintptr_t v = sizeof(T) * (IV > 0 ? IV : 1);
    return interleave_.t > 0 && reinterpret_cast<std::uintptr_t>(in) % v == 0 &&
           reinterpret_cast<std::uintptr_t>(out) % v == 0;
  }

  /// The constructor's work once the views are checked (their rank, layout,
  /// extents and strides are members by then): the shape, its fusion, the
  /// launch shape and method. Not a member template, so that it compiles once
  /// per plan type (in the library for its compiled plans), not once per view
  /// type a program constructs a plan with.
  void plan(const T* in, const TOut* out);

  /// The naive kernel on f (the variant's: the unfused shape; the fallback of
  /// strided views: the fused one), in input order: the output offset of each
  /// element, and its input offset when the input is not contiguous.
  void prepare_naive(const impl::PermuteShape& f);

  void launch(const T* in, TOut* out, const S& alpha, const S& beta) const;

  /// fn(in, out, store) for a launch of store st: a move of one type as its
  /// bits (Move, StoreMove<Move>), any other store on T and TOut as given.
  template <class Store, class Fn>
  static void moving(const T* in, TOut* out, const Store& st, const Fn& fn) {
    if constexpr (plain && std::is_same_v<Store, impl::StoreMove<T>>)
      fn(impl::as_moves(in), impl::as_moves(out), impl::StoreMove<Move>{});
    else
      fn(in, out, st);
  }

  /// Whether execute() moves units of PW elements: the plan's rows allow it
  /// and both views start on a unit.
  bool packs(const T* in, const TOut* out) const {
    constexpr std::uintptr_t unit = sizeof(Unit);
    return packed_ && reinterpret_cast<std::uintptr_t>(in) % unit == 0 &&
           reinterpret_cast<std::uintptr_t>(out) % unit == 0;
  }

  /// Calls fn(f) with the tiled kernel of V elements (T, or their bits in
  /// units of W) for the plan's kind of box, its views not yet set.
  template <class Store, int W = 1, class V = T, class Fn>
  void with_tiled(const Fn& fn) const;

  ExecSpace exec_;
  PermuteVariant variant_;
  PermuteOptions opts_;
  int rank_;
  std::vector<int> perm_;
  bool left_;
  bool strided_;
  index_t out_at_;  ///< the planned output's address in elements (skew_for)
  std::vector<index_t> extents_, in_strides_, out_strides_;
  impl::PermuteShape shape_, fused_;
  PermuteMethod method_ = PermuteMethod::none;
  backends::TileConfig config_{};
  impl::RowsLayout rows_{};
  bool packed_ = false;            ///< the rows or tiles allow units of PW (pack_width)
  impl::RowsLayout rows_pack_{};   ///< rows_ in units of PW elements
  Kokkos::TeamPolicy<ExecSpace> policy_pack_{};  ///< the packed kernel's launch
  impl::TiledLayout tiled_{};
  int wide_team_ = 1;  ///< the tiled launch's team rows, times the config's (wide boxes)
  impl::Digits naive_out_{};  ///< naive: input index -> output offset
  impl::Digits naive_in_{};   ///< naive: input index -> input offset (none: contiguous)
  std::string kernel_;        ///< label of the kernel execute() launches
  Kokkos::TeamPolicy<ExecSpace> policy_{};
  Kokkos::View<index_t*, Mem> tables_;
  std::optional<impl::MatrixTranspose<ExecSpace, Move>> transpose_;  ///< the transpose method's
  impl::InterleaveGeom interleave_{};  ///< the interleave method's (t = 0: none)
  std::string interleave_kernel_;      ///< its kernel's label
};

template <class ExecSpace, class T, class TOut, bool Conjugate>
PermutePlan<ExecSpace, T, TOut, Conjugate>::PermutePlan(shapes_t, const ExecSpace& exec,
                                                        const detail::ViewShape& in,
                                                        const detail::ViewShape& out,
                                                        const std::vector<int>& perm,
                                                        PermuteVariant variant, PermuteOptions opts)
    : exec_(exec), variant_(variant), opts_(std::move(opts)), rank_(in.rank), perm_(perm),
      left_(in.layout == detail::ViewShape::Layout::left),
      strided_(in.layout == detail::ViewShape::Layout::stride ||
               out.layout == detail::ViewShape::Layout::stride),
      out_at_(static_cast<index_t>(out.address / sizeof(TOut))) {
  impl::check_permutation(where(), perm_, rank_);
  for (int d = 0; d < rank_; ++d) {
    extents_.push_back(in.extent[d]);
    in_strides_.push_back(in.stride[d]);
    out_strides_.push_back(out.stride[d]);
  }
  check_shapes(in, out);
  plan(reinterpret_cast<const T*>(in.address), reinterpret_cast<const TOut*>(out.address));
}

template <class ExecSpace, class T, class TOut, bool Conjugate>
void PermutePlan<ExecSpace, T, TOut, Conjugate>::check_shapes(const detail::ViewShape& in,
                                                              const detail::ViewShape& out) const {
  using Layout = detail::ViewShape::Layout;
  const std::string& w = where();
  const bool strided = in.layout == Layout::stride || out.layout == Layout::stride;
  if (in.rank != rank_ || strided != strided_ || (!strided && (in.layout == Layout::left) != left_))
    detail::fail(w, "views of rank " + std::to_string(in.rank) +
                        " and another layout than the planned rank " + std::to_string(rank_));
  bool in_ok = true, out_ok = true;
  for (int d = 0; d < rank_; ++d) {
    in_ok = in_ok && in.extent[d] == extents_[d];
    out_ok = out_ok && out.extent[d] == extents_[perm_[d]];
  }
  if (!in_ok)
    detail::fail(w, "input extents " + detail::extents_string(in) + " differ from the planned (" +
                        impl::join(extents_, rank_) + ")");
  if (!out_ok) {
    std::vector<index_t> want(rank_);
    for (int d = 0; d < rank_; ++d) want[d] = extents_[perm_[d]];
    detail::fail(w, "output extents " + detail::extents_string(out) +
                        " must be the input extents (" + impl::join(extents_, rank_) +
                        ") permuted by [" + impl::join(perm_, rank_) + "], (" +
                        impl::join(want, rank_) + ")");
  }
  if (strided) {
    bool same = true;
    for (int d = 0; d < rank_; ++d)
      same = same && in.stride[d] == in_strides_[d] && out.stride[d] == out_strides_[d];
    if (!same)
      detail::fail(w, "strides differ from the planned views' (input (" +
                          impl::join(in_strides_, rank_) + "), output (" +
                          impl::join(out_strides_, rank_) + "))");
    detail::require_strided(w, "input", in);
    detail::require_strided(w, "output", out);
  } else {
    detail::require_contiguous(w, "input", in);
    detail::require_contiguous(w, "output", out);
  }
  detail::require_disjoint(w, in, out);
  index_t n = 1;
  for (int d = 0; d < rank_; ++d) n = detail::checked_mul(w, n, extents_[d]);
}

template <class ExecSpace, class T, class TOut, bool Conjugate>
void PermutePlan<ExecSpace, T, TOut, Conjugate>::plan(const T* in, const TOut* out) {
  shape_ = strided_ ? impl::strided_shape(extents_, perm_, in_strides_, out_strides_)
                    : impl::row_major_shape(extents_, perm_, left_);
  fused_ = impl::fuse(shape_);
  resolve_config();
  prepare();
  plan_transpose(in, out);
  plan_interleave();
}

// The input's and the output's value types; tilekit::conjugate gives the
// conjugating plan.
template <class E, class I, class O>
PermutePlan(const E&, const I&, const O&, const std::vector<int>&)
    -> PermutePlan<E, typename I::non_const_value_type, typename O::non_const_value_type>;
template <class E, class I, class O>
PermutePlan(const E&, const I&, const O&, const std::vector<int>&, PermuteVariant)
    -> PermutePlan<E, typename I::non_const_value_type, typename O::non_const_value_type>;
template <class E, class I, class O>
PermutePlan(const E&, const I&, const O&, const std::vector<int>&, PermuteVariant, PermuteOptions)
    -> PermutePlan<E, typename I::non_const_value_type, typename O::non_const_value_type>;
template <class E, class I, class O>
PermutePlan(const E&, const I&, const O&, const std::vector<int>&, conjugate_t)
    -> PermutePlan<E, typename I::non_const_value_type, typename O::non_const_value_type, true>;
template <class E, class I, class O>
PermutePlan(const E&, const I&, const O&, const std::vector<int>&, conjugate_t, PermuteVariant)
    -> PermutePlan<E, typename I::non_const_value_type, typename O::non_const_value_type, true>;
template <class E, class I, class O>
PermutePlan(const E&, const I&, const O&, const std::vector<int>&, conjugate_t, PermuteVariant,
            PermuteOptions)
    -> PermutePlan<E, typename I::non_const_value_type, typename O::non_const_value_type, true>;

}  // namespace tilekit

// The library's compiled plans (impl/common/eti.hpp; cmake/TilekitETI.cmake):
// the pure moves of every pair, the conjugating plans of complex types, and
// the converting plans of TILEKIT_ETI_CONVERSIONS.
#define TILEKIT_ETI_PERMUTE_PLAN(E, T) extern template class tilekit::PermutePlan<E, T, T, false>;
TILEKIT_ETI_FOR_EACH_PAIR(TILEKIT_ETI_PERMUTE_PLAN)
#undef TILEKIT_ETI_PERMUTE_PLAN
#define TILEKIT_ETI_PERMUTE_CONJ(E, T) extern template class tilekit::PermutePlan<E, T, T, true>;
TILEKIT_ETI_FOR_EACH_COMPLEX_PAIR(TILEKIT_ETI_PERMUTE_CONJ)
#undef TILEKIT_ETI_PERMUTE_CONJ
#define TILEKIT_ETI_PERMUTE_CONVERT(E, TIn, TOut) \
  extern template class tilekit::PermutePlan<E, TIn, TOut, false>;
TILEKIT_ETI_FOR_EACH_CONVERSION(TILEKIT_ETI_PERMUTE_CONVERT)
#undef TILEKIT_ETI_PERMUTE_CONVERT
