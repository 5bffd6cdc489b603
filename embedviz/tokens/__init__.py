"""Text to token ids: the byte tokenizer, the real vocabularies (unigram, Qwen's BPE), subwords, ids as names."""
