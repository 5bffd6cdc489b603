"""embedviz.random_init: the one way a table before training is drawn."""
import numpy as np
import torch

from embedviz.random_init import GPT2_STD, normal_rows, normal_table


def test_torch_table_is_torch_randn_times_std():
    got = normal_table(5, 7, std=0.5, generator=torch.Generator().manual_seed(3))
    expected = torch.randn(5, 7, generator=torch.Generator().manual_seed(3)) * 0.5
    assert torch.equal(got, expected)


def test_default_std_is_text_000s_small_gaussian():
    table = normal_table(2_000, 64, generator=torch.Generator().manual_seed(0))
    assert abs(float(table.std()) - 0.02) < 0.001 and GPT2_STD == 0.02


def test_numpy_rows_do_not_depend_on_the_other_rows_asked_for():
    a = normal_rows([0, 5, 9], 256)
    b = normal_rows([9, 100], 256)
    np.testing.assert_array_equal(a[2], b[0])
    assert a.shape == (3, 256) and not np.allclose(a[0], a[1])


def test_numpy_rows_follow_std_seed_and_table():
    rows = normal_rows(np.arange(200), 64, std=1.0)
    assert abs(rows.std() - 1.0) < 0.02 and abs(rows.mean()) < 0.02
    assert not np.allclose(normal_rows([3], 8, seed=1), normal_rows([3], 8, seed=2))
    assert not np.allclose(normal_rows([3], 8, table=0), normal_rows([3], 8, table=1))
