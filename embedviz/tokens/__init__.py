"""Text to token ids: the byte tokenizer, the real vocabularies (unigram, Qwen's BPE), subwords, ids as names."""

from embedviz._exports import lazy

# its public functions by module (embedviz/_exports.py: each loaded when first asked for)
__all__, __getattr__, __dir__ = lazy(__name__, {
    "qwen": ("ranks_path", "mergeable_ranks", "token_bytes", "tokenize", "random_rows"),
    "raw_ids": ("byte_id_neighbours", "id_neighbours", "cosine_rank"),
    "subwords": ("word_pieces",),
    "tokenizer": ("decode", "token_label", "token_labels", "byte_pieces", "text_token_labels"),
    "unigram": ("script_of",),
})
