"""embedviz.rope.vision against transformers 5.24's vision rotary modules (Qwen2-VL's, Pixtral's): their cos/sin
for each patch's (row, column) position ids, and the similarity those give."""
from __future__ import annotations

import numpy as np
import pytest

from embedviz.rope.vision import DEFAULTS, LAYOUTS, patch_angles, patch_similarity
from tests.conftest import require_oracle
from tests.input_errors import raises_input


def hf_cos_sin(layout: str, rows, cols):
    torch = require_oracle("torch")
    transformers = require_oracle("transformers")
    head_dim, theta = DEFAULTS[layout]
    if layout == "qwen2_vl":
        from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLVisionRotaryEmbedding as Rotary
        config = transformers.Qwen2VLConfig().vision_config
    else:
        from transformers.models.pixtral.modeling_pixtral import PixtralVisionRotaryEmbedding as Rotary
        config = transformers.PixtralVisionConfig()
    rotary = Rotary(config)
    positions = torch.tensor(np.stack([rows, cols], axis=1))  # (N, 2): h then w, as the encoders pass them
    cos, sin = rotary(torch.zeros(1, dtype=torch.float32), positions)
    assert cos.shape[-1] == head_dim and config.rope_parameters["rope_theta"] == theta
    return cos.double().numpy(), sin.double().numpy()


@pytest.mark.parametrize("layout", LAYOUTS)
def test_angles_equal_the_vision_rotary_module(layout):
    head_dim, theta = DEFAULTS[layout]
    rows, cols = np.divmod(np.arange(12 * 12), 12)
    cos, sin = hf_cos_sin(layout, rows, cols)
    angles = patch_angles(rows, cols, head_dim, theta, layout)
    np.testing.assert_allclose(cos[:, : head_dim // 2], np.cos(angles), atol=2e-6)  # float32 cos in the module
    np.testing.assert_allclose(sin[:, head_dim // 2:], np.sin(angles), atol=2e-6)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_similarity_is_the_modules_rotated_dot_product(layout):
    """q = k = ones, rotated by the module's cos/sin at every patch: q_p · k_q / d, from transformers' own
    apply_rotary_pos_emb."""
    torch = require_oracle("torch")
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb
    head_dim, theta = DEFAULTS[layout]
    grid, row, col = 9, 3, 5
    rows, cols = np.divmod(np.arange(grid * grid), grid)
    cos, sin = (torch.tensor(a) for a in hf_cos_sin(layout, rows, cols))
    ones = torch.ones(1, 1, grid * grid, head_dim, dtype=torch.float64)
    q, _ = apply_rotary_pos_emb(ones, ones, cos[None], sin[None])
    q = q[0, 0].numpy()  # (N, head_dim)
    expected = (q @ q[row * grid + col] / head_dim).reshape(grid, grid)
    got = patch_similarity(grid, row, col, head_dim=head_dim, theta=theta, layout=layout)
    np.testing.assert_allclose(got, expected, atol=1e-5)
    assert got[row, col] == pytest.approx(1.0)


def test_similarity_depends_on_the_offset_only():
    a = patch_similarity(16, 2, 3, head_dim=64, theta=10_000.0, layout="pixtral")
    b = patch_similarity(16, 6, 8, head_dim=64, theta=10_000.0, layout="pixtral")
    np.testing.assert_allclose(a[0:8, 0:8], b[4:12, 5:13], atol=1e-12)


def test_bad_inputs_name_the_parameter():
    with raises_input("one_of", name="layout", value="sam"):
        patch_similarity(4, 0, 0, head_dim=64, theta=1e4, layout="sam")
    with raises_input("multiple", name="head_dim", value=66, k=4):
        patch_similarity(4, 0, 0, head_dim=66, theta=1e4, layout="pixtral")


def test_rows_and_columns_count_from_zero_like_position_ids():
    """The last patch of a 4 x 4 grid is (3, 3); the message names the index asked for and the last one allowed."""
    assert patch_similarity(4, 3, 3, head_dim=64, theta=1e4, layout="pixtral")[3, 3] == pytest.approx(1.0)
    with raises_input("at_most", name="row", value=4, limit=3) as info:
        patch_similarity(4, 4, 0, head_dim=64, theta=1e4, layout="pixtral")
    assert str(info.value) == "row (4) must be <= 3"
    with raises_input("at_most", name="col", value=4, limit=3):
        patch_similarity(4, 0, 4, head_dim=64, theta=1e4, layout="pixtral")
    with raises_input("at_least", name="row", value=-1, limit=0):
        patch_similarity(4, -1, 0, head_dim=64, theta=1e4, layout="pixtral")
