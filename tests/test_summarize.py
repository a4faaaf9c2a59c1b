#!/usr/bin/env python3
"""bench/summarize.py: its figures on results made for the test (known answers), and
the results store's naming, index and checks on a small store of fixtures
(tests/fixtures/results/: one tool file, one Google Benchmark file); the regression
gate (--compare) and the PyTorch table (--peers) on results made for the test; and
bench/torch_peer.py's rows, on a stand-in for PyTorch (tests/fixtures/fake_torch.py:
host lists, CUDA events of known times), and without PyTorch.

    python3 tests/test_summarize.py        (ctest: bench_summarize)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import summarize  # noqa: E402


def row(variant, shape, ms, pct_copy, op="reduce", dtype="float", **extra):
    r = {"op": op, "variant": variant, "space": "Cuda", "shape": shape, "dtype": dtype,
         "ms": ms, "bytes": 1, "gbps": 1.0, "pct_copy": pct_copy, "pct_peak": None,
         "speedup_vs_naive": None, "verified": True}
    r.update(extra)
    return r


def tool_file(rows):
    return {"device": "test device", "date": "2026-01-01T00:00:00Z", "commit": "0000000",
            "kokkos": "", "devices": [], "rows": rows}


class Summarize(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, data):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            json.dump(data, f)
        return path

    def family_row(self, text, family, variant):
        for line in text.splitlines():
            cells = [c.strip() for c in line.strip("|").split("|")]
            if cells[:2] == [family, variant]:
                return cells
        self.fail(f"no row for {family} {variant} in:\n{text}")

    def test_extremes_against_copy_and_cub(self):
        # Three sums (90, 95 and 99% of copy) and their CUB rows: the worst, the
        # median and the best case, and % of CUB from the times of the same n.
        rows = []
        for n, pct, ms, cub_ms in [(1024, 95.0, 0.5, 0.51), (4096, 90.0, 2.0, 1.9),
                                   (65536, 99.0, 10.0, 10.3)]:
            rows += [row("copy", [n], 1.0, None), row("cub", [n], cub_ms, None),
                     row("sum", [n], ms, pct)]
        text = summarize.extremes([self.write("a.json", tool_file(rows))])
        cells = self.family_row(text, "reduce", "sum")
        self.assertEqual(cells[4:11], ["3", "90.0", "4096", "95.0", "99.0", "65536", "95.0..103.0"])

    def test_extremes_skip_baselines_and_identity(self):
        # The identity permutation and the baselines are not cases; an even count
        # of cases takes the mean of the middle two as the median.
        rows = [row("fused", [8, 8], 1.0, 10.0, op="permute", perm=[0, 1]),
                row("fused", [8, 8], 1.0, 80.0, op="permute", perm=[1, 0]),
                row("fused", [4, 16], 1.0, 70.0, op="permute", perm=[1, 0]),
                row("copy", [8, 8], 1.0, 100.0, op="permute"),
                row("memcpy", [8, 8], 1.0, 100.0, op="permute")]
        text = summarize.extremes([self.write("p.json", tool_file(rows))])
        cells = self.family_row(text, "permute", "fused")
        self.assertEqual(cells[4:11], ["2", "70.0", "4x16 perm 1,0", "75.0", "80.0",
                                       "8x8 perm 1,0", "-"])
        self.assertNotIn("| permute | copy", text)

    def test_cmm_against_cublas(self):
        # A Google Benchmark file: the kernels against cuBLAS of the same N;
        # cuBLAS's own rows (and the GEMM pair's) are not cases.
        bench = {"benchmarks": [
            {"name": "blocked/Cuda/float/4096/real_time", "GFLOP/s": 30.0},
            {"name": "cublas/Cuda/float/4096/real_time", "GFLOP/s": 50.0},
            {"name": "cublas_gemm/Cuda/float/4096/real_time", "GFLOP/s": 49.0},
            {"name": "blocked/Cuda/float/4000/real_time", "GFLOP/s": 32.0},
            {"name": "cublas/Cuda/float/4000/real_time", "GFLOP/s": 40.0},
            {"name": "copy/Cuda/float/4096/real_time", "bytes_per_second": 1e12}]}
        tool = self.write("t.json", tool_file([row("sum", [64], 1.0, 50.0)]))
        text = summarize.extremes([self.write("cmm.json", bench), tool])
        cells = self.family_row(text, "cmm", "blocked")
        self.assertEqual(cells[4:10], ["2", "60.0", "4096", "70.0", "80.0", "4000"])
        self.assertNotIn("| cmm | cublas", text)
        # The table mode names such a file instead of failing on it.
        out = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "summarize.py"),
                              self.write("cmm2.json", bench)], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("a Google Benchmark file", out.stdout)

    def test_table_columns(self):
        # The table: the fixed columns, then any column a row carries beyond them.
        text = summarize.table(self.write("t.json", tool_file(
            [row("tiled", [3, 5], 0.25, 87.5, op="transpose", method="packed")])))
        lines = text.splitlines()
        head = next(l for l in lines if l.startswith("| variant"))
        self.assertTrue(head.rstrip().endswith("| method |"), head)
        body = next(l for l in lines if l.startswith("| tiled"))
        self.assertIn("| 3x5 |", body)
        self.assertIn("| 87.5 |", body)
        self.assertIn("| packed |", body)

    # ------------------------------------------------------------ the store

    FIXTURES = os.path.join(ROOT, "tests", "fixtures", "results")
    TOOL = os.path.join("gpu1", "2026-01-02-abcdef0-transpose.json")
    GBENCH = os.path.join("cpu1", "2026-01-03-1234567-bench-cmm.json")

    def store_copy(self):
        """The fixture store in a temporary repository (results at bench/results),
        with its index written; returns (repository, store)."""
        repo = tempfile.mkdtemp(dir=self.dir.name)
        store = os.path.join(repo, "bench", "results")
        shutil.copytree(self.FIXTURES, store)
        with open(os.path.join(store, "INDEX.md"), "w") as f:
            f.write(summarize.index(store))
        os.makedirs(os.path.join(repo, "docs"))
        return repo, store

    def test_reader_on_fixtures(self):
        # The table and the extremes of the fixture files.
        tool = os.path.join(self.FIXTURES, self.TOOL)
        body = next(l for l in summarize.table(tool).splitlines() if l.startswith("| tiled"))
        self.assertIn("| 3x5 |", body)
        self.assertIn("| 80.0 |", body)
        cells = self.family_row(summarize.extremes([tool, os.path.join(self.FIXTURES, self.GBENCH)]),
                                "cmm", "blocked")
        self.assertEqual(cells[4:6], ["1", "75.0"])

    def test_index_from_the_files_own_fields(self):
        text = summarize.index(self.FIXTURES)
        self.assertIn("2 files on 2 machines.", text)
        self.assertIn("## cpu1", text)
        self.assertIn("## gpu1", text)
        tool = next(l for l in text.splitlines() if "transpose.json" in l)
        self.assertIn("(gpu1/2026-01-02-abcdef0-transpose.json)", tool)
        self.assertIn("| 2026-01-02 | `abcdef0123ab` |", tool)
        self.assertIn("`tilekit transpose --m 3 --n 5 --dtype float --space cuda`", tool)
        self.assertIn("transpose: naive, tiled against copy; 3x5; float; Cuda; 3 rows", tool)
        gb = next(l for l in text.splitlines() if "bench-cmm.json" in l)
        self.assertIn("`bench_cmm`", gb)
        self.assertIn("3 benchmarks: copy, blocked, cublas; float; sizes 64", gb)
        self.assertIn("Devices: Test CPU.", text)

    def test_check_index_passes_on_a_fresh_store(self):
        repo, store = self.store_copy()
        with open(os.path.join(repo, "README.md"), "w") as f:
            f.write("Figures: `bench/results/gpu1/2026-01-02-abcdef0-transpose.json`, "
                    "cpu1/2026-01-03-1234567-bench-cmm.json and bench/results/cpu1/.\n")
        self.assertEqual(summarize.check_index(store, repo), [])

    def test_check_index_fails(self):
        # Each defect alone makes the check fail, naming the file.
        def problems(change):
            repo, store = self.store_copy()
            change(repo, store)
            return "\n".join(summarize.check_index(store, repo))

        def rewrite(path, edit):
            with open(path) as f:
                d = json.load(f)
            edit(d)
            with open(path, "w") as f:
                json.dump(d, f)

        def stale(repo, store):
            rewrite(os.path.join(store, self.TOOL), lambda d: d["rows"].pop())
        self.assertIn("INDEX.md is stale", problems(stale))

        def unindexed(repo, store):
            shutil.copy(os.path.join(store, self.TOOL),
                        os.path.join(store, "gpu1", "2026-01-02-abcdef0-again.json"))
        self.assertIn("INDEX.md is stale", problems(unindexed))

        def no_index(repo, store):
            os.remove(os.path.join(store, "INDEX.md"))
        self.assertIn("INDEX.md is missing", problems(no_index))

        def misnamed(repo, store):
            os.rename(os.path.join(store, self.TOOL), os.path.join(store, "gpu1", "transpose-gpu1.json"))
        self.assertIn("gpu1/transpose-gpu1.json: not named", problems(misnamed))

        def other_commit(repo, store):
            rewrite(os.path.join(store, self.TOOL), lambda d: d.update(commit="fedcba9"))
        self.assertIn("its own date and commit are 2026-01-02 and fedcba9", problems(other_commit))

        def a_log(repo, store):
            with open(os.path.join(store, "gpu1", "2026-01-02-abcdef0-run.txt"), "w") as f:
                f.write("log\n")
        self.assertIn("2026-01-02-abcdef0-run.txt: not named", problems(a_log))

        def deeper(repo, store):
            os.makedirs(os.path.join(store, "gpu1", "old"))
            shutil.move(os.path.join(store, self.TOOL), os.path.join(store, "gpu1", "old"))
        self.assertIn("not <machine>/<file>", problems(deeper))

        def not_a_result(repo, store):
            rewrite(os.path.join(store, self.TOOL), lambda d: d.pop("rows"))
        self.assertIn("no rows", problems(not_a_result))

        def cites_missing(repo, store):
            with open(os.path.join(repo, "docs", "page.md"), "w") as f:
                f.write("See bench/results/gpu1/2026-01-02-abcdef0-gone.json.\n")
        self.assertIn("docs/page.md: cites bench/results/gpu1/2026-01-02-abcdef0-gone.json",
                      problems(cites_missing))

        def cites_missing_short(repo, store):
            with open(os.path.join(repo, "README.md"), "w") as f:
                f.write("(`gpu1/2026-01-05-abcdef0-transpose.json`)\n")
        self.assertIn("README.md: cites bench/results/gpu1/2026-01-05-abcdef0-transpose.json",
                      problems(cites_missing_short))

    def test_check_index_command_line(self):
        repo, store = self.store_copy()
        script = os.path.join(ROOT, "bench", "summarize.py")
        ok = subprocess.run([sys.executable, script, "--check-index", store, "--docs", repo],
                            capture_output=True, text=True)
        self.assertEqual(ok.returncode, 0, ok.stderr)
        os.remove(os.path.join(store, "INDEX.md"))
        bad = subprocess.run([sys.executable, script, "--check-index", store, "--docs", repo],
                             capture_output=True, text=True)
        self.assertEqual(bad.returncode, 1)
        self.assertIn("INDEX.md is missing", bad.stderr)

    def test_store_names_and_merges(self):
        # Several files of one run: one file named from its own date and commit, every
        # row tagged with its file; a second store of the same name does not overwrite.
        a = self.write("shape-a.json", tool_file([row("sum", [8], 1.0, 90.0)]))
        b = self.write("shape-b.json", dict(tool_file([row("sum", [16], 2.0, 95.0)]),
                                            date="2026-01-01T00:05:00Z"))
        store = os.path.join(self.dir.name, "store")
        path = summarize.store(store, "gpu1", "sums", [a, b], "bench/x.sh")
        self.assertEqual(os.path.relpath(path, store), os.path.join("gpu1", "2026-01-01-0000000-sums.json"))
        with open(path) as f:
            d = json.load(f)
        self.assertEqual([r["case"] for r in d["rows"]], ["shape-a", "shape-b"])
        self.assertEqual((d["command"], d["date_last"]), ("bench/x.sh", "2026-01-01T00:05:00Z"))
        again = summarize.store(store, "gpu1", "sums", [a])
        self.assertTrue(again.endswith("2026-01-01-0000000-sums-2.json"), again)
        # One Google Benchmark file: named from its context.
        gb = summarize.store(store, "cpu1", "bench-cmm", [os.path.join(self.FIXTURES, self.GBENCH)])
        self.assertTrue(gb.endswith(os.path.join("cpu1", "2026-01-03-1234567-bench-cmm.json")), gb)
        # Files of two commits are two runs; a file without a commit cannot be named.
        c = self.write("other.json", dict(tool_file([row("sum", [8], 1.0, 90.0)]), commit="1111111"))
        with self.assertRaises(ValueError):
            summarize.store(store, "gpu1", "mixed", [a, c])
        u = self.write("unknown.json", dict(tool_file([row("sum", [8], 1.0, 90.0)]), commit="unknown"))
        with self.assertRaises(ValueError):
            summarize.store(store, "gpu1", "nameless", [u])


    # ------------------------------------------------------------ the gate

    def gate_files(self, now, device="test device"):
        """A base run and a new one of three permutations (% of copy: base 80, 70, 60;
        now as given), each beside its copy and the identity."""
        def rows(pcts):
            out = [row("copy", [8, 9, 10], 1.0, 100.0, op="permute", perm=[0, 1, 2]),
                   row("fused", [8, 9, 10], 1.0, 99.0, op="permute", perm=[0, 1, 2])]
            for perm, pct in zip(([2, 1, 0], [1, 2, 0], [0, 2, 1]), pcts):
                out.append(row("fused", [8, 9, 10], 1.0, pct, op="permute", perm=perm, layout="right"))
            return out
        base = self.write("base.json", tool_file(rows([80.0, 70.0, 60.0])))
        new = self.write("new.json", dict(tool_file(rows(now)), device=device))
        return base, new

    def test_compare_marks_what_fell(self):
        # 80 -> 74.9 fell (more than 5 points), 70 -> 65 did not (exactly 5), 60 -> 70 rose.
        base, new = self.gate_files([74.9, 65.0, 70.0])
        lines, fell, error = summarize.compare([base], [new])
        self.assertIsNone(error)
        self.assertEqual(fell, ["permute 8x9x10 perm 2,1,0 float fused"])
        text = "\n".join(lines)
        self.assertIn("| permute 8x9x10 perm 2,1,0 float fused | 80.0 | 74.9 | -5.1 | FELL |", text)
        self.assertIn("| permute 8x9x10 perm 1,2,0 float fused | 70.0 | 65.0 | -5.0 |  |", text)
        self.assertIn("| permute 8x9x10 perm 0,2,1 float fused | 60.0 | 70.0 | +10.0 |  |", text)
        self.assertIn("3 cases compared, 1 fell", text)
        self.assertNotIn("copy", text.split("\n\n", 1)[1].replace("% copy", ""))
        # Another threshold.
        self.assertEqual(summarize.compare([base], [new], points=6.0)[1], [])

    def test_compare_lists_cases_of_one_side_and_refuses_another_device(self):
        base, _ = self.gate_files([80.0, 70.0, 60.0])
        extra = self.write("extra.json", tool_file([
            row("fused", [32, 32, 32, 32, 256], 1.0, 20.0, op="permute", perm=[2, 0, 1, 4, 3]),
            row("torch", [32, 32, 32, 32, 256], 1.0, 1.0, op="permute", perm=[2, 0, 1, 4, 3],
                framework="torch 2.11"),
            row("torch_copy", [32, 32, 32, 32, 256], 1.0, 100.0, op="permute", perm=[2, 0, 1, 4, 3])]))
        lines, fell, error = summarize.compare([base], [extra])
        text = "\n".join(lines)
        self.assertEqual((fell, error), ([], None))
        self.assertIn("Not in the base (not gated): permute 32x32x32x32x256 perm 2,0,1,4,3 float fused.", text)
        self.assertIn("Not run now (not gated): permute 8x9x10 perm 0,2,1 float fused;", text)
        self.assertNotIn("torch", text)
        _, other = self.gate_files([80.0, 70.0, 60.0], device="another device")
        self.assertIn("not the same device", summarize.compare([base], [other])[2])

    def test_compare_command_line(self):
        script = os.path.join(ROOT, "bench", "summarize.py")
        base, new = self.gate_files([80.0, 69.0, 54.0])
        out = subprocess.run([sys.executable, script, "--compare", base, new],
                             capture_output=True, text=True)
        self.assertEqual(out.returncode, 1, out.stderr)
        self.assertIn("3 cases compared, 1 fell", out.stdout.splitlines()[-1])
        ok = subprocess.run([sys.executable, script, "--compare", base, "--points", "7", new],
                            capture_output=True, text=True)
        self.assertEqual(ok.returncode, 0, ok.stdout)
        _, other = self.gate_files([80.0, 70.0, 60.0], device="another device")
        refused = subprocess.run([sys.executable, script, "--compare", base, other],
                                 capture_output=True, text=True)
        self.assertEqual(refused.returncode, 2)
        self.assertIn("not the same device", refused.stderr)

    def test_peers(self):
        # tilekit at 1 ms, PyTorch at 2 ms (twice tilekit's time) and 0.5 ms (half).
        rows = []
        for perm, torch_ms in (([2, 1, 0], 2.0), ([1, 0, 2], 0.5)):
            rows += [row("fused", [8, 9, 10], 1.0, 80.0, op="permute", perm=perm),
                     row("torch", [8, 9, 10], torch_ms, 40.0, op="permute", perm=perm, framework="torch 2.11"),
                     row("torch_contiguous", [8, 9, 10], 3.0, 30.0, op="permute", perm=perm,
                         framework="torch 2.11"),
                     row("torch_copy", [8, 9, 10], 0.8, 100.0, op="permute", perm=perm)]
        text = summarize.peers([self.write("peers.json", tool_file(rows))])
        self.assertIn("| permute 8x9x10 perm 2,1,0 float | fused | 80.0 | 40.0 | 30.0 | 2.00 |", text)
        self.assertIn("| permute 8x9x10 perm 1,0,2 float | fused | 80.0 | 40.0 | 30.0 | 0.50 (slower) |", text)
        self.assertIn("2 cases; tilekit slower than PyTorch in 1.", text)


class TorchPeer(unittest.TestCase):
    """bench/torch_peer.py on a stand-in for PyTorch, and without it."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        sys.path.insert(0, os.path.join(ROOT, "tests", "fixtures"))
        import fake_torch
        self.fake = fake_torch
        self.saved = sys.modules.get("torch")
        sys.modules["torch"] = fake_torch
        import torch_peer
        self.peer = torch_peer

    def tearDown(self):
        if self.saved is None:
            sys.modules.pop("torch", None)
        else:
            sys.modules["torch"] = self.saved
        sys.path.remove(os.path.join(ROOT, "tests", "fixtures"))
        self.dir.cleanup()

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def test_rows_of_a_call_beside_the_tools(self):
        # The tool's file of the same call gives the header and the case; per permutation
        # the copy, out.copy_(x.permute(p)) and .contiguous(), timed 1, 2 and 4 ms (one
        # call each): 100, 50 and 25% of copy, the moves checked.
        like = self.path("permute-3x4x5.json")
        tool = tool_file([row("fused", [3, 4, 5], 1.0, 90.0, op="permute", perm=[2, 0, 1])])
        tool["commit"] = "abcdef012345"
        with open(like, "w") as f:
            json.dump(tool, f)
        self.fake.cuda.schedule, self.fake.cuda.timed = [1.0, 2.0, 4.0], 0
        out = self.path("permute-3x4x5-torch.json")
        rc = self.peer.main(["permute", "--shape", "3,4,5", "--perm", "2,0,1", "--perm", "0,2,1",
                             "--dtype", "float", "--variant", "fused", "--space", "cuda",
                             "--reps", "1", "--json", out, "--like", like])
        self.assertEqual(rc, 0)
        with open(out) as f:
            d = json.load(f)
        self.assertEqual((d["commit"], d["device"]), ("abcdef012345", "test device"))
        self.assertIsNone(summarize.schema_problem(d))
        got = [(r["variant"], r["perm"], r["ms"], round(r["pct_copy"], 6), r["verified"], r["case"])
               for r in d["rows"]]
        case = "permute-3x4x5"
        self.assertEqual(got, [("torch_copy", [2, 0, 1], 1.0, 100.0, False, case),
                               ("torch", [2, 0, 1], 2.0, 50.0, True, case),
                               ("torch_contiguous", [2, 0, 1], 4.0, 25.0, True, case),
                               ("torch_copy", [0, 2, 1], 1.0, 100.0, False, case),
                               ("torch", [0, 2, 1], 2.0, 50.0, True, case),
                               ("torch_contiguous", [0, 2, 1], 4.0, 25.0, True, case)])
        self.assertEqual(d["rows"][1]["bytes"], 2.0 * 60 * 4)
        self.assertEqual(d["rows"][1]["framework"], "torch 0.0-fake")
        # One result with the tool's file: the rows keep the tool's case.
        stored = summarize.store(self.path("store"), "gpu1", "awkward-permute", [like, out])
        with open(stored) as f:
            merged = json.load(f)
        self.assertEqual({r["case"] for r in merged["rows"]}, {case})
        self.assertEqual(len(merged["rows"]), 7)

    def test_batch_of_calls_and_a_transposition(self):
        calls = self.path("calls")
        with open(calls, "w") as f:
            f.write(f"transpose --m 3 --n 5 --dtype double --reps 2 --json {self.path('t.json')}\n")
            f.write(f"permute --shape 2,3 --perm 1,0 --reps 1 --json {self.path('p.json')}\n")
        self.fake.cuda.schedule, self.fake.cuda.timed = [1.0], 0
        self.assertEqual(self.peer.main(["--batch", calls]), 0)
        with open(self.path("t.json")) as f:
            t = json.load(f)
        self.assertEqual([(r["op"], r["variant"], r["shape"], r["dtype"], r["verified"]) for r in t["rows"]],
                         [("transpose", "torch_copy", [3, 5], "double", False),
                          ("transpose", "torch", [3, 5], "double", True),
                          ("transpose", "torch_contiguous", [3, 5], "double", True)])
        self.assertNotIn("perm", t["rows"][1])
        self.assertEqual(t["rows"][1]["bytes"], 2.0 * 15 * 8)
        self.assertEqual(t["device"], "Fake GPU")
        self.assertTrue(os.path.exists(self.path("p.json")))

    def test_without_pytorch_or_cuda_nothing_is_written(self):
        sys.modules["torch"] = None  # import torch raises ImportError
        out = self.path("none.json")
        args = ["permute", "--shape", "3,4", "--perm", "1,0", "--json", out]
        self.assertEqual(self.peer.main(args), 0)
        self.assertEqual(self.peer.main(args[:-2] + ["--space", "openmp", "--json", out]), 0)
        sys.modules["torch"] = self.fake
        self.fake.cuda.is_available = lambda: False
        try:
            self.assertEqual(self.peer.main(args), 0)
        finally:
            self.fake.cuda.is_available = lambda: True
        self.assertFalse(os.path.exists(out))
        # Bad arguments are refused (argparse's exit status 2).
        with self.assertRaises(SystemExit) as e:
            self.peer.main(["permute", "--shape", "3,4", "--json", out])
        self.assertEqual(e.exception.code, 2)

if __name__ == "__main__":
    unittest.main()
