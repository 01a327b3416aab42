"""pypop's MPI metrics computed from Parallax DataFrames (parallax.pypop) equal pypop's own
precomputed table for the epoch traces (tests/data/oracles/epoch_precomputed.csv, which pypop's
tests require), except the two factors that need Dimemas."""

import math
import os

import pandas as pd
import pytest

import parallax
from parallax import pypop

DATA = os.environ["PARALLAX_TEST_DATA"]


@pytest.fixture(scope="module")
def metrics():
    stats = {n: pypop.statistics(parallax.open(os.path.join(DATA, "epoch", f"epoch_{n}proc.prv.gz")),
                                 os.path.join(DATA, "cfg", "pypop"))
             for n in (1, 2, 4)}
    return stats, pypop.mpi_metrics(stats)


def test_statistics_per_thread(metrics):
    stats, _ = metrics
    s = stats[4]
    assert list(s.index) == [(r, 1) for r in (1, 2, 3, 4)]
    assert (s["OpenMP Useful Computation"] == 0).all()  # an MPI-only trace
    # Useful duration per rank, as `parallax analyze` prints it for total_useful_computation.
    assert s["Total Useful Computation"].tolist() == [5920461325.0, 5999910804.0, 5882590764.0,
                                                      5881705180.0]


def test_mpi_metrics_equal_pypops_precomputed_table(metrics):
    _, table = metrics
    ref = pd.read_csv(os.path.join(DATA, "oracles", "epoch_precomputed.csv"), index_col=0)
    compared = 0
    for column in table.columns:
        if column not in ref.columns:
            continue
        for n in (1, 2, 4):
            got, want = float(table.loc[n, column]), float(ref.loc[n, column])
            if column in ("MPI Serialisation Efficiency", "MPI Transfer Efficiency"):
                assert math.isnan(got)  # needs the ideal-network replay
                continue
            assert got == pytest.approx(want, rel=1e-6), (column, n)
            compared += 1
    assert compared == 13 * 3


def test_openmp_metrics_from_paramedirs_tables():
    """pypop's OpenMP metrics of the ImageMagick trace (1 rank × 2 threads), worked out from
    the definitions with the per-thread values paramedir writes for pypop's cfgs
    (oracles/paramedir/omp2/pypop__*: total_runtime_excl_disabled, total_useful_computation,
    omp_total_runtime, omp_useful_computation, serial_useful_computation)."""
    stats = pypop.statistics(parallax.open(os.path.join(DATA, "omp", "omp2.prv.gz")),
                             os.path.join(DATA, "cfg", "pypop"))
    runtime = 10380609993.0                                    # max over threads
    useful = (10321496492.0 + 4691185591.0) / 2                # mean Total Useful Computation
    omp_lost = 4708914430.0 - (4694427452.0 + 4691185591.0) / 2  # region time − mean useful in it
    serial = 5627069040.0                                      # first thread, serial useful
    table = pypop.openmp_metrics({2: stats, 4: stats})
    row = table.loc[2]
    assert row["Parallel Efficiency"] == pytest.approx(useful / runtime, rel=1e-9)   # 0.7231
    assert row["OpenMP Region Efficiency"] == pytest.approx(1 - omp_lost / runtime, rel=1e-9)  # 0.9984
    assert row["Serial Region Efficiency"] == pytest.approx(1 - serial / runtime * (1 - 1 / 2),
                                                            rel=1e-9)  # 0.7290
    assert row["Global Efficiency"] == pytest.approx(useful / runtime, rel=1e-9)
    assert row["Runtime"] == runtime
    assert (row["Number of Processes"], row["Threads per Process"]) == (1, 2)
    # the same trace twice: every scaling is 1
    for column in ("Computational Scaling", "Instruction Scaling", "IPC Scaling",
                   "Frequency Scaling", "Speedup"):
        assert table.loc[4, column] == pytest.approx(1.0), column
