#!/usr/bin/env python3
"""bench/compare's chart reads one way: a bar above 1 always means ours is ahead, whether the
row measures time (lower is better) or throughput (higher is better), and each group is named
by what it measures, not by its row letter.

usage: chart_points_test.py BENCH_COMPARE
"""

import importlib.machinery
import importlib.util
import sys
import unittest

COMPARE = sys.argv[1] if len(sys.argv) > 1 else "bench/compare"


def load_compare():
    loader = importlib.machinery.SourceFileLoader("bench_compare", COMPARE)
    spec = importlib.util.spec_from_loader("bench_compare", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def col(name, median):
    return {"name": name, "median": median}


RESULTS = {"rows": {
    "a": {"title": "spawn -> initialize reply", "unit": "ms", "lower_is_better": True,
          "columns": [col("fake-claude", 10.0), col("real CLI", 50.0), col("Node fake", 5.0)]},
    "c": {"title": "replay throughput into the SDK", "unit": "MB/s", "lower_is_better": False,
          "columns": [col("C++ SDK", 600.0), col("TS SDK", 100.0), col("cat | pipe", 1200.0)]},
    "f": {"title": "SDK peak RSS on a long session", "unit": "MiB", "lower_is_better": True,
          "columns": [col("C++ SDK, 64 MiB", 20.0), col("C++ SDK, 1024 MiB", 22.0),
                      col("TS SDK, row c size", 180.0)]},
    "g": {"title": "harness check -j1 vs -j2", "unit": "s", "lower_is_better": True,
          "columns": [col("-j1", 4.0), col("-j2", 2.0)]},
}}


class ChartPoints(unittest.TestCase):
    def setUp(self):
        self.points = {(g, p): round(a, 3) for g, p, a in load_compare().chart_points(RESULTS)}

    def test_a_slower_peer_on_a_time_row_is_a_tall_bar(self):
        self.assertEqual(self.points[("spawn -> initialize reply (ms)", "real CLI")], 5.0)
        self.assertEqual(self.points[("spawn -> initialize reply (ms)", "Node fake")], 0.5)

    def test_a_slower_peer_on_a_throughput_row_is_a_tall_bar_too(self):
        self.assertEqual(self.points[("replay throughput into the SDK (MB/s)", "TS SDK")], 6.0)
        self.assertEqual(self.points[("replay throughput into the SDK (MB/s)", "cat | pipe")], 0.5)

    def test_ours_at_another_size_is_not_a_peer_and_rows_of_ours_only_are_left_out(self):
        groups = {g for g, _ in self.points}
        self.assertNotIn(("SDK peak RSS on a long session (MiB)", "C++ SDK, 1024 MiB"), self.points)
        self.assertEqual(self.points[("SDK peak RSS on a long session (MiB)", "TS SDK, row c size")], 9.0)
        self.assertFalse(any(g.startswith("harness check") for g in groups))

    def test_groups_are_named_not_lettered(self):
        for group, _ in self.points:
            self.assertNotRegex(group, r"^[a-h][:.] ")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
