#!/usr/bin/env python3
"""bench/summarize.py: its figures on results made for the test (known answers),
and every committed result file read in both modes without an error.

    python3 tests/test_summarize.py        (ctest: bench_summarize)
"""
import json
import os
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

    def test_every_committed_result(self):
        # Every JSON under bench/results in the mode that fits it, without an error.
        files = []
        for top, _, names in os.walk(os.path.join(ROOT, "bench", "results")):
            files += [os.path.join(top, n) for n in names if n.endswith(".json")]
        self.assertGreater(len(files), 0)
        for path in sorted(files):
            with self.subTest(path=os.path.relpath(path, ROOT)):
                with open(path) as f:
                    d = json.load(f)
                if "benchmarks" in d:
                    summarize.cmm_extremes([d])
                else:
                    self.assertIn("|", summarize.table(path))
                    summarize.extremes([path])


if __name__ == "__main__":
    unittest.main()
