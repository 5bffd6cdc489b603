"""Every plain ValueError / TypeError left in the source is one no reader can reach from a page (a widget, a link,
typed text, an upload, a pasted config.json): the rest carry a code (embedviz/errors.py) and read in Chinese
(tests/app/test_errors.py raises each from the real core call)."""
from __future__ import annotations

import ast

from tests.conftest import ROOT

# The plain ValueError / TypeError a reader cannot reach from a page (widget, link, typed text, upload, pasted
# config.json), by file and function, and why: these stay in English, under the "only in English" lead-in if ever
# shown. A new plain raise elsewhere fails below: give it a code, or add it here with its reason.
_SHAPE = "an array the app itself builds has the wrong shape, dtype or size: a programming error"
_TYPE = "an argument of the wrong Python type: the app always passes the right one (a notebook's slip)"
_PACKAGED = "the installed model package is damaged: an installation fault, not a reader's input"
_PROGRAM = "the app's own call is wrong (a figure, a tour step, an internal option)"
INTERNAL_RAISES = {
    "embedviz/positions/alibi.py::bias_at": _SHAPE,  # the page picks heads from num_heads itself
    "embedviz/positions/alibi.py::relative_bias": _SHAPE,
    # caught at once: the link's one refusal, link_damaged
    "embedviz/app/context_extension_view.py::decode_config": _PROGRAM,
    "embedviz/app/widgets.py::figure_for": _PROGRAM,
    "embedviz/app/compat/guards.py::_not_json": _PROGRAM,  # json.loads's parse_constant: caught at once, the state dropped
    "embedviz/app/compat/speed.py::speed_off": _PROGRAM,  # the operator's EMBEDVIZ_SPEED_OFF, read at the server's start
    "embedviz/positions/attention.py::_check_perm": _SHAPE,  # a typed shuffle is checked first (shuffle_tokens)
    "embedviz/positions/attention.py::permutation_demo": _SHAPE,
    "embedviz/input_layer/composition.py::width_and_params": _SHAPE,  # the page sums equal widths only
    "embedviz/rope/context_extension.py::classify_pairs": _SHAPE,
    "embedviz/dot_product.py::compare_vectors": _SHAPE,
    "embedviz/dot_product.py::similarity_band": _SHAPE,  # a cosine the core computed
    "embedviz/dot_product.py::grade_guesses": _SHAPE,  # one guess widget per pair
    "embedviz/downsample.py::block_mean": _SHAPE,
    "embedviz/downsample.py::log_options": _PROGRAM,
    "embedviz/models/e5_file.py::_Reader.take": _PACKAGED,
    "embedviz/models/e5_file.py::read_e5_file": _PACKAGED,
    "embedviz/input_layer/embeddings.py::_as_ids": _SHAPE,  # ids come from the tokenizer
    "embedviz/input_layer/embeddings.py::EmbeddingComposer.__init__": _SHAPE,
    "embedviz/input_layer/embeddings.py::EmbeddingComposer.forward": _SHAPE,
    "embedviz/figures/__init__.py::downsample_template": _PROGRAM,
    "embedviz/figures/export.py::table_csv": _SHAPE,
    "embedviz/input_layer/lookup.py::_ids": _SHAPE,
    "embedviz/input_layer/lookup.py::_weight": _SHAPE,
    "embedviz/input_layer/lookup.py::gradient_step": _SHAPE,
    "embedviz/input_layer/lookup.py::second_step_rows": _SHAPE,  # no page calls it; a notebook passes the batches
    # a value the core computed from a clipped position
    "embedviz/positions/why_sinusoidal.py::position_with_value": _SHAPE,
    "embedviz/positions/why_sinusoidal.py::binary_code": _SHAPE,
    "embedviz/positions/why_sinusoidal.py::smooth_counter": _SHAPE,
    "embedviz/positions/why_sinusoidal.py::adjacent_steps": _SHAPE,
    "embedviz/positions/analysis.py::_position_table": _SHAPE,
    "embedviz/positions/analysis.py::offset_similarity": _SHAPE,
    "embedviz/positions/analysis.py::plane_turn": _SHAPE,  # rows_window keeps at least 2 rows
    "embedviz/positions/analysis.py::is_rotation": _SHAPE,
    "embedviz/models/pretrained.py::PretrainedEmbeddings.token_id": _PACKAGED,  # a tokenizer id past its own table
    "embedviz/tokens/raw_ids.py::id_neighbours": _SHAPE,
    "embedviz/rope/rotary.py::rotate": _SHAPE,
    "embedviz/rope/rotary.py::_vector_2d": _SHAPE,
    "embedviz/rope/rotary.py::scores_vs_offset": _SHAPE,
    "embedviz/rope/config.py::parse_config_json": _TYPE,  # a paste or an upload is always text
    "embedviz/rope/config.py::config_text_part": _TYPE,  # parse_config_json returns a dict or refuses
    "embedviz/rope/scaling.py::compute": _TYPE,  # rope_config checks a pasted scaling dict first (scaling_not_dict)
    "embedviz/rope/scaling.py::dynamic_base": _PROGRAM,
    "embedviz/similarity.py::_float_matrix": _SHAPE,
    "embedviz/language_model/glass.py::ids_of": _SHAPE,  # a reader's text is encoded first (glass_chars refuses it)
    "embedviz/language_model/glass.py::forward": _SHAPE,
    "embedviz/language_model/glass.py::next_token_losses": _SHAPE,
    "embedviz/language_model/heads.py::head_kinds": _SHAPE,  # the page's lengths are all past FROM
    "embedviz/language_model/copying.py::copy_check": _PROGRAM,  # the page runs it with its own passage length
    "embedviz/similarity.py::cosine_similarity_matrix": _SHAPE,
    "embedviz/similarity.py::adjacent_similarity": _SHAPE,
    "embedviz/similarity.py::paired_cosine": _SHAPE,
    "embedviz/similarity.py::pca_2d": _SHAPE,  # word_list_short and rows_window keep at least 2 rows
    "embedviz/positions/sinusoidal.py::sinusoidal_rows": _SHAPE,
    "embedviz/models/tensor_files.py::read_upload": _TYPE,  # an upload's bytes
    "embedviz/lessons/tours.py::answer": _PROGRAM,  # the panel asks only a step that has a question
    "embedviz/training/result.py::TrainingResult.index": _PROGRAM,  # tokens named by the tours' own data
    "embedviz/tokens/unigram.py::UnigramTokenizer.__init__": _PACKAGED,
    "embedviz/models/word_vectors.py::nearest_neighbours": _SHAPE,
    "embedviz/models/word_vectors.py::project_2d": _SHAPE,  # word_list_short keeps at least 2 words
    "embedviz/models/word_vectors.py::_rows": _SHAPE,
    "embedviz/models/word_vectors.py::_as_float_table": _SHAPE,
}


def _plain_raises():
    """``path::function`` of every ``raise ValueError(...)`` / ``raise TypeError`` (called or bare) in the source."""
    for path in sorted([*ROOT.joinpath("embedviz").rglob("*.py"), *ROOT.joinpath("app_pages").rglob("*.py")]):
        def walk(node, where):
            for child in ast.iter_child_nodes(node):
                inner = where
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    inner = f"{where}.{child.name}" if where else child.name
                raised = child.exc.func if isinstance(child, ast.Raise) and isinstance(child.exc, ast.Call) else \
                    getattr(child, "exc", None) if isinstance(child, ast.Raise) else None  # ValueError(...) or bare
                if getattr(raised, "id", None) in ("ValueError", "TypeError"):
                    yield f"{path.relative_to(ROOT).as_posix()}::{where}"
                yield from walk(child, inner)
        yield from walk(ast.parse(path.read_text(encoding="utf-8")), "")


def test_every_plain_value_error_is_one_no_reader_can_reach():
    sites = set(_plain_raises())
    assert sites - set(INTERNAL_RAISES) == set(), "give these a code in embedviz/errors.py (or list them above)"
    assert set(INTERNAL_RAISES) - sites == set(), "listed above but no longer raising a plain error: drop them"
