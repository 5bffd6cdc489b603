"""Strings of the subword block on the "Real model" page (lesson 003)."""
PREFIX = "sub."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "sub.header": {"en": "Rows are subwords, not words", "zh": "每一行是子词，而不是完整的词"},
    "sub.text": {
        "en": (
            "Lesson 003: a model's vocabulary holds subwords. A rare word is cut into pieces, each with its own row "
            "of the table, and the layers above assemble the word's meaning. The lesson's example, “unbelief” → "
            "“un” + “belief”, comes from a BPE vocabulary. This model's WordPiece vocabulary (30,522 entries) cuts "
            "it differently: type a word and see its pieces (“##” marks a piece that continues a word)."
        ),
        "zh": (
            "第 003 课：模型的词表里是子词。一个不常见的词会被切成几块，每块在表里有自己的一行，词一级的语义靠"
            "后续层组合出来。课里的例子 “unbelief” → “un” + “belief” 来自 BPE 词表。这个模型的 WordPiece 词表"
            "（30,522 条）切法不同：输入一个词，看看它被切成哪些块（“##” 表示接在词中间的一块）。"
        ),
    },
    "sub.word": {"en": "a word", "zh": "一个词"},
    "sub.col_piece": {"en": "piece", "zh": "子词"},
    "sub.col_id": {"en": "token id (table row)", "zh": "token id（表中的行）"},
    "sub.count": {"en": "“{word}” → {n} piece(s): {pieces}", "zh": "“{word}” → {n} 块：{pieces}"},
}
