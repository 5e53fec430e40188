"""MiniLM on numpy: the same vectors sentence-transformers gives, compound labels split into words."""

import os

import numpy as np
import pytest

from memory_node.core.embedding import Embedder, EmbeddingUnavailable, model_dir, single_blas_thread


def _require_model() -> None:
    """Skip where the model is not installed, except under scripts/test.sh (which ran setup.sh, so a
    missing model there is a missing install step, not a reason to skip)."""
    try:
        model_dir()
        import safetensors  # noqa: F401
        import tokenizers  # noqa: F401
    except (EmbeddingUnavailable, ImportError) as e:
        if os.environ.get("MEMORY_NODE_REQUIRE_ROS") == "1":
            raise
        pytest.skip(f"MiniLM model not installed: {e}")


@pytest.fixture(scope="module")
def embedder():
    _require_model()
    return Embedder()


# sentence-transformers 6.2.0 + torch 2.13.0 (CPU) on the same package, encode(normalize_embeddings=True):
# the first six dimensions of each vector, and the cosines between them.
REFERENCE = {
    "something to drink from": [-0.070039, 0.025714, -0.024403, 0.046707, 0.015922, 0.017602],
    "mug": [-0.061129, 0.089166, -0.022338, 0.077567, 0.015156, 0.010531],
    "robot pick(mug_1) failed: drawer is locked": [-0.100653, -0.006176, 0.051087, 0.027797, 0.039031,
                                                   0.024716],
    "Wine glass on the kitchen table!": [0.019978, 0.062248, -0.027812, 0.0124, 0.021219, 0.000217],
}
REFERENCE_COSINES = {("something to drink from", "mug"): 0.466485,
                     ("something to drink from", "robot pick(mug_1) failed: drawer is locked"): 0.111662,
                     ("mug", "robot pick(mug_1) failed: drawer is locked"): 0.31964}


def test_vectors_match_sentence_transformers(embedder):
    texts = list(REFERENCE)
    vecs = embedder.encode(texts)
    assert vecs.shape == (len(texts), 384) and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    for text, vec in zip(texts, vecs):
        assert np.allclose(vec[:6], REFERENCE[text], atol=2e-5), text
    for (a, b), cosine in REFERENCE_COSINES.items():
        va, vb = embedder.encode([a, b])
        assert float(va @ vb) == pytest.approx(cosine, abs=1e-4)


def test_a_batch_gives_what_single_texts_give(embedder):
    texts = ["a", "mug", "where did I leave my keys", "the cutlery goes in the top drawer next to the sink"]
    batch = embedder.encode(texts)
    single = np.stack([embedder.encode([t])[0] for t in texts])
    assert np.abs(batch - single).max() < 1e-5
    assert embedder.encode([]).shape == (0, 384)


def test_compound_labels_split_into_the_words_they_are_made_of(embedder):
    assert embedder.split_compound("wineglass") == "wine glass"
    assert embedder.split_compound("coffeetable") == "coffee table"
    assert embedder.split_compound("dishwashingliquid") == "dish washing liquid"
    # whole words, unknown words and words whose only split is nonsense stay whole
    assert embedder.split_compound("mug") == "mug"
    assert embedder.split_compound("toaster") == "toaster"
    assert embedder.split_compound("dishwasher") == "dishwasher"
    assert embedder.split_compound("fridge_3") == "fridge_3"


def test_missing_model_files_say_so(tmp_path):
    e = Embedder(path=tmp_path)
    with pytest.raises(EmbeddingUnavailable, match="model.safetensors"):
        e.encode(["mug"])
    assert not e.loaded
    assert e.split_compound("wineglass") == "wineglass"  # no vocabulary: labels stay as they are


def test_encoding_holds_blas_to_one_thread():
    threadpoolctl = pytest.importorskip("threadpoolctl")
    with single_blas_thread():
        infos = [i for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]
        assert infos and all(i["num_threads"] == 1 for i in infos)
