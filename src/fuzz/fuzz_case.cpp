#include "fuzz_case.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace tilekit::fuzz {

namespace {

const std::vector<std::int64_t> primes = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 61, 67,
                                          97, 127, 131, 251, 257, 509, 521, 1021, 1031};

template <class T>
std::string join(const std::vector<T>& v) {
  std::string s;
  for (std::size_t k = 0; k < v.size(); ++k) {
    if (k) s += ',';
    s += std::to_string(v[k]);
  }
  return s;
}

std::string number(double x) {
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", x);
  return b;
}

bool is_prime(std::int64_t n) {
  if (n < 2) return false;
  for (std::int64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

std::int64_t product(const std::vector<std::int64_t>& e) {
  std::int64_t p = 1;
  for (auto x : e) p *= x;
  return p;
}

}  // namespace

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::int64_t Case::elements() const { return product(shape); }

// The names in the order of the enumerators.
std::string to_string(Op op) {
  static const char* const names[] = {"transpose", "inplace", "permute", "reduce"};
  return names[static_cast<int>(op)];
}

std::string to_string(Type t) {
  static const char* const names[] = {"int32",  "int64",   "float", "double",
                                      "cfloat", "cdouble", "uint8", "uint16"};
  return names[static_cast<int>(t)];
}

bool move_only(Type t) { return t == Type::uint8 || t == Type::uint16; }

std::size_t size_of(Type t) {
  switch (t) {
    case Type::int32: case Type::float32: return 4;
    case Type::int64: case Type::float64: case Type::cfloat32: return 8;
    case Type::cfloat64: return 16;
    case Type::uint8: return 1;
    case Type::uint16: return 2;
  }
  return 0;
}

const std::vector<std::string>& variants(Op op) {
  static const std::vector<std::string> transpose = {"naive", "tiled", "tiled_padded"};
  static const std::vector<std::string> inplace = {"inplace_naive", "inplace_blocked"};
  static const std::vector<std::string> permute = {"fused",  "naive",           "simple",
                                                   "simple_templated", "shared", "shared_templated",
                                                   "shared_bank_free"};
  static const std::vector<std::string> reduce = {"sum", "sum_compensated", "min",
                                                  "max", "minloc",          "maxloc"};
  switch (op) {
    case Op::transpose: return transpose;
    case Op::inplace: return inplace;
    case Op::permute: return permute;
    case Op::reduce: return reduce;
  }
  return permute;
}

const std::vector<Type>& types(Op op) {
  static const std::vector<Type> move = {Type::int32,    Type::int64,    Type::float32,
                                         Type::float64,  Type::cfloat32, Type::cfloat64,
                                         Type::uint8,    Type::uint16};
  static const std::vector<Type> reduce = {Type::int32, Type::int64, Type::float32, Type::float64};
  return op == Op::reduce ? reduce : move;
}

std::vector<std::pair<std::string, std::string>> expected_coverage() {
  std::vector<std::pair<std::string, std::string>> out;
  for (Op op : {Op::transpose, Op::inplace, Op::permute, Op::reduce}) {
    for (const auto& v : variants(op)) out.push_back({"variant", to_string(op) + ":" + v});
    for (Type t : types(op)) out.push_back({"type", to_string(op) + ":" + to_string(t)});
  }
  for (const char* l : {"left", "right"}) out.push_back({"layout", l});
  for (int r = 1; r <= 8; ++r) out.push_back({"permute rank", std::to_string(r)});
  for (const char* s : {"move", "scale", "axpby", "beta=-0", "alpha=-0", "alpha=0"})
    out.push_back({"alpha/beta", s});
  for (const char* s : {"empty", "extent 1", "prime extent", "large"}) out.push_back({"extents", s});
  return out;
}

// ------------------------------------------------------------------ text

std::string format(const Case& c) {
  std::string s = "op=" + to_string(c.op) + " variant=" + c.variant + " type=" + to_string(c.type) +
                  " layout=" + (c.left ? "left" : "right") + " shape=" + join(c.shape);
  if (c.op == Op::permute)
    s += " perm=" + join(c.perm) + " alpha=" + number(c.alpha) + " beta=" + number(c.beta);
  char b[32];
  std::snprintf(b, sizeof b, "0x%016" PRIx64, c.seed);
  return s + " seed=" + b;
}

namespace {

[[noreturn]] void bad(const std::string& what) {
  throw std::invalid_argument("fuzz case: " + what);
}

template <class T>
std::vector<T> parse_list(const std::string& key, const std::string& v) {
  std::vector<T> out;
  if (v.empty()) return out;
  std::stringstream ss(v);
  for (std::string item; std::getline(ss, item, ',');) {
    std::size_t used = 0;
    long long x = 0;
    try {
      x = std::stoll(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != item.size() || item.empty()) bad(key + ": '" + item + "' is not an integer");
    out.push_back(static_cast<T>(x));
  }
  return out;
}

double parse_number(const std::string& key, const std::string& v) {
  std::size_t used = 0;
  double x = 0;
  try {
    x = std::stod(v, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != v.size() || v.empty()) bad(key + ": '" + v + "' is not a number");
  return x;
}

}  // namespace

Case parse(const std::string& line) {
  Case c;
  std::stringstream ss(line);
  bool have_op = false, have_variant = false, have_type = false, have_shape = false;
  for (std::string tok; ss >> tok;) {
    const auto eq = tok.find('=');
    if (eq == std::string::npos) bad("'" + tok + "' is not key=value");
    const std::string k = tok.substr(0, eq), v = tok.substr(eq + 1);
    if (k == "op") {
      bool ok = false;
      for (Op op : {Op::transpose, Op::inplace, Op::permute, Op::reduce})
        if (to_string(op) == v) c.op = op, ok = true;
      if (!ok) bad("unknown op '" + v + "'");
      have_op = true;
    } else if (k == "variant") {
      c.variant = v, have_variant = true;
    } else if (k == "type") {
      bool ok = false;
      for (Type t : types(Op::permute))
        if (to_string(t) == v) c.type = t, ok = true;
      if (!ok) bad("unknown type '" + v + "'");
      have_type = true;
    } else if (k == "layout") {
      if (v != "left" && v != "right") bad("layout must be left or right, got '" + v + "'");
      c.left = v == "left";
    } else if (k == "shape") {
      c.shape = parse_list<std::int64_t>(k, v), have_shape = true;
    } else if (k == "perm") {
      c.perm = parse_list<int>(k, v);
    } else if (k == "alpha") {
      c.alpha = parse_number(k, v);
    } else if (k == "beta") {
      c.beta = parse_number(k, v);
    } else if (k == "seed") {
      try {
        std::size_t used = 0;
        c.seed = std::stoull(v, &used, 0);
        if (used != v.size()) bad("seed: '" + v + "'");
      } catch (const std::logic_error&) {
        bad("seed: '" + v + "' is not an unsigned integer");
      }
    } else {
      bad("unknown key '" + k + "'");
    }
  }
  if (!have_op || !have_variant || !have_type || !have_shape)
    bad("op, variant, type and shape are required");
  const auto& vs = variants(c.op);
  if (std::find(vs.begin(), vs.end(), c.variant) == vs.end())
    bad("op " + to_string(c.op) + " has no variant '" + c.variant + "'");
  const auto& ts = types(c.op);
  if (std::find(ts.begin(), ts.end(), c.type) == ts.end())
    bad("op " + to_string(c.op) + " does not take type " + to_string(c.type));
  if (c.shape.empty() || c.shape.size() > 8) bad("shape must have 1 to 8 extents");
  for (auto e : c.shape)
    if (e < 0) bad("negative extent");
  if ((c.op == Op::transpose || c.op == Op::inplace) && c.shape.size() != 2)
    bad("transpose shapes have 2 extents");
  if (c.op == Op::inplace && c.shape[0] != c.shape[1]) bad("in-place shapes are square");
  if (c.op == Op::permute) {
    if (c.perm.size() != c.shape.size()) bad("perm must have one entry per extent");
    // (a perm that is not a permutation is the library's to reject: replayed as given)
  }
  if (c.variant == "sum_compensated" && c.type != Type::float32 && c.type != Type::float64)
    bad("sum_compensated takes float or double");
  if (move_only(c.type) && c.op == Op::permute) {
    if (c.variant != "fused" && c.variant != "naive")
      bad(to_string(c.type) + " permutes take the variants fused and naive");
    if (c.alpha != 1 || c.beta != 0) bad(to_string(c.type) + " is moved: alpha 1, beta 0");
  }
  return c;
}

// ------------------------------------------------------------- generator

Case generate(std::uint64_t seed, std::uint64_t i, const Limits& lim) {
  return generate_from(mix(seed ^ mix(i)), lim);
}

Case generate_from(std::uint64_t case_seed, const Limits& lim) {
  std::mt19937_64 rng(case_seed);
  auto below = [&](std::uint64_t n) { return static_cast<std::int64_t>(rng() % n); };
  auto pick = [&](const auto& v) { return v[static_cast<std::size_t>(below(v.size()))]; };
  Case c;
  c.seed = case_seed;
  const auto u = below(100);
  c.op = u < 50 ? Op::permute : u < 68 ? Op::transpose : u < 78 ? Op::inplace : Op::reduce;
  c.left = below(2) == 1;
  int rank = 2;
  switch (c.op) {
    case Op::permute: {
      const auto v = below(100);
      const auto& names = variants(Op::permute);
      c.variant = v < 55 ? "fused" : v < 70 ? "naive" : names[2 + below(names.size() - 2)];
      rank = (c.variant == "fused" || c.variant == "naive") ? 1 + static_cast<int>(below(8)) : 3;
      c.type = pick(types(c.op));
      if (move_only(c.type) && rank == 3 && c.variant != "naive") c.variant = "fused";  // no seeds
      break;
    }
    case Op::transpose:
    case Op::inplace:
      c.variant = pick(variants(c.op));
      c.type = pick(types(c.op));
      break;
    case Op::reduce: {
      c.variant = pick(variants(c.op));
      if (c.variant == "sum_compensated") c.type = below(2) ? Type::float32 : Type::float64;
      else c.type = pick(types(c.op));
      rank = 1 + static_cast<int>(below(4));
      break;
    }
  }
  const bool large = below(lim.large_every) == 0;
  std::int64_t cap = large ? lim.large_elements : lim.max_elements;
  // Float sums of the test data stay exact below 2^17 elements.
  if (c.op == Op::reduce) cap = std::min<std::int64_t>(cap, 1 << 17);
  const double target = std::pow(static_cast<double>(cap), 1.0 / rank);
  auto extent = [&]() -> std::int64_t {
    const auto r = below(100);
    if (r < 3) return 0;
    if (r < 18) return 1;
    if (r < 48) {
      std::vector<std::int64_t> fit;
      for (auto p : primes)
        if (p <= std::max(2.0, 2 * target)) fit.push_back(p);
      return pick(fit);
    }
    return 2 + below(static_cast<std::uint64_t>(std::max(1.0, 2 * target - 1)));
  };
  if (c.op == Op::inplace) {
    std::int64_t n = extent();
    while (n * n > cap) n = (n + 1) / 2;
    c.shape = {n, n};
  } else {
    for (int d = 0; d < rank; ++d) c.shape.push_back(extent());
    while (product(c.shape) > cap) {
      auto it = std::max_element(c.shape.begin(), c.shape.end());
      *it = (*it + 1) / 2;
    }
  }
  if (c.op == Op::permute) {
    c.perm.resize(rank);
    std::iota(c.perm.begin(), c.perm.end(), 0);
    const auto p = below(100);
    if (p < 5) {
      // identity: the copy method
    } else if (p < 25 && rank > 1) {
      // the fastest dimension stays: the rows method
      const int fast = c.left ? 0 : rank - 1;
      std::vector<int> rest;
      for (int d = 0; d < rank; ++d)
        if (d != fast) rest.push_back(d);
      std::shuffle(rest.begin(), rest.end(), rng);
      for (int d = 0, k = 0; d < rank; ++d) c.perm[d] = d == fast ? fast : rest[k++];
      // A fastest extent of at least a tile row, so that the plan picks the rows method.
      if (c.shape[fast] > 0) c.shape[fast] = 64 + below(200);
      for (;;) {
        std::int64_t* most = nullptr;
        for (int d = 0; d < rank; ++d)
          if (d != fast && (!most || c.shape[d] > *most)) most = &c.shape[d];
        if (product(c.shape) <= cap || *most <= 1) break;
        *most = (*most + 1) / 2;
      }
    } else {
      std::shuffle(c.perm.begin(), c.perm.end(), rng);
    }
    const bool integral = c.type == Type::int32 || c.type == Type::int64;
    const std::vector<double> alphas = integral ? std::vector<double>{0, -1, 2, 3}
                                                : std::vector<double>{0, -0.0, -1, 2, 0.5, -1.5, 3};
    const std::vector<double> betas = integral ? std::vector<double>{1, -1, 2}
                                               : std::vector<double>{1, -1, 2, 0.5};
    c.alpha = below(100) < 45 ? 1.0 : pick(alphas);
    const auto b = below(100);
    c.beta = b < 50 ? 0.0 : (b < 60 && !integral) ? -0.0 : pick(betas);
    if (move_only(c.type)) c.alpha = 1, c.beta = 0;  // moved only
  }
  return c;
}

// ----------------------------------------------------------------- tally

void Tally::add_case(const Case& c, const std::string& method) {
  ++cases;
  elements += c.elements();
  const std::string op = to_string(c.op);
  add("variant", op + ":" + c.variant);
  add("type", op + ":" + to_string(c.type));
  add("layout", c.left ? "left" : "right");
  if (c.op == Op::permute) {
    add("permute rank", std::to_string(c.shape.size()));
    const bool beta0 = c.beta == 0;
    add("alpha/beta", !beta0 ? "axpby" : c.alpha != 1 ? "scale" : "move");
    if (std::signbit(c.beta) && beta0) add("alpha/beta", "beta=-0");
    if (c.alpha == 0) add("alpha/beta", std::signbit(c.alpha) ? "alpha=-0" : "alpha=0");
  }
  if (!method.empty()) add("method", op + ":" + method);
  bool has0 = false, has1 = false, prime = false;
  for (auto e : c.shape) {
    has0 |= e == 0;
    has1 |= e == 1;
    prime |= e > 2 && is_prime(e);
  }
  if (has0) add("extents", "empty");
  if (has1) add("extents", "extent 1");
  if (prime) add("extents", "prime extent");
  if (c.elements() > Limits{}.max_elements) add("extents", "large");
}

void Tally::merge(const Tally& o) {
  for (const auto& [cat, m] : o.counts)
    for (const auto& [v, n] : m) counts[cat][v] += n;
  cases += o.cases;
  failures += o.failures;
  elements += o.elements;
  skipped += o.skipped;
}

std::string Tally::str() const {
  std::ostringstream s;
  s << cases << " cases, " << failures << " failures, " << elements << " elements";
  if (skipped > 0) s << ", " << skipped << " skipped (types not compiled into this program)";
  s << '\n';
  for (const auto& [cat, m] : counts) {
    s << "  " << cat << ":";
    for (const auto& [v, n] : m) s << ' ' << v << '=' << n;
    s << '\n';
  }
  return s.str();
}

}  // namespace tilekit::fuzz
